// Alignment and layout, the element size: thread i copies element i. A
// warp moves 32 elements: 32, 64, 128, 256 or 512 bytes for elements of
// 1, 2, 4, 8 or 16 bytes, in 1, 2, 4, 8 or 16 sectors, always fully used.
// The preset sweeps elem_size; a kernel text has one type, so change Elem
// below to unsigned char, unsigned short, float, uint2 or uint4 for the
// other sizes (the real kernel is a template of the type).
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
typedef float Elem;   // 4 bytes, the preset's default

__global__ void copyElements(const Elem *in, Elem *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[i];
}
