// Alignment and layout, the 7-byte structure padded to 8 with
// __align__(8): one byte of padding, and the structure is one 8-byte
// load: 8 sectors, one request, 7 of every 8 bytes moved used.
// Differs from the real kernel in how it reads the structure: that one
// copies it (Bytes7Padded v = in[i]), which nvcc does with one 8-byte
// load, but Warpscope's kernel language cannot index an array inside a
// structure held in registers; this one reads the same 8 bytes as one
// unsigned long long and takes the bytes from it.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
struct __align__(8) Bytes7Padded
{
  unsigned char b[7];
};

__global__ void padded7(const Bytes7Padded *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
  {
    unsigned long long v = *(const unsigned long long *) &in[i];   // the 7 bytes and the padding
    out[i] = (unsigned) (v & 0xffffffff) ^ (unsigned) ((v >> 32) & 0xffffff);
  }
}
