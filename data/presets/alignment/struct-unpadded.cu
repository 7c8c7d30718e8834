// Alignment and layout, a 12-byte structure: struct { float x, y, z; } is
// not a power of two in size, so the compiler reads it with three 4-byte
// loads, each striding 12 bytes across the warp: 12 sectors for 128 used
// bytes, 33 %. The three loads touch the same 12 sectors, so L1 serves the
// second and the third.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
struct Vec3
{
  float x, y, z;
};

__global__ void structUnpadded(const Vec3 *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
  {
    Vec3 v = in[i];
    out[i] = v.x + v.y + v.z;
  }
}
