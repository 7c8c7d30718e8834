// found by fuzz-kernel (a stencil whose "__global__" lost its function):
// a __global__ variable was read as a constant, printed as one, and read
// back as something else; nvcc refuses it, and so does the reader now
__global__ void stencil_1d(int *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
__global__
  // Apply the stencil
  int result = 0;
