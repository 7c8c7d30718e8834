// Alignment and layout, the same structure padded to 16 bytes with
// __align__(16): one 16-byte load per thread, 16 sectors for the warp's
// 512 bytes. The padding word is moved too, though the program never
// asks for it. The padding is a field of its own here (the real kernel
// has three fields under __align__(16), which nvcc also reads with one
// 16-byte load, but Warpscope's model of the copy splits it into an
// 8-byte and a 4-byte load).
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
struct __align__(16) Vec3Padded
{
  float x, y, z;
  float pad;   // never read
};

__global__ void structPadded(const Vec3Padded *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
  {
    Vec3Padded v = in[i];
    out[i] = v.x + v.y + v.z;
  }
}
