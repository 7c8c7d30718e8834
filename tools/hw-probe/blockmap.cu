// SPDX-License-Identifier: GPL-3.0-or-later
// Where and when each block runs: its SM (%smid) and its start and end on
// the global timer, for a few grid shapes. Tells the hierarchy model how the
// hardware deals blocks to SMs (which blocks share an L1) and how waves
// follow one another. Prints "config grid block" headers, then one line per
// block: block smid start_ns end_ns (times from the first block's start).
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>

__global__ void
mapk (unsigned *sm, unsigned long long *t0, unsigned long long *t1, const float *in, float *out, int work)
{
  unsigned long long a, b;
  unsigned s;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(a));
  asm volatile ("mov.u32 %0, %%smid;" : "=r"(s));
  float acc = 0;
  size_t base = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < work; k++)
    acc += in[(base + (size_t) k * 7919) & ((1u << 24) - 1)];
  if (acc == 12345.f)
    out[base] = acc;
  __syncthreads ();
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(b));
  if (threadIdx.x == 0)
    {
      sm[blockIdx.x] = s;
      t0[blockIdx.x] = a;
      t1[blockIdx.x] = b;
    }
}

int
main ()
{
  struct { int grid, block, work; } cfg[] = {
    { 512, 256, 4 }, { 4096, 256, 4 }, { 131072, 256, 1 }, { 32768, 1024, 1 }, { 65536, 64, 1 }, { 16384, 256, 16 },
  };
  float *in, *out;
  cudaMalloc (&in, (1u << 24) * 4);
  cudaMemset (in, 0, (1u << 24) * 4);
  cudaMalloc (&out, (size_t) 131072 * 1024 * 4);
  for (auto &c : cfg)
    {
      unsigned *sm; unsigned long long *t0, *t1;
      cudaMalloc (&sm, c.grid * 4); cudaMalloc (&t0, c.grid * 8); cudaMalloc (&t1, c.grid * 8);
      for (int rep = 0; rep < 2; rep++)
        mapk<<<c.grid, c.block>>> (sm, t0, t1, in, out, c.work);
      cudaDeviceSynchronize ();
      std::vector<unsigned> h (c.grid); std::vector<unsigned long long> a (c.grid), b (c.grid);
      cudaMemcpy (h.data (), sm, c.grid * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy (a.data (), t0, c.grid * 8, cudaMemcpyDeviceToHost);
      cudaMemcpy (b.data (), t1, c.grid * 8, cudaMemcpyDeviceToHost);
      unsigned long long m = *std::min_element (a.begin (), a.end ());
      printf ("config %d %d %d\n", c.grid, c.block, c.work);
      int lim = std::min (c.grid, 20000);
      for (int i = 0; i < lim; i++)
        printf ("%d %u %llu %llu\n", i, h[i], a[i] - m, b[i] - m);
      cudaFree (sm); cudaFree (t0); cudaFree (t1);
    }
  printf ("error %s\n", cudaGetErrorString (cudaGetLastError ()));
  return 0;
}
