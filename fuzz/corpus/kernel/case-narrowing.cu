// fuzz-kernel: a case label an int cannot hold was converted in place, printed as a long of another value, and read back as an unsigned long; nvcc refuses it, and so does Warpscope now
// warpscope: grid = 1; block = 32
__global__ void k(int *out) {
  int t = threadIdx.x, steps = 0;
  switch (t % 3) { case 0: steps += 1; case 0xffffffff1: steps *= 2; break; default: steps = -steps; }
  switch (t % 3) { case 0: steps += 1; case 'b': steps *= 2; break; case 7u: steps--; }
  out[t] = steps;
}
