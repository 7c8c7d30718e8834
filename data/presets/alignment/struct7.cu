// Alignment and layout, a 7-byte structure, packed: struct { unsigned
// char b[7]; } has the alignment of a byte, so the compiler reads it with
// seven 1-byte loads, each striding 7 bytes across the warp: 7 or 8
// sectors a load for 32 useful bytes, 7 requests where one could do.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
struct Bytes7
{
  unsigned char b[7];
};

__global__ void packed7(const Bytes7 *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
  {
    const unsigned char *b = in[i].b;
    out[i] = (b[0] | (unsigned) b[1] << 8 | (unsigned) b[2] << 16 | (unsigned) b[3] << 24) ^
             (b[4] | (unsigned) b[5] << 8 | (unsigned) b[6] << 16);
  }
}
