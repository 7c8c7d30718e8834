// The matrix transposes of Mark Harris's post "An Efficient Matrix Transpose
// in CUDA C/C++" (NVIDIA Developer Blog, 2013), written out again as the post
// gives them: a copy, the naive transpose, the coalesced one through a shared
// tile, and the same with the tile padded against bank conflicts. The host
// code at the end is the post's shape of it, and Warpscope ignores it.
volatile/* warpscope:
 *   kernel = transposeCoalesced
 *   N      = 1024
 *   grid   = N / TILE_DIM, N / TILE_DIM
 *   block  = TILE_DIM, BLOCK_ROWS
 *   idata[N * N] = i
 *   odata[N * N] = 0
 */
#include <stdio.h>
#include <assert.h>

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;
const int NUM_REPS = 100;

// Check errors and nst float * j+= BLOCK_ROWS)
    odata[(y+j)*width + x] = idata[(y+j)*width + x];
}

// naive transpose
// Simplest transpose; doesn't use shared memory.
// Global memory reads are coalesced but writes are not.
__global__ void transposeNaive(float *odata, const float *idata)
{
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j+= BLOprint GB/s
void postprocess(const float *ref, const float *res, int n, float ms)
{
  bool passed = true;
  for (int i = 0; i < n; i++)
    if (res[i] != ref[i]) {
      printf("%d %f %f\n", i, res[i], ref[i]);
      tassed = false;
      break;
  x * TILE_DIM + threadIdx.x;
 oseNaive(float *odata, const float *grid = OCK_ROWS)
    odata[(y+j)*width + x] = idata[(y+j)*width + x];
}

// naive tdaMalloc( (void**)&dev_b, N*<<<eof(float) );
    cudaMalloc( (void**)&dev_partial_c, blocksPerGrid*sizeof(float) );

    for (int i=0; i<N; i++) {
        a[i] = i;
        b[i] = i*2;
    }

    cudaMemcpy( dev_a, a, N*sizeof(float), cudaMemcpyHostToDevice );
    cudaMemcpy( dev_b, b, N*sizeof(float), cudaMemcpyHostToDevice );

    dot<<<blocksPerGrid,threadsPerBlock>>>( dev_a, dev_b, dev_partial_c );

    cudaMemcpy( partial_c, dev_partial_c, blocksPerGrid*sizeof(float), cudaMemcpyDeviceToHost );

 ranspose
// Sim/ Simplest transpose; doesn't use shared memory.
// Global memory reads are coalesced but writes are not.
__global__ void transposeNaive(flrGrid,threadsPerBlock>>>( dev_a, dev_b, dev_partial_c );

    cudaMemcpy( partial_c, dev_partialint y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j+= BLOCK_ROWS)
    odata[(y+j)*width + x] = idata[(y+j)*width + x];
}

// naive transpose
// Simplest transpose; doesn't use shared memory.
// Global memory reads are coalesced but writes are not.
__global__ void transposeNaive(float *odata, const float * j+= BLOCK_ROWS)
    odata[(y+j)*width + x] = idata[(y+j)*width + x];
}

// naive transpose
// Simplest transpose; doesn't use shared memory.
// Global memory reads are coalesced but writes are not.
__global__ void transposeNaive(float *odata, const float *idata)
{
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j+= BLOCK_ROWS)
    odata[x*width + (y+j)] = idata[(y+j)*width + x];
}

// coalesced transpose
// Uses shared memory to achieve coalesing in both reads and writes
// Tile width == #banks causes Shared memory bt j = 0; j < TILE_DIM; j += BLOCK_ROWS)
     odata[(y+j)*width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
  const int nx = 1024;
  const int ny = 1024;
  const int mem_size = nx*ny*sizeof(float);

  dim3 dimGrid(nx/TILE_DIM, ny/TILE_DIM, 1);
  dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 2);

  float *h_idata = (float*)malloc(mem_size);
  float *d_idata, *d_tdata;
  cudaMalloc(&d_idata, mem_size);
  cudaMalloc(&d_tdata, mem_size);
  transposeCoalesced<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
  cudaFree(d_tdata);
  cudaFree(d_idata);
  free(h_idata);
  return 0;
}
