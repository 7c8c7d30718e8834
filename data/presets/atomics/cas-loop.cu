// Atomics, a compare-and-swap loop: a float maximum has no atomic of its
// own, so each thread retries atomicCAS until no other lane changed the
// word in between. All lanes are on one address: they serialise, and
// some retry.
/* warpscope:
 *   N      = 1048576
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[1] = 0
 */
__global__ void casMaximum(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
  {
    float v = (float) (in[i] & 0xffffff) * (1.0f / 16777216.0f);
    unsigned old = out[0], assumed;

    do
    {
      assumed = old;
      old = atomicCAS(&out[0], assumed, __float_as_uint(fmaxf(v, __uint_as_float(assumed))));
    }
    while (assumed != old);
  }
}
