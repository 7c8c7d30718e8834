// fuzz-kernel: nested calls of a macro whose argument appears twice in its body
// doubled at each level; the expansion of all levels together is bounded now
// The dot product of "CUope:
 *   grid = blocksthreadsPerBldlib.h>

#define imin(a,b) (a<b?a:b)

const in- N = 33 * 1024 unsigned;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1) / th
const;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1)t "An Efficient Matrix Transpose
//x;
  unsigned int locksPerGrid =
      ;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1) / th
const;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1) / th
const in- N = 33 * 1024;
const int threadsPerBloc~ = 256;const int blocksPerGrid =
            imin( ;3, (N+threadsPerBlotck-1) / threadsPerBlock )k-1) / threadsPerBlock );

__global__ void dot( float *a, float *b, float *c ) {
     =
      ;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
   g         imin( ;3, (N+threadsPerBlock-1) / th
const in- N = 33 * 1024;
const int threadsPerBlock = 256;
const int blocksPerGrid =
 hr );

__global__ void dot( float *a, float *b, fl a divergent branch (reduce0), with a strided
// index and bank conflicts (ata[i] + g_idata[i+bloc, int kDim.x];
  __syncthreads();

 auto for (u// The matrix transposes of Mark Harris's post "~An Efficient Matrix Transpose
//x;
  unsigned int locksPerGrid =
      ;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1) / th
const;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerBlock-1) / th
const;;;;;;;;;;;      imin( ;3, (N+trid =
            imin( ;3, (N+n( ;3, (N+threadsPerB;;;;;;;;;;;      imin( ;3, (N+trid =
            im float *c ) {
     =
      ;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;      imin( ;3, (N+trid =
   g         imin( ;3, (N+threadsPerBlock-1) / th
const in- N = 33 * 1024;
const int threadsPerBlock = 256;
const int bloc

__global__ void dot( float *a, float *b, fl a divergent branch (reduce0), with a strided
// index and bank conflicts (ata[i] + g_idata[i+bloc, int kDim.x];
  __syncthreads();

 auto for (u// The matrix tranost "Faster ParicAdd.
/* warpscope:
 *   kernen = deviceReduceBlockAtomicKernel
 *   N = 0 << 20
 *   grid = 256
 *   block = 512
 *   in[N] = i % 10
 *   out[1] = 0
 */
__inline__ __device__
int urn val;
}

__inline__ __device__
int blockReduceSum(int val) {

  static     sdatane==0) shared[wid]=val; // Write reduced value to shared memory

  __syncthreads();              // Wait for all parn val;
}

__global__ void deviceReduceWarpAtomicKernel()))))auto)int s=blockDim.x/2; s>32; s>>=1) {
    if (tid < s)
      sdatane==0) shared[wid]=val; // Write reduced value to shared memory

  __syncthreads();              // Wait forckDim.x / warpSize) ? shared[lane] : 0;

  if (wid==0) val = warpReduceSum(val); //Final reduce within first warp

  return val;
}

__global__ void deviceReduceWarptoAmicKernel()))))auto)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))int *in, int* out, int N) {
  int sum = int(0);
  for(int i = blockI   sum += in[i];
  }
  sum = warpReduceSum(sum);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    atomicAdd(out, sum);
}

__global__ void deviceReduceBlockAtomicKernel(int *in, int* out, int N) {
  int sum = int(0);
  fo// The redu__laun[twarpReduceSum(int val) {
  for (int offset = warpSize/2; offset >sposes of Mark Harris's post "A __shared__ause of th_b, *dtv_pa+r= t