// What nvcc keeps in a register through a loop, one shape per kernel
// (tests/test-kernel-keep.c): the model's count of each marked access
// against where nvcc 13.0 puts it in the PTX for sm_90 (-lineinfo).
// The streaming reads are on lines of their own, so that each marked line
// holds the one access the test looks at.
/* warpscope:
 *   kernel = reduce_while
 *   grid = 1
 *   block = 256
 *   n = 1024
 *   g[4096] = i % 7
 *   o[1024] = 0
 */

// Harris's reduce6: the sum stays in a register, stored once after the loop
__global__ void reduce_while(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, i = t;
  s[t] = 0;                                 // K:reduce_while.before
  while (i < n) {
    int v = g[i];
    s[t] += v;                              // K:reduce_while.loop
    i += 256;
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// no store before the loop: loaded once before it, stored once after
__global__ void load_store(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  if (t < 128)
    s[t + 1] = 3;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] += v;                              // K:load_store.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// a load only: once before the loop
__global__ void load_only(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, acc = 0;
  s[t] = g[t];
  __syncthreads();
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    acc += s[255 - t] * v;                  // K:load_only.loop
  }
  o[t] = acc;
}

// a barrier in the loop: nothing kept
__global__ void barrier(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] += v;                              // K:barrier.loop
    __syncthreads();
  }
  o[t] = s[255 - t];
}

// s[t] and s[t + 1] are apart: both kept
__global__ void neighbour(const int *g, int *o, int n) {
  __shared__ int s[257];
  int t = threadIdx.x;
  s[t] = g[t];
  s[256] = 0;
  __syncthreads();
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    int w = s[t + 1];                       // K:neighbour.other
    s[t] += w + v;                          // K:neighbour.loop
  }
  o[t] = s[255 - t];
}

// under an if: made at every iteration that takes it
__global__ void under_if(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    if (v > 3)
      s[t] += 1;                            // K:under_if.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// two pointer parameters may be the same memory: o[t] is loaded once, but
// stored at every iteration, since the next g[i] might read it
__global__ void global_alias(const int *g, int *o, int n) {
  int t = threadIdx.x;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    o[t] += v;                              // K:global_alias.loop
  }
}

// with __restrict__ they are not: loaded once, stored once
__global__ void global_restrict(const int *__restrict__ g, int *__restrict__ o, int n) {
  int t = threadIdx.x;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    o[t] += v;                              // K:global_restrict.loop
  }
}

// shared memory is never global memory: o[t] is kept while s[k] is read
__global__ void global_from_shared(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (int k = 0; k < n / 4; k++) {
    int v = s[k];                           // K:global_from_shared.other
    o[t] += v;                              // K:global_from_shared.loop
  }
}

// a tile of two dimensions
__global__ void tile(const int *g, int *o, int n) {
  __shared__ int s[16][17];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  s[ty][tx] = 0;                            // K:tile.before
  for (int i = 0; i < n / 256; i++) {
    int v = g[i * 256 + ty * 16 + tx];
    s[ty][tx] += v;                         // K:tile.loop
  }
  __syncthreads();
  o[ty * 16 + tx] = s[tx][ty];
}

// a loop that surely runs: the store before it is written over
__global__ void counted(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;                                 // K:counted.before
  for (int k = 0; k < 4; k++) {
    int v = g[k * 256 + t];
    s[t] += v;                              // K:counted.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// a loop that break leaves: the value stays in a register, but is stored
// at every iteration
__global__ void leaves(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    if (v > 5)
      break;
    s[t] += v;                              // K:leaves.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// an atomic on global memory does not reach shared memory
__global__ void atomic_beside(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] += v;                              // K:atomic_beside.loop
    atomicAdd(&o[1000], 1);
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// dynamic shared memory, and stores to global memory in the loop
__global__ void dynamic(const int *g, int *o, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] += v;                              // K:dynamic.loop
    o[i % 1024] = i;
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// a maximum, through a function of the language
__global__ void maximum(const int *g, int *o, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] = fmaxf(s[t], (float) v);          // K:maximum.loop
  }
  __syncthreads();
  o[t] = (int) s[255 - t];
}

// an index the loop changes: nothing kept
__global__ void moving(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  for (int i = 0; i < n; i++) {
    int v = g[i];
    s[(t + i) % 256] += v;                  // K:moving.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// a do loop
__global__ void do_loop(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, i = t;
  s[t] = 0;                                 // K:do_loop.before
  do {
    int v = g[i];
    s[t] += v;                              // K:do_loop.loop
    i += 256;
  } while (i < n);
  __syncthreads();
  o[t] = s[255 - t];
}

// a counted loop nvcc does not unroll
__global__ void not_unrolled(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;                                 // K:not_unrolled.before
#pragma unroll 1
  for (int k = 0; k < 16; k++) {
    int v = g[k * 256 + t];
    s[t] += v;                              // K:not_unrolled.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// a store first: the load that follows it reads the register
__global__ void store_first(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, acc = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] = v;                               // K:store_first.store
    acc += s[t];                            // K:store_first.load
  }
  __syncthreads();
  o[t] = acc + s[255 - t];
}

// loaded again with nothing between that may change it: loaded once
__global__ void again(const int *g, int *o, int n) {
  int i = threadIdx.x;
  if (g[i] > 3)                             // K:again.first
    o[i] = g[i];                            // K:again.second
}

// x[i] * x[i]: one load
__global__ void square(const int *g, int *o, int n) {
  int i = threadIdx.x;
  int v = g[i];                             // K:square.first
  o[i] = v * g[i];                          // K:square.second
}

// a store to another pointer may be the same memory: loaded again
__global__ void between(const int *g, int *o, int n) {
  int i = threadIdx.x;
  int v = g[i];                             // K:between.first
  o[i] = v;
  o[i + 256] = g[i];                        // K:between.second
}

// a barrier between: loaded again
__global__ void barrier_between(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  int v = s[t];                             // K:barrier_between.first
  __syncthreads();
  o[t] = v + s[t];                          // K:barrier_between.second
}

// stored, then read: the register stored
__global__ void stored(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = g[t] * 2;
  int v = s[t];                             // K:stored.load
  __syncthreads();
  o[t] = v + s[255 - t];
}

// loaded in a branch: not known after it
__global__ void branch(const int *g, int *o, int n) {
  int i = threadIdx.x, v = 0;
  if (i < 16)
    v = g[i];                               // K:branch.first
  o[i] = v + g[i];                          // K:branch.second
}

// the index changes between: another element
__global__ void moved(const int *g, int *o, int n) {
  int i = threadIdx.x;
  int v = g[i];                             // K:moved.first
  i += 32;
  o[i] = v + g[i];                          // K:moved.second
}

// an index the loop adds to: another element each time
__global__ void running(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, k = 0;
  s[t] = 0;
  __syncthreads();
  for (int i = t; i < n; i += 256) {
    k += g[i] & 1;
    s[k & 255] += 1;                        // K:running.loop
  }
  __syncthreads();
  o[t] = s[255 - t];
}

// an element another index may reach: made at every iteration
__global__ void scattered(const int *g, int *o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;
  for (int i = t; i < n; i += 256) {
    int v = g[i];
    s[t] += v;                              // K:scattered.loop
    s[v & 255] += 1;
  }
  __syncthreads();
  o[t] = s[255 - t];
}
