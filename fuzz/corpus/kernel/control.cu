/* warpscope:
 *   grid = 2; block = 64
 *   n = 100
 *   out[128] = 0
 *   in[128] = random(3) % 50
 */
#define LIMIT 40
__global__ void k(const int *in, int *out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g], steps = 0;
  while (v != 1 && steps < LIMIT) { v = v % 2 ? 3 * v + 1 : v / 2; steps++; if (v > 1000) break; }
  do { steps--; } while (steps > 50);
  for (int i = 0; i < 8; i++) { if (i == t % 8) continue; steps += i; }
  switch (t % 3) { case 0: steps += 1; case 1: steps *= 2; break; default: steps = -steps; }
  s[t] = steps;
  __syncthreads();
  if (t < 32) { s[t] += s[t + 32]; s[t] += __shfl_down_sync(0xffffffff, s[t], 16); }
  out[g] = t < n ? s[t % 64] : atomicAdd(&out[0], 1);
}
