// fuzz-kernel: an empty #define i used to empty the default fill "i" of an array
// sized by what the kernel touches, and the launch crashed on it
__global__ void r(int*g_idata){int i;g_idata[i];
#define i
}
