// warpscope: grid = 3; block = 96; hist[16] = 0; keys[288] = i * 7 % 16; flags[4] = 0
__constant__ int weights[16];
__global__ void k(const int *keys, unsigned int *hist, int *flags) {
  __shared__ unsigned int local[16];
  int t = threadIdx.x;
  if (t < 16) local[t] = 0;
  __syncthreads();
  int key = __ldg(&keys[blockIdx.x * blockDim.x + t]);
  atomicAdd(&local[key], (unsigned) weights[key]);
  unsigned b = __ballot_sync(__activemask(), key > 8);
  if (__popc(b) > 10) atomicCAS(&flags[blockIdx.x], 0, 1);
  atomicMax(&flags[3], __ffs(b) + __clz(b));
  __syncthreads();
  if (t < 16) atomicAdd(&hist[t], local[t]);
}
