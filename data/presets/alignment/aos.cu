// Alignment and layout, an array of structures read one field at a time:
// only x of each { float x, y, z }. Lanes are 12 bytes apart, so 12
// sectors move 384 bytes to deliver 128: 33 %.
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

__global__ void arrayOfStructures(const Vec3 *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[i].x;
}
