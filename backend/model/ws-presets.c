/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-presets.h"
#include "ws-i18n.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* Titles, summaries and parameters' descriptions are marked for xgettext
 * but kept in English here: they also go into JSON and recordings. The
 * window translates them where it shows them. */

static const WsTopic topics[] = {
  { "coalescing", N_("Global coalescing"),
    N_("How the 32 addresses of a warp become 32-byte sectors of global memory. "
       "The degree of coalescing is the bytes the warp asked for over the bytes the sectors moved.") },
  { "alignment", N_("Alignment and layout"),
    N_("Element sizes from 1 to 16 bytes, structures padded or not, arrays of structures against "
       "structures of arrays, and 2-D arrays with and without a pitch.") },
  { "transpose", N_("Matrix transpose"),
    N_("A transpose reads rows and writes columns, so one side is always strided — unless a "
       "shared-memory tile turns the corner.") },
  { "banks", N_("Shared-memory banks"),
    N_("Shared memory has 32 banks of 4 bytes. Lanes that need different words of one bank are "
       "served in separate wavefronts; lanes that need the same word share it.") },
  { "constant", N_("Constant memory"),
    N_("The constant cache serves one address per request: a warp that asks for N different "
       "addresses is served N times, one after another.") },
  { "readonly", N_("Read-only path"),
    N_("Loads through the read-only (texture) path with __ldg or const __restrict__, against plain loads; "
       "and a 2-D stencil with reuse read through a texture, __ldg, const __restrict__, plain loads and "
       "shared memory: which memory when.") },
  { "private-array", N_("Local memory"),
    N_("Private arrays: in registers when every index is known at compile time and the array is small "
       "enough, in local memory otherwise — which is interleaved so that a warp-uniform index is "
       "coalesced, and cached in what L1 shared memory leaves.") },
  { "occupancy", N_("Registers and occupancy"),
    N_("Registers per thread, shared memory per block and the block size decide how many blocks and "
       "warps an SM can hold; enough warps hide memory latency, more do not help; too few registers "
       "spill to local memory.") },
  { "ilp", N_("Instruction-level parallelism"),
    N_("Independent loads in flight in each thread hide latency as more warps would: written out or "
       "left to the compiler's unrolling.") },
  { "atomics", N_("Atomics"),
    N_("Atomic updates of one address are applied one after another; spread over many addresses, "
       "or aggregated within the warp first, they run in parallel.") },
  { "fences", N_("Fences, barriers and volatile"),
    N_("What one block writes, another sees only when fences order it: a reduction that goes wrong "
       "without __threadfence, a spin that never sees its flag without volatile, counted over many "
       "runs, and what each fence costs.") },
  { "l2", N_("L2 persistence"),
    N_("An access-policy window asks L2 to keep a region resident (persisting) while the rest "
       "streams through: it helps while the hot set fits the part of L2 set aside, and not beyond.") },
  { "transfer", N_("Host transfers"),
    N_("Copies between host and device: pageable, pinned and mapped (zero-copy) memory, and copies "
       "overlapped with computation in streams, seen on a timeline.") },
  { "unified", N_("Unified memory"),
    N_("One address for host and device: managed memory that the driver migrates page by page when "
       "the GPU faults on it, prefetched or advised instead, and pinned host memory that a kernel "
       "reads through its host pointer (UVA).") },
  { "merge", N_("Shared-memory merge"),
    N_("Combining the values of a block in shared memory: one thread, atomicMin, a tree "
       "reduction, and a hybrid of warp shuffles and one atomic per warp; then the whole block-wide "
       "merge sort, with each of them finding the smallest head.") },
};

/* The real kernels' sizes. DRAM-bound arrays hold 32 Mi elements of 4
 * bytes: 128 MiB each, in and out together five times the 50 MiB L2 of an
 * H100. Kernels whose cost is on the chip need fewer. */
#define N_STREAM 33554432
#define N_SMALL 4194304

/* One thread per element, 256 a block (ws_launch_1d) */
#define GRID_1D "(N + 255) / 256"
#define P_N(DEF) { "N", DEF, 1, 1 << 28, N_("elements in the array") }
/* The real kernels loop over what the pattern shows: the model analyses one
 * pass, whose instructions are the same in every pass */
#define P_LOADS(DEF) { "loads", DEF, 32, 1 << 20, N_("loads per thread in the real kernel (a multiple of 32)"), \
                       WS_PARAM_KERNEL_ONLY }
#define DEF_I "i = blockIdx.x * blockDim.x + threadIdx.x"
#define DEF_XY "x = blockIdx.x * blockDim.x + threadIdx.x; y = blockIdx.y * blockDim.y + threadIdx.y"

#define B1(X) WS_DIM3 (X, 1, 1)
#define LOAD(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_LOAD, SIZE, INDEX, 0 }
#define STORE(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_STORE, SIZE, INDEX, 0 }
#define ATOMIC(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_ATOMIC, SIZE, INDEX, 0 }

static const WsPreset presets[] = {
  /* ---------------------------------------------------------------- */
  { "coalescing/sequential", "coalescing", N_("Sequential"),
    "out[i] = in[i]",
    /* xgettext:no-c-format */
    N_("Thread i reads element i. The 32 lanes of a warp ask for 128 consecutive bytes, exactly "
       "four 32-byte sectors, so every byte moved is used: 100 % coalescing. Yet on the H200 this "
       "copy reaches only 65 % of cudaMemcpy's rate (99 against 65 µs for 128 MiB each way): one "
       "4-byte element per thread makes 131072 short blocks, and the SMs cannot start them fast "
       "enough (about one per SM every 80 ns). Copying 16 bytes per thread, as cudaMemcpy does, "
       "reaches 103 % (alignment/elem-size)."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "coalescing/permuted", "coalescing", N_("Permuted (threadIdx.x ^ 1)"),
    "out[i] = in[blockIdx.x * blockDim.x + (threadIdx.x ^ 1)]",
    /* xgettext:no-c-format */
    N_("Neighbouring lanes swap their elements. The warp still covers the same 128 bytes, and the "
       "hardware does not care which lane takes which word: 4 sectors, 100 %."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "blockIdx.x * blockDim.x + (threadIdx.x ^ 1)") } },
  { "coalescing/offset", "coalescing", N_("Misaligned (+1 element)"),
    "out[i] = in[i + offset]",
    /* xgettext:no-c-format */
    N_("Every index is shifted by one element. The warp's 128 bytes now straddle a sector boundary: "
       "5 sectors move 160 bytes for 128 used, 80 %. Sweep the offset to see it return to 100 % at 8."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "offset", 1, 0, 64, N_("elements to shift every index by") } },
    { LOAD ("in", GLOBAL, 4, "i + offset") }, "offset", "0:32" },
  { "coalescing/stride", "coalescing", N_("Strided (blockIdx.x + threadIdx.x * gridDim.x)"),
    "out[i] = in[blockIdx.x + threadIdx.x * gridDim.x], N / 256 blocks",
    /* xgettext:no-c-format */
    N_("Consecutive lanes are gridDim.x elements apart: with a thread per element, N / 256 blocks, "
       "and the lanes of a warp are hundreds of kilobytes apart, so each lane needs a sector of its "
       "own: 32 sectors move 1024 bytes for 128 used, 12.5 %. Yet the kernel is not 8 times slower: "
       "on the H200 it takes 2.6 times the sequential copy's time (256 against 99 µs). The other "
       "sectors of each line are read by other warps soon after, so the L2 serves about 90 % of "
       "these reads as hits and DRAM moves the same 134 MB as the sequential copy; what costs is "
       "the L2's rate of sector requests, 8 times as many."),
    B1 (256), GRID_1D, NULL, NULL,
    { { "N", N_STREAM, 256, 1 << 28, N_("elements in the array (a multiple of 256)") } },
    { LOAD ("in", GLOBAL, 4, "blockIdx.x + threadIdx.x * gridDim.x") } },
  { "coalescing/broadcast", "coalescing", N_("Broadcast (x[0])"),
    "out[i] = in[0]",
    /* xgettext:no-c-format */
    N_("Every lane reads x[0]. One sector serves the whole warp, but only 4 of its 32 bytes are "
       "distinct data: 12.5 % coalesced — and yet it is the fastest of these kernels (82 µs on the "
       "H200, against 99 for the sequential copy). Coalescing says how much of what moves was asked "
       "for, not how much moves: here almost nothing does. A request of one sector is the cheapest "
       "there is, every warp asks for the same sector, which L1 and L2 keep, so DRAM sends it once "
       "and the kernel moves only what it writes, half the bytes of the copy."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "0") } },
  { "coalescing/strided-sweep", "coalescing", N_("Stride sweep"),
    "out[i] = in[i * stride] while i * stride < N",
    N_("Thread i reads element i × stride. Sectors per request grow with the stride until every lane "
       "has its own sector at a stride of 8 floats (32 bytes); bandwidth falls with them."),
    B1 (256), GRID_1D, DEF_I, "i * stride < N",
    { P_N (N_STREAM), { "stride", 2, 1, 128, N_("elements between consecutive threads") } },
    { LOAD ("in", GLOBAL, 4, "i * stride") }, "stride", "1:32" },

  /* ---------------------------------------------------------------- */
  { "alignment/elem-size", "alignment", N_("Element size"),
    "out[i] = in[i], elements of elem_size bytes",
    N_("Thread i reads element i of 1, 2, 4, 8 or 16 bytes. A warp moves 32, 64, 128, 256 or 512 "
       "bytes: 1, 2, 4, 8 or 16 sectors, always fully used. Wider elements move more per instruction "
       "and need fewer blocks for the same bytes: on the H200, 806, 1531, 2716, 3913 and 4269 GB/s "
       "for 1 to 16 bytes, the last above cudaMemcpy's 4150 GB/s; below 8 bytes the SMs' rate of "
       "starting blocks, not DRAM, sets the time."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "elem_size", 4, 1, 16, N_("bytes per element: 1, 2, 4, 8 or 16") } },
    { LOAD ("in", GLOBAL, 0, "i") }, "elem_size", "1,2,4,8,16" },
  { "alignment/struct-unpadded", "alignment", N_("12-byte struct, unpadded"),
    "out[i] = in[i].x + in[i].y + in[i].z, 12-byte structures",
    /* xgettext:no-c-format */
    N_("A struct { float x, y, z; } is 12 bytes, not a power of two, so the compiler reads it with "
       "three 4-byte loads. Each load strides 12 bytes: 12 sectors for 128 used bytes, 33 %. But "
       "the three loads of a warp touch the same 12 sectors: L1 serves the second and the third, the "
       "L2 sees each sector once and DRAM moves each byte once (403 MB for 32 M structures)."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "3 * i"), LOAD ("in", GLOBAL, 4, "3 * i + 1"), LOAD ("in", GLOBAL, 4, "3 * i + 2") } },
  { "alignment/struct-padded", "alignment", N_("__align__(16) struct, padded"),
    "out[i] = in[i].x + in[i].y + in[i].z, __align__(16) structures",
    /* xgettext:no-c-format */
    N_("Padded to 16 bytes with __align__(16), the same struct is read by one 16-byte load per "
       "thread: 16 sectors for 512 bytes, 100 % (the padding word is moved but never asked for "
       "by the program, which sees 75 % of it as useful). On the H200 the padded struct is the "
       "slower one, 161 against 137 µs: a copy this size is bound by DRAM, and DRAM now moves the "
       "padding too, 537 MB instead of 403. Padding pays where L1 cannot merge the loads, not here."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 16, "i") } },
  { "alignment/aos", "alignment", N_("Array of structures (one field)"),
    "out[i] = in[i].x of 12-byte structures (in[3 * i])",
    /* xgettext:no-c-format */
    N_("Reading only x from an array of { float x, y, z }: lanes are 12 bytes apart, so 12 sectors "
       "move 384 bytes to deliver 128: 33 %."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "3 * i") } },
  { "alignment/soa", "alignment", N_("Structure of arrays"),
    "out[i] = x[i]",
    /* xgettext:no-c-format */
    N_("The same field stored as its own array: consecutive lanes read consecutive floats, "
       "4 sectors, 100 %."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("x", GLOBAL, 4, "i") } },
  { "alignment/asta", "alignment", N_("Array of structures of tiled arrays"),
    "out[i] = in[(i / 32) * 96 + i % 32]",
    /* xgettext:no-c-format */
    N_("Groups of 32 structures store each field contiguously (x[32], y[32], z[32]). A warp's field "
       "is one 128-byte run again: 4 sectors, 100 %, while a structure's fields stay close together."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "(i / 32) * 96 + i % 32") } },
  { "alignment/pitch-none", "alignment", N_("2-D array without a pitch"),
    "2-D copy, rows W elements apart",
    N_("A 1001-wide float matrix stored row after row: a row is 4004 bytes, so seven rows in eight "
       "start 4, 8 … 28 bytes into a sector, and a warp's 32 floats touch 5 sectors instead of 4. "
       "Sweep W: a width of 1000 or 1008 floats (a multiple of 8: 32 bytes) puts every row on a "
       "sector again; 1002 puts three rows in four off one, 1004 one in two. On the H200 the extra "
       "sector costs little: 112.8 µs at 1001 against 111.2 at 1000 and 110.7 at 1008. The fifth "
       "sector of a warp is the next warp's first, so L2 serves it and DRAM moves about the same "
       "bytes."),
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY, "x < W && y < H",
    { { "W", 1001, 1, 65536, N_("row width in elements") }, { "H", 32768, 1, 65536, N_("rows") } },
    { LOAD ("in", GLOBAL, 4, "y * W + x") }, "W", "1000,1001,1002,1004,1008" },
  { "alignment/pitch", "alignment", N_("2-D array with a pitch (cudaMallocPitch)"),
    "2-D copy, rows pitch elements apart (cudaMallocPitch)",
    /* xgettext:no-c-format */
    N_("cudaMallocPitch pads each row to a multiple of the alignment (512 bytes on recent GPUs: "
       "here 4096 bytes, a pitch of 1024 floats, as the H200 chose): every row starts on a sector "
       "boundary and each warp reads 4 sectors. The textbook's gain is small on the "
       "H200: 109.8 µs against 112.8 µs without the pitch, 3 %, since the sectors the pitch saves "
       "were served by L2, not DRAM."),
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY "; row = pitch > 0 ? pitch : (W * 4 + 511) / 512 * 128", "x < W && y < H",
    { { "W", 1001, 1, 65536, N_("row width in elements") }, { "H", 32768, 1, 65536, N_("rows") },
      { "pitch", 0, 0, 65536, N_("row pitch in elements; 0: what cudaMallocPitch chooses") } },
    { LOAD ("in", GLOBAL, 4, "y * row + x") } },
  { "alignment/malloc3d", "alignment", N_("3-D array (cudaMalloc3D)"),
    "3-D copy, rows and planes of the pitch cudaMalloc3D chooses",
    N_("cudaMalloc3D pads each row of a W × H × D volume to the same pitch as cudaMallocPitch "
       "(4096 bytes for 1001 floats), so element (x, y, z) is at (z × H + y) × pitch + x and every "
       "row of every plane starts on a sector: 4 sectors per warp. On the H200 the aligned rows "
       "save nothing measurable: 113.5 µs, against 112.8 µs for the same 1001 × 32768 floats "
       "without a pitch, for the reason the 2-D presets show: the extra sectors of unaligned rows "
       "come from L2."),
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8, D",
    DEF_XY "; z = blockIdx.z; row = (W * 4 + 511) / 512 * 128", "x < W && y < H",
    { { "W", 1001, 1, 65536, N_("row width in elements") }, { "H", 256, 1, 65536, N_("rows per plane") },
      { "D", 128, 1, 2048, N_("planes") } },
    { LOAD ("in", GLOBAL, 4, "(z * H + y) * row + x"), STORE ("out", GLOBAL, 4, "(z * H + y) * row + x") } },
  { "alignment/memcpy2d", "alignment", N_("Packed rows into pitched memory (cudaMemcpy2D)"),
    "cudaMemcpy2D of packed host rows into cudaMallocPitch memory, then a 2-D copy kernel",
    N_("An image comes from the host packed, 4004 bytes a row; the device keeps it pitched, 4096. "
       "cudaMemcpy2D copies it in one call, row by row, each to the start of its pitched row; the "
       "kernel that follows reads whole sectors. Its timeline shows the copy and the kernel: on "
       "the H200 the copy from pinned memory takes 0.62 ms for 32.8 MB (53 GB/s, the rate of a "
       "contiguous pinned copy) and the kernel 0.04 ms."),
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY "; row = (W * 4 + 511) / 512 * 128",
    "x < W && y < H",
    { { "W", 1001, 1, 65536, N_("row width in elements") }, { "H", 8192, 1, 65536, N_("rows") } },
    { LOAD ("in", GLOBAL, 4, "y * row + x"), STORE ("out", GLOBAL, 4, "y * row + x") } },
  { "alignment/struct7", "alignment", N_("7-byte struct, packed"),
    "out[i] from the 7 bytes of in[i], struct { uint8_t b[7]; }",
    /* xgettext:no-c-format */
    N_("A structure of 7 bytes has the alignment of a byte: the compiler reads it with seven "
       "1-byte loads, each striding 7 bytes across the warp. Every load touches 7 or 8 sectors for "
       "32 useful bytes: 7 requests for what one could fetch. Yet on the H200 it is only 6 % "
       "slower than the padded structure, 123 against 116 µs: L1 merges the seven loads' sectors, "
       "so L2 sees each sector once (7.3 million, 235 MB) and the cost is L1's requests, not "
       "memory traffic."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 1, "7 * i"), LOAD ("in", GLOBAL, 1, "7 * i + 1"), LOAD ("in", GLOBAL, 1, "7 * i + 2"),
      LOAD ("in", GLOBAL, 1, "7 * i + 3"), LOAD ("in", GLOBAL, 1, "7 * i + 4"), LOAD ("in", GLOBAL, 1, "7 * i + 5"),
      LOAD ("in", GLOBAL, 1, "7 * i + 6") } },
  { "alignment/struct7-padded", "alignment", N_("7-byte struct padded to 8 (__align__(8))"),
    "out[i] from the 7 bytes of in[i], struct __align__(8) { uint8_t b[7]; }",
    N_("One byte of padding and __align__(8) make the same structure one 8-byte load: 8 sectors, "
       "one request, 7 of every 8 bytes moved used. On the H200 that is 116 µs against 123 for the "
       "packed structure: DRAM now also moves the padding byte (268 MB read against 235), which "
       "takes back most of what one load instead of seven saves."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 8, "i") } },

  /* ---------------------------------------------------------------- */
#define TRANSPOSE_GEOM WS_DIM3 (32, 32, 1), "(N + 31) / 32, (N + 31) / 32", DEF_XY, "x < N && y < N", \
    { { "N", 8192, 32, 32768, N_("matrix side in elements") } }
  { "transpose/copy", "transpose", N_("Copy (the bound)"),
    "out[y][x] = in[y][x] (the bound)",
    N_("Not a transpose: read a row, write the same row. Both sides are coalesced, so it moves the "
       "fewest sectors a transpose can: the bound of the traffic. It is not a bound of the time. Each "
       "thread copies its four elements one after another (in and out are not __restrict__, so the "
       "compiler cannot load the next before it has stored the last), while the tiled transposes "
       "load all four before their barrier: with four loads in flight per thread the padded tile "
       "beats this copy on the H200 (0.147 against 0.171 ms), moving the same bytes."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/read-coalesced", "transpose", N_("Naive, coalesced reads"),
    "out[x][y] = in[y][x]",
    N_("Each thread reads in[y][x] along a row and writes out[x][y] down a column. Reads take 4 "
       "sectors per request; the strided writes take 32."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"), STORE ("out", GLOBAL, 4, "x * N + y") } },
  { "transpose/write-coalesced", "transpose", N_("Naive, coalesced writes"),
    "out[y][x] = in[x][y]",
    N_("The other way round: strided reads (32 sectors per request), coalesced writes. Usually "
       "faster than coalesced reads, because L1 and L2 catch the reused read sectors."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "x * N + y"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/ldg", "transpose", N_("Coalesced writes, __ldg reads"),
    "out[y][x] = __ldg (&in[x][y])",
    N_("The same accesses as the write-coalesced transpose, with the strided reads through the "
       "read-only path (__ldg). The sectors are the same; the caching differs."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "x * N + y"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/shared", "transpose", N_("Shared-memory tile"),
    "32 x 32 shared-memory tile",
    N_("Read a 32 × 32 tile by rows, store it in shared memory, read it back by columns and write "
       "rows: both global sides are coalesced. But a column of a 32-wide float tile lies in one "
       "bank: reading it costs 32 wavefronts."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"),
      STORE ("tile", SHARED, 4, "threadIdx.y * 32 + threadIdx.x"),
      LOAD ("tile", SHARED, 4, "threadIdx.x * 32 + threadIdx.y"),
      STORE ("out", GLOBAL, 4, "(blockIdx.x * 32 + threadIdx.y) * N + blockIdx.y * 32 + threadIdx.x") } },
  { "transpose/shared-padded", "transpose", N_("Shared-memory tile, padded (TILE + 1)"),
    "32 x 33 shared-memory tile",
    N_("One extra word per row (tile[32][33]) shifts each row by one bank, so a column touches all "
       "32 banks: 1 wavefront instead of 32."),
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"),
      STORE ("tile", SHARED, 4, "threadIdx.y * 33 + threadIdx.x"),
      LOAD ("tile", SHARED, 4, "threadIdx.x * 33 + threadIdx.y"),
      STORE ("out", GLOBAL, 4, "(blockIdx.x * 32 + threadIdx.y) * N + blockIdx.y * 32 + threadIdx.x") } },

  /* ---------------------------------------------------------------- */
  { "banks/stride", "banks", N_("Stride sweep"),
    "4-byte shared loads of s[threadIdx.x * stride]",
    N_("Lane k reads word k × stride. Even strides fold lanes onto fewer banks: stride 2 needs 2 "
       "wavefronts, 4 needs 4, 32 needs 32. Odd strides hit every bank once."),
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, N_("words between consecutive lanes") }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 4, "threadIdx.x * stride") }, "stride", "1:33" },
  { "banks/broadcast", "banks", N_("Broadcast"),
    "4-byte shared loads of s[warp]",
    N_("All lanes of a warp read the same word: it is read once and broadcast, one wavefront."),
    B1 (256), "132", NULL, NULL, { P_LOADS (4096) },
    { LOAD ("s", SHARED, 4, "warp") } },
  { "banks/padding", "banks", N_("Padding a tile's column"),
    "4-byte shared loads of tile[threadIdx.x % 32 * (32 + pad)]",
    N_("Lane k reads row k, column 0 of a tile 32 + pad words wide. It opens unpadded, at the worst "
       "point of its sweep: every row starts in bank 0, 32 wavefronts. Set pad to 1: one word of "
       "padding spreads the rows over all banks, 1 wavefront. Sweep it: an odd pad spreads them, an "
       "even one folds them onto fewer banks again (2 wavefronts at 2, 4 at 4)."),
    B1 (256), "132", NULL, NULL,
    { { "pad", 0, 0, 8, N_("words of padding per row") }, P_LOADS (4096) },
    { LOAD ("tile", SHARED, 4, "threadIdx.x % 32 * (32 + pad)") }, "pad", "0:4" },
  { "banks/elem8", "banks", N_("8-byte accesses"),
    "8-byte shared loads of s[threadIdx.x * stride]",
    N_("Each lane reads a double. 32 lanes × 8 bytes cannot pass in one 128-byte wavefront: two "
       "half-warp phases are the minimum. Try stride 2 (4 wavefronts)."),
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, N_("elements between consecutive lanes") }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 8, "threadIdx.x * stride") }, "stride", "1:17" },
  { "banks/elem16", "banks", N_("16-byte accesses"),
    "16-byte shared loads of s[threadIdx.x * stride]",
    N_("Each lane reads a float4: four quarter-warp phases of 8 lanes at least. A stride of 2 "
       "doubles the wavefronts."),
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, N_("elements between consecutive lanes") }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 16, "threadIdx.x * stride") }, "stride", "1:9" },
  { "banks/swizzle", "banks", N_("XOR swizzle"),
    "4-byte shared loads of tile[threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x)]",
    N_("Instead of padding, store element (row, col) at column col ^ row. Reading a column then hits "
       "32 different banks — 1 wavefront — without wasting a word per row."),
    WS_DIM3 (32, 32, 1), "132", NULL, NULL, { P_LOADS (4096) },
    { LOAD ("tile", SHARED, 4, "threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x)") } },

  /* ---------------------------------------------------------------- */
  { "constant/broadcast", "constant", N_("One address per warp"),
    "constant loads of c[warp]",
    N_("All lanes read the same constant: one request serves the warp."),
    B1 (256), "132", NULL, NULL, { P_LOADS (2048) },
    { LOAD ("c", CONSTANT, 4, "warp") } },
  { "constant/distinct", "constant", N_("N distinct addresses"),
    "constant loads of c[lane % distinct]",
    /* xgettext:no-c-format */
    N_("Lane k reads c[k % distinct]. The constant cache serves one address at a time, so the warp "
       "is served `distinct` times in a row."),
    B1 (256), "132", NULL, NULL,
    { { "distinct", 8, 1, 32, N_("distinct addresses per warp") }, P_LOADS (2048) },
    { LOAD ("c", CONSTANT, 4, "lane % distinct") }, "distinct", "1:32" },

  /* ---------------------------------------------------------------- */
  { "readonly/plain", "readonly", N_("Scattered reads, plain loads"),
    "out[i] = in[i * 7919 % N], plain loads",
    N_("Thread i reads element (i × 7919) mod N: every lane lands in its own sector."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i * 7919 % N") } },
  { "readonly/ldg", "readonly", N_("Scattered reads, __ldg"),
    "out[i] = __ldg (&in[i * 7919 % N])",
    N_("The same scattered reads through the read-only path (__ldg). The sectors are the same; on "
       "recent GPUs plain loads are cached in L1 too, so the difference is small."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i * 7919 % N") } },
#define STENCIL_GEOM WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY, "x < W && y < H", \
    { { "W", 2048, 32, 16384, N_("output width (the input has radius more on each side)") }, \
      { "H", 2048, 8, 16384, N_("output height") }, { "radius", 1, 1, 3, N_("the square's radius: (2 radius + 1)² points") } }
#define STENCIL_READS LOAD ("in", GLOBAL, 4, "(y + radius) * (W + 2 * radius) + x + radius"), \
    LOAD ("in", GLOBAL, 4, "y * (W + 2 * radius) + x + radius"), LOAD ("c", CONSTANT, 4, "0"), \
    STORE ("out", GLOBAL, 4, "y * W + x")
  { "readonly/stencil-plain", "readonly", N_("Stencil, plain loads"),
    "(2 radius + 1)² stencil, constant coefficients, plain loads",
    N_("A square stencil: each output is the sum of its neighbours times coefficients in constant "
       "memory (every lane reads the same one: a broadcast). Each input is read by (2 radius + 1)² "
       "threads, so the question is what serves the reuse. Plain loads through pointers that may "
       "alias go through L1, which on recent GPUs caches them as well as anything: on the H200 "
       "they are as fast as any of the five, 13, 22 and 39 µs at radius 1, 2 and 3."),
    STENCIL_GEOM, { STENCIL_READS }, "radius", "1,2,3" },
  { "readonly/stencil-restrict", "readonly", N_("Stencil, const __restrict__"),
    "(2 radius + 1)² stencil, const __restrict__ pointers",
    N_("With const __restrict__ the compiler knows the input is never written while the kernel "
       "runs and may read it through the read-only (non-coherent) path by itself (LDG.E.CONSTANT): "
       "the same sectors as plain loads, and on the H200 the same time, 13, 22 and 38 µs at radius "
       "1, 2 and 3."),
    STENCIL_GEOM, { STENCIL_READS }, "radius", "1,2,3" },
  { "readonly/stencil-ldg", "readonly", N_("Stencil, __ldg"),
    "(2 radius + 1)² stencil, __ldg loads",
    N_("__ldg asks for the read-only path explicitly, whatever the compiler can prove. Since "
       "Maxwell it shares its storage with L1, so the difference from plain loads is small: on the "
       "H200, 13.5, 22 and 37 µs at radius 1, 2 and 3 against 13, 22 and 39 µs."),
    STENCIL_GEOM, { STENCIL_READS }, "radius", "1,2,3" },
  { "readonly/stencil-texture", "readonly", N_("Stencil, texture object"),
    "(2 radius + 1)² stencil, tex2D from a CUDA array",
    N_("The input in a CUDA array, read with tex2D through a texture object: the array's layout "
       "keeps 2-D neighbours close, and the texture unit clamps at the edges for free. Point "
       "sampling, element reads: the values themselves. The textbook's choice for 2-D stencils is "
       "the slowest on the H200: 41, 109 and 207 µs at radius 1, 2 and 3, three to five times "
       "plain loads, for the same L2 and DRAM traffic. Every tex2D goes through the texture "
       "pipeline, which fetches four texels a cycle: a warp's fetch takes 8 cycles of its SM "
       "(calibrate measures 7.97), where L1 serves a plain load in about 3; the cache behind both "
       "is the same."),
    STENCIL_GEOM, { STENCIL_READS }, "radius", "1,2,3" },
  { "readonly/stencil-shared", "readonly", N_("Stencil, shared-memory tile"),
    "(2 radius + 1)² stencil, a 32 × 8 tile and its halo in shared memory",
    N_("Each block loads its tile and a halo of radius around it into shared memory once, waits at "
       "a barrier, and reads every neighbour from there: global memory sees each input once per "
       "block, at the price of the halo and the barrier. On the H200 that price is not repaid: 24, "
       "32 and 44 µs at radius 1, 2 and 3, against 13, 22 and 39 µs for plain loads. L1 already "
       "serves the reuse (L2 sees 0.8 million sectors either way), so the tile only adds the halo, "
       "the shared stores and the barrier; the gap narrows as the radius grows."),
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY, "x < W && y < H",
    { { "W", 2048, 32, 16384, N_("output width (the input has radius more on each side)") },
      { "H", 2048, 8, 16384, N_("output height") }, { "radius", 1, 1, 3, N_("the square's radius: (2 radius + 1)² points") } },
    { LOAD ("in", GLOBAL, 4, "(blockIdx.y * 8 + threadIdx.y) * (W + 2 * radius) + blockIdx.x * 32 + threadIdx.x"),
      STORE ("tile", SHARED, 4, "threadIdx.y * (32 + 2 * radius) + threadIdx.x"),
      LOAD ("tile", SHARED, 4, "(threadIdx.y + radius) * (32 + 2 * radius) + threadIdx.x + radius"),
      STORE ("out", GLOBAL, 4, "y * W + x") }, "radius", "1,2,3" },

  /* ---------------------------------------------------------------- */
  { "private-array/static", "private-array", N_("Static indexing (registers)"),
    "a[32] read at compile-time indices (registers)",
    N_("Every index into the private array is a compile-time constant, so the compiler keeps the "
       "array in registers: no memory instruction at all."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL), { "k", 3, 0, 31, N_("the constant index") } },
    { LOAD ("a", REGISTER, 4, "k") } },
  { "private-array/uniform-local", "private-array", N_("Uniform dynamic index (local)"),
    "a[32] read at (blockIdx.x + r) % 32 (local, uniform)",
    N_("An index known only at run time puts the array in local memory. Local memory is "
       "interleaved — word w of lane l at (w × 32 + l) × 4 — so when all lanes use the same index "
       "the warp reads 128 contiguous bytes: 4 sectors, no replay."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 4, "blockIdx.x % 32") } },
  { "private-array/nonuniform-local", "private-array", N_("Non-uniform index (local)"),
    "a[32] read at (threadIdx.x + r) % 32 (local, non-uniform)",
    N_("Each lane uses its own index. The interleaving now works against the warp: every lane's word "
       "is in a different 128-byte line, 32 sectors and 31 replays."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 4, "threadIdx.x % 32") } },
  { "private-array/nonuniform-shared", "private-array", N_("Non-uniform index (shared)"),
    "a[index * blockDim.x + threadIdx.x] in shared memory",
    N_("The same private array kept in shared memory as a[index × blockDim.x + threadIdx.x]: "
       "each thread owns a column, so whatever the index, lanes fall in different banks — 1 wavefront."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", SHARED, 4, "threadIdx.x % 32 * blockDim.x + threadIdx.x") } },
  { "private-array/local-wide", "private-array", N_("8-byte elements in local memory"),
    "8-byte a[16] read at (blockIdx.x + r) % 16 (local, uniform)",
    N_("Interleaving is per 4-byte word: an 8-byte element is two words 128 bytes apart, read as two "
       "requests of 4 sectors each when the index is uniform."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 8, "blockIdx.x % 16") } },
  { "private-array/random", "private-array", N_("Random index (local)"),
    "a[32] read at a random base per lane and round (local)",
    N_("Each lane picks its own random index, as a lookup or a sort would: about 20 of the 32 "
       "lanes' words differ, so the warp is served in about 20 lines with 19 replays — between the "
       "uniform index's 1 and the fully divergent one's 32. The view shows one such draw. On the "
       "H200 it takes 0.87 ms, between the uniform index's 0.21 ms and the divergent one's 1.07 "
       "ms."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 4, "(lane ^ (lane >> 2) * 13) % 32") } },
  { "private-array/distinct", "private-array", N_("N distinct indices (local)"),
    "a[32] read at (threadIdx.x % 32 % distinct + r) % 32 (local)",
    N_("Lane k uses index k mod distinct: the warp's words lie in `distinct` lines of local "
       "memory, served one after another. Sweep it: the replays are distinct − 1, from the uniform "
       "index to the fully divergent one. On the H200 2 lines cost no more than 1 (0.22 ms), then "
       "the time grows with the lines: 0.25 ms at 4, 0.37 at 8, 0.63 at 16 and 1.06 ms at 32."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL), { "distinct", 8, 1, 32, N_("distinct indices per warp") } },
    { LOAD ("a", LOCAL, 4, "lane % distinct") }, "distinct", "1,2,4,8,16,32" },
  { "private-array/size", "private-array", N_("Array size: registers or local memory"),
    "a[size] written and read in loops the compiler may unroll",
    /* xgettext:no-c-format */
    N_("A private array indexed only by loop counters stays in registers if the compiler unrolls "
       "the loops, and it unrolls them while the array is small: with nvcc 13.0 for sm_90, arrays "
       "of up to 160 words stay in registers (the registers per thread grow with them, 42 at 32 "
       "words and 174 at 160, and occupancy falls), from 192 words the loops stay loops and the "
       "array goes to local memory, read with a uniform index. On the H200 that step is small: 330 "
       "µs at 192 words against 256 µs at 160, 7 % more than the words alone add. Sweep size and "
       "read registers and local bytes beside the time."),
    B1 (256), GRID_1D, NULL, NULL,
    { P_N (1 << 20), { "size", 32, 4, 256, N_("words in the private array: 4, 8, 16, 32, 64, 96, 128, 160, 192 or 256") },
      { "j", 0, 0, 255, N_("the element the view shows"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("a", LOCAL, 4, "j % size") }, "size", "4,8,16,32,64,96,128,160,192,256" },
  { "private-array/l1-carveout", "private-array", N_("Local memory and the L1 carveout"),
    "a[16] read at (threadIdx.x + r) % 16 (local), preferred shared-memory carveout set",
    /* xgettext:no-c-format */
    N_("Local memory is cached in L1, and L1 is what shared memory leaves of the SM's 256 KiB. "
       "2048 resident threads with 64 bytes of local array each need 128 KiB: with a carveout of 0 "
       "% (all cache) it can stay in L1; at 100 % (228 KiB of shared memory) L1 keeps 28 KiB and "
       "the array goes back and forth to L2. On the H200 the time is 0.53 ms from 0 to 50 % and "
       "0.54 ms at 75 %, where the array should no longer fit; only 100 % costs, 0.79 ms. The "
       "carveout is a preference the driver rounds to the sizes the SM supports, and what it kept "
       "at 75 % the measurement does not say."),
    B1 (256), GRID_1D, NULL, NULL,
    { P_N (N_SMALL), { "carveout", 0, 0, 100, N_("percent of the unified L1 preferred as shared memory") } },
    { LOAD ("a", LOCAL, 4, "threadIdx.x % 16") }, "carveout", "0,25,50,75,100" },

  /* ---------------------------------------------------------------- */
#define P_N16 { "N", 1 << 23, 1, 1 << 26, N_("16-byte elements to read (a grid-stride loop)") }
/* one wave on an H100 or H200 (132 SMs): the blocks the occupancy table
 * allows (no commas: they separate the grid's dimensions) */
#define WAVE(BLOCKS) "132 * (" BLOCKS ")"
  { "occupancy/registers", "occupancy", N_("Registers per thread"),
    "a latency-bound stream, the same work at every register count",
    N_("Each thread sums 16-byte elements in a loop with one load in flight, so the SM hides "
       "memory latency only with other warps. It holds values in `registers` registers across the "
       "loop without doing more work: more registers, fewer resident warps — in steps (32, 40, 48, "
       "64, 80, 128, 255 registers: 64, 48, 40, 32, 24, 16, 8 warps), since registers are "
       "allocated per warp. The grid is one wave. On the H200: 39 µs at 32 registers (64 warps), "
       "44 at 40, 60 at 64, 104 at 128 and 194 µs at 255 (8 warps), where the same warps set with "
       "shared memory take 35, 35, 40, 59 and 105 µs. Fewer warps cost as the textbook says; the "
       "rest is the held values themselves, read before the loop with volatile loads that skip L1 "
       "(200 of them per thread at 255 registers), which the shared-memory dial does not make."),
    B1 (256), WAVE ("registers <= 32 ? 8 : registers <= 40 ? 6 : registers <= 48 ? 5 : registers <= 64 ? 4 : "
                    "registers <= 80 ? 3 : registers <= 128 ? 2 : 1"),
    DEF_I, "i < N",
    { P_N16, { "registers", 32, 16, 255, N_("registers each thread holds (the kernel rounds up to a compiled budget)") } },
    { LOAD ("in", GLOBAL, 16, "i") }, "registers", "32,40,48,64,80,128,255" },
  { "occupancy/shared", "occupancy", N_("Shared memory per block"),
    "the same stream, dynamic shared memory per block that nothing reads",
    N_("The same stream with a few registers, and `shared` bytes of dynamic shared memory per "
       "block that it never touches: past 24 KiB a block's share (plus the 1 KiB the system "
       "reserves) leaves room for fewer than 8 blocks of 256 threads in the SM's 228 KiB, and "
       "resident warps fall in steps. The view shows the SM filled and which resource limits it. "
       "On the H200 the time follows the warps: 35 µs up to 24 KiB (64 warps), 37 µs at 40 KiB (40 "
       "warps), 44 µs at 64 KiB (24), 59 µs at 96 KiB (16) and 106 µs at 128 KiB (8)."),
    B1 (256), WAVE ("233472 / ((shared + 1151) / 128 * 128) < 8 ? 233472 / ((shared + 1151) / 128 * 128) : 8"),
    DEF_I, "i < N",
    { P_N16, { "shared", 0, 0, 232448, N_("bytes of dynamic shared memory per block") } },
    { LOAD ("in", GLOBAL, 16, "i") }, "shared", "0,24576,32768,40960,49152,65536,98304,131072" },
  { "occupancy/saturation", "occupancy", N_("Warps per SM: the saturation curve"),
    "the same stream with `warps` resident warps per SM (set with shared memory)",
    N_("The classic curve: the same stream with 4 to 64 resident warps per SM (blocks of 128 "
       "threads, as many per SM as shared memory lets in). With one load in flight per warp, "
       "bandwidth grows with the warps until the memory system is busy; past that point more warps "
       "do not help. Where it flattens is how many loads in flight this GPU needs: on the H200 the "
       "time falls from 200 µs with 4 warps to 40 µs with 32, and barely moves past that (35 µs "
       "at 64)."),
    B1 (128), WAVE ("warps / 4"), DEF_I, "i < N",
    { P_N16, { "warps", 16, 4, 64, N_("resident warps per SM (a multiple of 4)") } },
    { LOAD ("in", GLOBAL, 16, "i") }, "warps", "4,8,12,16,24,32,40,48,64" },
  { "occupancy/spill", "occupancy", N_("Spills to local memory"),
    "the same kernel limited to 32 registers: it spills",
    N_("A thread that needs more registers than it may use stores values to local memory and loads "
       "them back: uniform spill slots, 4 sectors each. On the H200 this kernel keeps 192 values "
       "in 32 registers and 344 bytes of local memory per thread, and takes 0.52 ms: the spills of "
       "64 resident warps do not fit in L1, and go on to L2 and DRAM, 1.4 GB written to DRAM for 4 "
       "Mi threads."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL), { "slot", 0, 0, 63, N_("spill slot"), WS_PARAM_MODEL_ONLY } },
    { STORE ("spill", LOCAL, 4, "slot"), LOAD ("spill", LOCAL, 4, "slot") } },

  /* ---------------------------------------------------------------- */
  { "ilp/loads", "ilp", N_("Independent loads per thread"),
    "the stream with ilp independent loads per iteration, at `warps` warps per SM",
    N_("The latency-bound stream of the occupancy presets at a fixed, modest occupancy (16 warps "
       "per SM), with 1, 2, 4 or 8 independent loads per iteration: each warp keeps that many in "
       "flight, as if there were that many times more warps. Loads in flight are what hides "
       "latency, whoever issues them: on the H200, 2 loads take 59 µs down to 42 and 4 to 35, as "
       "fast as 64 warps with one; 8 are no faster (37 µs)."),
    B1 (128), WAVE ("warps / 4"), DEF_I, "i < N",
    { P_N16, { "ilp", 1, 1, 8, N_("independent loads per iteration: 1, 2, 4 or 8") },
      { "warps", 16, 4, 64, N_("resident warps per SM (a multiple of 4)") },
      { "k", 0, 0, 7, N_("which of the loads the view shows"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("in", GLOBAL, 16, "i + k * gridDim.x * blockDim.x") }, "ilp", "1,2,4,8" },
  { "ilp/unroll", "ilp", N_("A plain loop, unrolled"),
    "the stream as a plain loop, #pragma unroll `unroll`",
    N_("The same stream written as a plain loop with one load and one addition, unrolled by the "
       "compiler: the unrolled body's loads do not depend on each other, so they are issued "
       "together before the additions — ILP without writing it out. On the H200 it comes close to "
       "the loads written out, a little behind: 59 µs plain, 41 µs unrolled by 2, 39 by 4 and 38 "
       "by 8, against 35 µs for 4 loads written out; unrolled by 8 the kernel uses no more "
       "registers than by 4 (32), so not all 8 loads are in flight at once."),
    B1 (128), WAVE ("warps / 4"), DEF_I, "i < N",
    { P_N16, { "unroll", 1, 1, 8, N_("unroll factor: 1, 2, 4 or 8") },
      { "warps", 16, 4, 64, N_("resident warps per SM (a multiple of 4)") },
      { "k", 0, 0, 7, N_("which of the unrolled loads the view shows"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("in", GLOBAL, 16, "i + k * gridDim.x * blockDim.x") }, "unroll", "1,2,4,8" },

  /* ---------------------------------------------------------------- */
  { "atomics/one-address", "atomics", N_("One address"),
    "atomicAdd (&counter, in[i] & 0xff)",
    N_("Every thread adds to the same counter: the 32 lanes of a warp are applied one after the other, "
       "32 serialised updates of one sector per warp. (When the address is a constant the compiler "
       "sees, CUDA 11 and later count the warp's lanes and issue one update instead — the real kernel "
       "hides its index from the compiler to show the hardware's behaviour.)"),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },
  { "atomics/distinct", "atomics", N_("One address per thread"),
    "atomicAdd (&out[i], in[i])",
    N_("Every thread updates its own element: no two lanes collide, and the warp's updates are "
       "coalesced into 4 sectors."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { ATOMIC ("out", GLOBAL, 4, "i") } },
  { "atomics/histogram", "atomics", N_("Histogram (many addresses)"),
    "atomicAdd (&bins[i % bins], 1), global",
    N_("Thread i adds to bin i mod bins. With few bins, lanes collide and serialise; with 32 or more "
       "each lane of a warp has its own bin."),
    B1 (256), GRID_1D, DEF_I, NULL,
    { P_N (N_SMALL), { "bins", 8, 1, 4096, N_("number of bins") } },
    { ATOMIC ("bins", GLOBAL, 4, "i % bins") }, "bins", "1,2,4,8,16,32,64" },
  { "atomics/shared", "atomics", N_("Shared-memory atomics"),
    "atomicAdd (&hist[i % bins], 1) in shared memory, merged per block",
    N_("The same histogram in shared memory, one per block, merged at the end."),
    B1 (256), GRID_1D, DEF_I, NULL,
    { P_N (N_SMALL), { "bins", 8, 1, 4096, N_("number of bins") } },
    { ATOMIC ("hist", SHARED, 4, "i % bins") }, "bins", "1,2,4,8,16,32,64" },
  { "atomics/warp-aggregated", "atomics", N_("Warp-aggregated"),
    "warp sum with shuffles, one atomicAdd per warp",
    N_("The warp first adds its values with shuffles; lane 0 alone updates the counter: one atomic "
       "per warp instead of 32."),
    B1 (256), GRID_1D, NULL, "lane == 0", { P_N (N_SMALL) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },
  { "atomics/cas-loop", "atomics", N_("Compare-and-swap loop"),
    "float maximum with an atomicCAS loop on one address",
    N_("An update with no atomic instruction of its own (here a float maximum) is a loop of atomicCAS "
       "that retries while another lane wins: all lanes on one address serialise, and some retry."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (1 << 20) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },

  /* ---------------------------------------------------------------- */
#define LAST_BLOCK_GEOM B1 (256), "N / 1024", DEF_I, NULL, \
    { { "N", 8388608, 16384, 1 << 28, N_("elements (a multiple of 16384: a sum of 16 blocks of 1024)") } }
  { "fences/last-block", "fences", N_("Last-block reduction without a fence"),
    "threads store partial sums, thread 0 takes a ticket (atomicInc), the last block adds them up",
    N_("The reduction of the CUDA samples: every block stores its partial sums, then takes a "
       "ticket; the block with the last ticket adds up the partial sums of all. Without "
       "__threadfence () between the stores and the ticket, nothing promises that another block's "
       "stores are visible when its ticket is: __syncthreads () orders one block's threads, not "
       "what other SMs see. The kernel runs 512 sums per launch, many launches: the count of wrong "
       "sums is the measurement's. On the H200 none of 79360 sums was wrong, and that does not "
       "make the code right: the memory model allows the reordering, and a busier machine or "
       "another GPU may show it."),
    LAST_BLOCK_GEOM,
    { LOAD ("in", GLOBAL, 4, "blockIdx.x * 1024 + threadIdx.x"), STORE ("partial", GLOBAL, 4, "i") } },
  { "fences/last-block-fence", "fences", N_("Last-block reduction with __threadfence"),
    "the same, __threadfence () before the ticket and after it",
    N_("The same reduction with __threadfence () after the stores (and after the last ticket, "
       "before the reads): the partial sums are visible to the whole GPU before the ticket that "
       "says they are done. Never a wrong sum; the fence costs a wait for the stores to reach L2: "
       "on the H200 a launch of 512 sums takes 17.9 µs against 13.4 µs without it."),
    LAST_BLOCK_GEOM,
    { LOAD ("in", GLOBAL, 4, "blockIdx.x * 1024 + threadIdx.x"), STORE ("partial", GLOBAL, 4, "i") } },
#define FLAG_GEOM B1 (32), "2 * pairs", NULL, NULL, \
    { { "pairs", 256, 1, 4096, N_("producer and consumer blocks per launch (at most a quarter of what the SMs hold)") } }
#define FLAG_ACCESSES STORE ("data", GLOBAL, 4, "blockIdx.x / 2 * 256 + lane"), \
    LOAD ("flags", GLOBAL, 4, "blockIdx.x / 2")
  { "fences/spin-plain", "fences", N_("Spin on a plain flag"),
    "a consumer block spins on its producer's flag with plain loads",
    N_("A producer block writes 256 words and sets a flag; its consumer waits for the flag, then "
       "reads the words. Read with plain loads, the flag is loop-invariant to the compiler, which "
       "reads it once before the loop: unless it was already set, the loop never sees it change — "
       "a hang. Here every spin gives up after 65536 tries and says it timed out, and the count of "
       "timeouts is the measurement's: on the H200 all 93440 spins timed out."),
    FLAG_GEOM, { FLAG_ACCESSES } },
  { "fences/spin-volatile", "fences", N_("Spin on a volatile flag, no fence"),
    "the same spin with a volatile flag and no fences",
    N_("A volatile flag is read from memory every time, so the consumer sees it set. But nothing "
       "orders the producer's data before its flag, nor the consumer's reads after it: the data "
       "may still be the last launch's. The count of stale copies is the measurement's: on the "
       "H200 none of 90880 was stale, and 0 on one GPU does not make it correct."),
    FLAG_GEOM, { FLAG_ACCESSES } },
  { "fences/spin-fence", "fences", N_("Spin on a volatile flag, with fences"),
    "volatile flag, __threadfence () after the data and after the flag",
    N_("Message passing as the memory model wants it: data, __threadfence (), flag on one side; "
       "flag, __threadfence (), data on the other. The consumer always finds the data (a timeout "
       "here means the producer was not running at the same time: another program on the GPU). On "
       "the H200, no stale data and no timeout in 72960 trials, at 5.5 µs a launch against 4.9 µs "
       "without the fences."),
    FLAG_GEOM, { FLAG_ACCESSES } },
  { "fences/cost", "fences", N_("What a fence costs"),
    "each thread stores `rounds` times, each store followed by the fence",
    N_("Each thread stores to its own word again and again, each store followed by nothing (0), "
       "__threadfence_block () (1), __threadfence () (2), __syncthreads () (3) or "
       "__threadfence_system () (4). A fence waits until the thread's stores are visible at its "
       "scope. On the H200, 64 stores per thread take 19 µs with no fence, 55 µs with the block's "
       "fence, 36 µs with __syncthreads (), 148 µs with the GPU's fence (a trip to L2 for every "
       "store) and 265 µs with the system's. The block's fence is not the near-free one the "
       "textbook has, and costs more than a barrier: the numbers say each warp waits for its store "
       "to be done before the next, where at a barrier the stores are still in flight while the "
       "warps wait for each other."),
    B1 (256), GRID_1D, DEF_I, NULL,
    { { "N", 1 << 20, 256, 1 << 26, N_("threads") }, { "fence", 2, 0, 4, N_("0 none, 1 block, 2 device, 3 __syncthreads, 4 system") },
      { "rounds", 64, 1, 4096, N_("stores (and fences) per thread in the real kernel"), WS_PARAM_KERNEL_ONLY } },
    { STORE ("out", GLOBAL, 4, "i") }, "fence", "0,1,2,3,4" },

  /* ---------------------------------------------------------------- */
  { "l2/persisting", "l2", N_("Persisting access window"),
    "out[i] = hot[i % hot] + stream[i], hot buffer in a persisting window",
    /* xgettext:no-c-format */
    N_("Each thread reads a small hot buffer again and again while streaming a large one. An "
       "access-policy window marks hit_ratio % of the hot buffer as persisting in L2, the rest as "
       "streaming. On the H200 (a 32 MiB hot buffer, 32 MiB set aside) 100 % takes 120 µs, 60 % "
       "151 and 0 % 213 µs, against 127 µs with no window. All persisting halves DRAM reads (135 "
       "MB against 268) yet saves only about 6 %: the kernel is not bound by DRAM bandwidth. At 0 "
       "% the hot buffer is marked streaming, evicted first, and it is worse off than with no "
       "window at all."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, N_("elements in the hot buffer") },
      { "hit_ratio", 100, 0, 100, N_("percent of the window marked persisting") } },
    { LOAD ("hot", GLOBAL, 4, "i % hot"), LOAD ("stream", GLOBAL, 4, "i") }, "hit_ratio", "0:100:20" },
  { "l2/streaming", "l2", N_("Streaming (no window)"),
    "out[i] = hot[i % hot] + stream[i], no window",
    /* xgettext:no-c-format */
    N_("The same reads with no access-policy window. Between two reads of a hot element the kernel "
       "streams twice the hot buffer through L2 (an element in, one out), so under LRU the hot "
       "buffer stays only while three times its size fits in L2. Sweep hot: from 1 to 64 MiB. On "
       "the H200 the time steps up between 4 and 16 MiB (114 to 126 µs), earlier than LRU over its "
       "60 MiB would give (3 × 16 MiB fits): the L2 is two partitions and its replacement is not "
       "documented. Past that it stays at 127 µs, only 12 % above the smallest hot set: the kernel "
       "is not bound by DRAM bandwidth."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, N_("elements in the hot buffer") } },
    { LOAD ("hot", GLOBAL, 4, "i % hot"), LOAD ("stream", GLOBAL, 4, "i") }, "hot", "262144,1048576,4194304,8388608,12582912,16777216" },
  { "l2/hot-size", "l2", N_("Persisting window, hot set swept"),
    "out[i] = hot[i % hot] + stream[i], the whole hot buffer in a persisting window",
    N_("The window over the whole hot buffer, all of it persisting, as the hot set grows from well "
       "below to well above the part of L2 the device lets a program set aside for persisting "
       "lines (cudaDevAttrMaxPersistingL2CacheSize). While it fits, the hot buffer stays whatever "
       "streams past; beyond it, persisting lines evict each other, and a hit ratio of set-aside / "
       "window would keep part of it instead. The view shows what is expected to stay. On the H200 "
       "(37.5 MiB at most) the window keeps 16 and 32 MiB hot buffers at 117 and 120 µs, where no "
       "window takes 126 and 127; at 48 and 64 MiB it is worse than none, 142 and 149 µs."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "hot", 1 << 22, 1024, 1 << 24, N_("elements in the hot buffer") },
      { "hit_ratio", 100, 0, 100, N_("percent of the window marked persisting") } },
    { LOAD ("hot", GLOBAL, 4, "i % hot"), LOAD ("stream", GLOBAL, 4, "i") }, "hot", "262144,1048576,4194304,8388608,12582912,16777216" },

  /* ---------------------------------------------------------------- */
  { "transfer/pageable", "transfer", N_("Pageable memory"),
    "cudaMemcpy from malloc'ed memory, then a kernel",
    N_("cudaMemcpy from malloc'ed memory: the driver stages it through a pinned buffer, so it is "
       "slower. The kernel afterwards reads the data coalesced."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/pinned", "transfer", N_("Pinned memory"),
    "cudaMemcpy from cudaMallocHost memory, then a kernel",
    N_("cudaMemcpy from cudaMallocHost memory: DMA straight from host memory at the full speed of "
       "the bus."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/mapped", "transfer", N_("Mapped (zero-copy)"),
    "a kernel reading mapped host memory",
    N_("The kernel reads host memory directly over the bus. Each sector crosses PCIe or NVLink when "
       "the warp asks for it: coalescing matters even more than in device memory."),
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/streams", "transfer", N_("Copies overlapped in streams"),
    "copy in, kernel, copy out in chunks over streams",
    N_("Split the work in chunks and issue copy in, kernel, copy out for each chunk in its own stream: "
       "copies in both directions overlap with computation."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (1 << 24), { "streams", 4, 1, 16, N_("streams (chunks)") } },
    { LOAD ("in", GLOBAL, 4, "i"), STORE ("out", GLOBAL, 4, "i") }, "streams", "1,2,4,8,16" },
  { "transfer/overlap", "transfer", N_("Copies hidden behind a long kernel"),
    "copy in, a kernel of `work` rounds per element, copy out, in chunks over streams",
    N_("The streams preset with a kernel that computes long enough to take as long as the copies: "
       "with one stream everything runs in turn; with more, a chunk's kernel runs while the next "
       "chunk comes in and the last one goes out, and the timeline shows the copy engines and the "
       "SMs busy at once. On the H200 one stream takes 472 µs (copy in 157, kernel 149, copy out "
       "155) and 4 streams 289 µs; 8 and 16 do no better (332 and 308 µs). The kernel is hidden, "
       "the copies are not: on this machine a copy in and a copy out running together move little "
       "more than one alone (53 GB/s), so the 16 MiB of copies, close to 300 µs, are the floor."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (1 << 21), { "streams", 4, 1, 16, N_("streams (chunks)") },
      { "work", 512, 0, 65536, N_("rounds of arithmetic per element"), WS_PARAM_KERNEL_ONLY } },
    { LOAD ("in", GLOBAL, 4, "i"), STORE ("out", GLOBAL, 4, "i") }, "streams", "1,2,4,8,16" },

  /* ---------------------------------------------------------------- */
#define UNIFIED_GEOM B1 (256), GRID_1D, DEF_I, "i < N", \
    { { "N", 1 << 24, 1024, 1 << 27, N_("elements the host wrote and the kernel reads") } }
#define UNIFIED_ACCESSES LOAD ("in", GLOBAL, 4, "i"), STORE ("out", GLOBAL, 4, "i")
#define UNIFIED_SIZES "262144,1048576,4194304,16777216"
  { "unified/explicit", "unified", N_("Explicit copy (the baseline)"),
    "cudaMemcpy from malloc'ed memory, then out[i] = in[i] * 3 + 1",
    N_("What unified memory replaces: the host writes a malloc'ed buffer, cudaMemcpy copies it to "
       "the device (staged through a pinned buffer), and the kernel reads device memory. Every "
       "unified preset runs the same kernel on the same data; sweep N from 1 to 64 MiB. On the "
       "H200 the copy is nearly all of it: 4.5 ms for 64 MiB (15 GB/s), of which the kernel takes "
       "0.06 ms."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },
  { "unified/managed", "unified", N_("Managed memory, page faults"),
    "cudaMallocManaged, written by the host, read by the kernel (migrated on faults)",
    N_("cudaMallocManaged memory the host has just written lives in host memory. The kernel's "
       "first touch of each page faults; the driver migrates the page (or a larger group of them) "
       "and the warp waits. Before every sample the data goes back to the host, as in a program "
       "that alternates host and device work: each sample pays the faults again. On the H200, 6.7 "
       "ms for 64 MiB migrated on faults against 4.5 ms copied explicitly, and 0.24 against 0.06 "
       "ms for 1 MiB."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },
  { "unified/prefetch", "unified", N_("Managed memory, prefetched"),
    "cudaMemPrefetchAsync to the device, then the kernel",
    N_("The same managed memory moved to the device with cudaMemPrefetchAsync before the kernel, "
       "in bulk and without faults, with one pointer for host and device. On the H200 it is not "
       "merely close to the explicit copy but faster: 1.6 ms for 64 MiB against 4.5 ms, since the "
       "migration is not staged through a pinned buffer as a cudaMemcpy from pageable memory is (a "
       "pinned copy takes 1.3 ms)."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },
  { "unified/read-mostly", "unified", N_("Managed memory, advised read-mostly"),
    "cudaMemAdviseSetReadMostly: read-only copies where it is read",
    N_("Advised read-mostly, managed memory is duplicated rather than moved: the first kernel "
       "makes a read-only copy on the device, and the host's use between samples keeps its own "
       "copy without taking the device's away. After the first launch the kernel reads device "
       "memory: on the H200 a sample takes 0.05 ms for 64 MiB, against 4.5 ms copied explicitly."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },
  { "unified/preferred-host", "unified", N_("Managed memory that stays on the host"),
    "cudaMemAdviseSetPreferredLocation (host) and SetAccessedBy (device)",
    N_("Advised to live on the host and to be mapped for the device, managed memory is not "
       "migrated: the kernel reads it across the bus, as zero-copy memory, every time. On the "
       "H200, 1.3 ms for 64 MiB (51 GB/s), as fast as a pinned copy and 3.5 times faster than the "
       "explicit one from pageable memory: read once and coalesced, each byte crosses the bus once "
       "either way."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },
  { "unified/managed-variable", "unified", N_("A __managed__ variable"),
    "a __managed__ array of 4 Mi words, written by the host, read by the kernel",
    N_("A __managed__ global variable is managed memory the host writes as an ordinary variable — "
       "no allocation, no copy — and the kernel reads as device memory, migrated on faults as "
       "cudaMallocManaged memory is. Its size is fixed when the program is compiled (16 MiB here). "
       "On the H200, 1.9 ms for 16 MiB, about what cudaMallocManaged memory of that size takes "
       "(1.8 ms)."),
    B1 (256), GRID_1D, DEF_I, "i < N",
    { { "N", 1 << 22, 1024, 1 << 22, N_("elements of the variable the kernel reads") } },
    { UNIFIED_ACCESSES }, "N", "262144,1048576,4194304" },
  { "unified/mapped-uva", "unified", N_("Pinned host memory through UVA"),
    "a kernel reading pinned host memory through the host's own pointer",
    N_("With unified virtual addressing, memory from cudaMallocHost has the same address on host "
       "and device: the kernel takes the host's pointer as it is (no cudaHostGetDevicePointer) and "
       "reads host memory across the bus, sector by sector, every launch. On the H200, 1.3 ms for "
       "64 MiB, the time of managed memory kept on the host and of a pinned copy: read coalesced, "
       "each sector crosses once."),
    UNIFIED_GEOM, { UNIFIED_ACCESSES }, "N", UNIFIED_SIZES },

  /* ---------------------------------------------------------------- */
  { "merge/one-thread", "merge", N_("One thread merges"),
    "block minimum: thread 0 walks shared memory",
    N_("Thread 0 alone walks the block's values in shared memory: one lane per instruction, and "
       "all other threads wait. On the H200 it costs little: 13.5 µs for 4 Mi values, against 12.3 "
       "µs for atomicMin and 19.4 µs for the tree. Thread 0's reads do not depend on each other, "
       "and the other blocks on the SM keep it busy while one block walks."),
    B1 (256), GRID_1D, NULL, "threadIdx.x == 0",
    { P_N (N_SMALL), { "k", 0, 0, 255, N_("element thread 0 reads"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "k") } },
  { "merge/atomicmin", "merge", N_("atomicMin on one word"),
    "block minimum: atomicMin on one shared word",
    N_("Every thread applies atomicMin to the same shared word: the 32 lanes of a warp collide on "
       "one address. The textbook serialises them; on the H200 this is the fastest of the five, "
       "12.3 µs for 4 Mi values. The counters show one wavefront per warp instruction: the "
       "shared-memory unit combines a warp's updates of one word instead of applying them one by "
       "one."),
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { ATOMIC ("s", SHARED, 4, "0") } },
  { "merge/tree", "merge", N_("Tree reduction"),
    "block minimum: tree reduction, sequential addressing",
    N_("In each step, thread t < step combines s[t] and s[t + step]. Consecutive threads read "
       "consecutive words: no bank conflict, and whole warps retire as the step shrinks. On the "
       "H200 it is still slower than atomicMin, 19.4 against 12.3 µs for 4 Mi values: its eight "
       "barriers cost more than the atomics they replace."),
    B1 (256), GRID_1D, NULL, "threadIdx.x < step",
    { P_N (N_SMALL), { "step", 128, 1, 128, N_("distance between the combined elements (the step the views show)"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "threadIdx.x"), LOAD ("s", SHARED, 4, "threadIdx.x + step") }, "step", "1,2,4,8,16,32,64,128" },
  { "merge/tree-interleaved", "merge", N_("Tree reduction, interleaved addressing"),
    "block minimum: tree reduction, interleaved addressing",
    N_("The older form: thread t combines s[2·step·t] and s[2·step·t + step]. The stride doubles "
       "every step, and so do the bank conflicts: on the H200 about 139 thousand against 6 "
       "thousand for sequential addressing, and 25.1 against 19.4 µs for 4 Mi values."),
    B1 (256), GRID_1D, NULL, "2 * step * threadIdx.x < 256",
    { P_N (N_SMALL), { "step", 1, 1, 128, N_("distance between the combined elements (the step the views show)"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "2 * step * threadIdx.x"), LOAD ("s", SHARED, 4, "2 * step * threadIdx.x + step") },
    "step", "1,2,4,8,16,32,64,128" },
  { "merge/hybrid", "merge", N_("Warp shuffles, then one atomic per warp"),
    "block minimum: warp shuffles, one atomicMin per warp",
    N_("Each warp reduces its values with __shfl_down_sync, and lane 0 applies one atomicMin to "
       "shared memory: 8 atomics per block instead of 256. On the H200 that gains nothing over "
       "atomicMin alone, 12.8 against 12.3 µs: a warp's atomicMin on one word is already a single "
       "wavefront, and the shuffles cost instructions of their own."),
    B1 (256), GRID_1D, NULL, "lane == 0", { P_N (N_SMALL) },
    { ATOMIC ("s", SHARED, 4, "0") } },
#define SORT_N { "N", 1 << 20, 1024, 1 << 26, N_("values; each block sorts 1024 of them") }
  { "merge/sort-one-thread", "merge", N_("Merge sort: one thread finds the minimum"),
    "block-wide merge sort: 256 sorted lists of 4, thread 0 scans the heads",
    N_("The whole sort: each of 256 threads sorts 4 values, and the block merges the 256 sorted "
       "lists by taking the smallest head 1024 times. Here thread 0 reads all 256 heads for each "
       "of them while the others wait at a barrier: 64 16-byte reads and a chain of minimums per "
       "value sorted (the compiler makes it 128 three-way minimums, each waiting for the one "
       "before). On the H200, 741 µs for 1 Mi values: faster than the tree (1.14 ms), slower "
       "than atomicMin (280 µs)."),
    B1 (256), "(N + 1023) / 1024", NULL, "threadIdx.x == 0",
    { SORT_N, { "k", 0, 0, 255, N_("the head thread 0 reads"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("heads", SHARED, 4, "k") } },
  { "merge/sort-atomicmin", "merge", N_("Merge sort: atomicMin on one word"),
    "block-wide merge sort, every thread applies atomicMin to one shared word",
    N_("The same sort, with every thread offering its head to one shared word with atomicMin: one "
       "instruction, 256 updates of one address. The textbook expects them serialised; on the H200 "
       "this is the fastest strategy, 280 µs for 1 Mi values against 741 µs for one thread and "
       "1.14 ms for the tree: the compiler takes each warp's minimum (REDUX) and makes one atomic "
       "a warp, and a value needs one barrier. It also issues the fewest instructions: ncu counts "
       "28 thousand a warp, against 55 thousand for one thread and 73 thousand for the tree."),
    B1 (256), "(N + 1023) / 1024", NULL, NULL, { SORT_N },
    { ATOMIC ("smin", SHARED, 4, "0") } },
  { "merge/sort-tree", "merge", N_("Merge sort: a tree reduction"),
    "block-wide merge sort, the minimum by a tree reduction",
    N_("The same sort, the minimum found by a tree: 8 levels, a barrier each, for every value "
       "sorted. Conflict-free, but the barriers add up: on the H200 it is the slowest strategy, "
       "1.14 ms for 1 Mi values against 280 µs for atomicMin."),
    B1 (256), "(N + 1023) / 1024", NULL, "threadIdx.x < step",
    { SORT_N, { "step", 128, 1, 128, N_("distance between the combined heads (the level the views show)"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("heads", SHARED, 4, "threadIdx.x"), LOAD ("heads", SHARED, 4, "threadIdx.x + step") } },
  { "merge/sort-hybrid", "merge", N_("Merge sort: groups of N, then atomicMin"),
    "block-wide merge sort, the first thread of each group scans its group, then one atomicMin",
    N_("The hybrid: threads in groups of `group`; the first of each reads its group's heads one after "
       "another and applies one atomicMin. Small groups mean many atomics on one word; large ones "
       "long scans (and the leaders' reads, `group` words apart, fall in few banks). Sweep the group "
       "from 2 to 32 to find where the two costs meet. On the H200 they meet at the smallest group: "
       "groups of 2 are fastest (675 µs for 1 M keys) and every doubling after costs more, up to "
       "1.6 ms at 32; the atomicMin strategy alone (280 µs) beats every hybrid there. Why: the "
       "SMs are busy issuing instructions, not waiting. The compiler unrolls the scan, so its "
       "loads go out together, but each step's scan and bookkeeping are many instructions for "
       "every warp: ncu counts 66 thousand a warp at groups of 2, 94 thousand at 8 and 141 "
       "thousand at 32, issued in 72–80 % of the cycles."),
    B1 (256), "(N + 1023) / 1024", NULL, "threadIdx.x % group == 0",
    { SORT_N, { "group", 8, 1, 256, N_("threads per group (divides 256)") },
      { "k", 0, 0, 255, N_("the head of its group the leader reads"), WS_PARAM_MODEL_ONLY } },
    { LOAD ("heads", SHARED, 4, "threadIdx.x + k"), ATOMIC ("smin", SHARED, 4, "0") }, "group", "2,4,8,16,32" },
};

const WsTopic *
ws_topics_get_all (guint *n_topics)
{
  *n_topics = G_N_ELEMENTS (topics);
  return topics;
}

const WsTopic *
ws_topic_lookup (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (topics); i++)
    if (g_strcmp0 (topics[i].id, id) == 0)
      return &topics[i];
  return NULL;
}

const WsPreset *
ws_presets_get_all (guint *n_presets)
{
  *n_presets = G_N_ELEMENTS (presets);
  return presets;
}

const WsPreset *
ws_preset_lookup (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (g_strcmp0 (presets[i].id, id) == 0)
      return &presets[i];
  return NULL;
}

/* Edits between a and b (Levenshtein), ASCII case ignored; most + 1 once
 * it passes most. */
static guint
edit_distance (const char *a,
               const char *b,
               guint       most)
{
  gsize na = strlen (a), nb = strlen (b);
  g_autofree guint *row = g_new (guint, nb + 1);

  if ((na > nb ? na - nb : nb - na) > most)
    return most + 1;
  for (gsize j = 0; j <= nb; j++)
    row[j] = j;
  for (gsize i = 1; i <= na; i++)
    {
      guint diagonal = row[0], best;

      row[0] = i;
      best = row[0];
      for (gsize j = 1; j <= nb; j++)
        {
          guint up = row[j];
          guint same = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]);

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diagonal + (same ? 0 : 1));
          diagonal = up;
          best = MIN (best, row[j]);
        }
      if (best > most)
        return most + 1;
    }
  return row[nb];
}

const char *
ws_preset_suggest (const char *id)
{
  const char *best = NULL;
  guint best_distance, most;

  g_return_val_if_fail (id != NULL, NULL);

  /* a variant without its topic: "stride" for "coalescing/stride" */
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      const char *slash = strchr (presets[i].id, '/');
      if (slash && g_ascii_strcasecmp (slash + 1, id) == 0)
        return presets[i].id;
    }
  /* a slip of a key or two */
  most = MAX (2, (guint) strlen (id) / 4);
  best_distance = most + 1;
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      guint d = edit_distance (id, presets[i].id, most);
      if (d < best_distance)
        {
          best_distance = d;
          best = presets[i].id;
        }
    }
  return best;
}

const WsPresetParam *
ws_preset_get_param (const WsPreset *preset,
                     const char     *name)
{
  g_return_val_if_fail (preset != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < WS_PRESET_MAX_PARAMS && preset->params[i].name; i++)
    if (strcmp (preset->params[i].name, name) == 0)
      return &preset->params[i];
  return NULL;
}

static gboolean
lookup_param (const char *name,
              gpointer    pattern,
              gint64     *value,
              GError    **error)
{
  if (ws_pattern_get_param (pattern, name, value))
    return TRUE;
  g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, _ ("no parameter “%s”"), name);
  return FALSE;
}

gboolean
ws_preset_fit_grid (const WsPreset *preset,
                    WsPattern      *pattern,
                    GError        **error)
{
  g_auto (GStrv) dims = NULL;
  WsEvalEnv env = { .lookup = lookup_param, .lookup_data = pattern };
  gint64 g[3] = { 1, 1, 1 };
  guint n;

  g_return_val_if_fail (preset != NULL, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);

  dims = g_strsplit (preset->grid, ",", -1);
  n = g_strv_length (dims);
  g_assert (n >= 1 && n <= 3);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsExpr) e = ws_expr_parse (dims[i], NULL, error);

      if (e == NULL || !ws_expr_eval (e, &env, &g[i], error))
        {
          g_prefix_error (error, _ ("the grid of %s, “%s”: "), preset->id, preset->grid);
          return FALSE;
        }
      if (g[i] < 1 || g[i] > G_MAXUINT32)
        {
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                       /* Translators: a preset's id, its grid as written, then the blocks it gives */
                       _("the grid of %s, “%s”, gives %lld blocks"), preset->id, preset->grid, (long long) g[i]);
          return FALSE;
        }
    }
  return ws_pattern_set_grid (pattern, WS_DIM3 ((guint) g[0], (guint) g[1], (guint) g[2]), error);
}

WsPattern *
ws_preset_build (const WsPreset *preset)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (preset != NULL, NULL);

  ok &= ws_pattern_set_block (p, preset->block, &error);
  for (guint i = 0; ok && i < WS_PRESET_MAX_PARAMS && preset->params[i].name; i++)
    {
      const WsPresetParam *pp = &preset->params[i];

      if (pp->use == WS_PARAM_KERNEL_ONLY)
        continue;
      ok &= ws_pattern_set_param (p, pp->name, pp->value, &error);
      if (ok)
        ws_pattern_set_param_range (p, pp->name, pp->min, pp->max, pp->description);
    }
  ok &= ok && ws_preset_fit_grid (preset, p, &error);
  if (ok && preset->definitions)
    {
      g_auto (GStrv) defs = g_strsplit (preset->definitions, ";", -1);
      for (guint i = 0; ok && defs[i]; i++)
        {
          g_auto (GStrv) kv = g_strsplit (defs[i], "=", 2);
          g_assert (g_strv_length (kv) == 2);
          ok &= ws_pattern_add_definition (p, g_strstrip (kv[0]), g_strstrip (kv[1]), &error);
        }
    }
  ok &= ok && ws_pattern_set_guard (p, preset->guard, &error);
  for (guint i = 0; ok && i < WS_PRESET_MAX_ACCESSES && preset->accesses[i].index; i++)
    {
      const WsPresetAccess *a = &preset->accesses[i];
      guint size = a->elem_size ? a->elem_size : 4;
      ok &= ws_pattern_add_access (p, a->array, a->space, a->kind, size, a->index, a->base, &error);
      if (ok && a->elem_size == 0)
        ok &= ws_pattern_bind_elem_size (p, i, &error);
    }
  if (!ok)
    g_error ("preset %s is broken: %s", preset->id, error->message);
  return g_steal_pointer (&p);
}

const char *
ws_preset_sweep_param (const WsPreset  *preset,
                       const WsPattern *pattern)
{
  g_return_val_if_fail (pattern != NULL, NULL);

  if (preset == NULL || preset->sweep_param == NULL || !ws_pattern_get_param (pattern, preset->sweep_param, NULL))
    return NULL;
  return preset->sweep_param;
}

gboolean
ws_preset_differs (const WsPreset  *preset,
                   const WsPattern *pattern)
{
  g_autoptr (WsPattern) reference = NULL;
  g_autoptr (WsPattern) mine = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gint64 v;

  g_return_val_if_fail (pattern != NULL, TRUE);

  if (preset == NULL)
    return TRUE;
  reference = ws_preset_build (preset);
  mine = ws_pattern_copy (pattern);
  if (preset->sweep_param && ws_pattern_get_param (reference, preset->sweep_param, &v))
    ws_pattern_set_param (mine, preset->sweep_param, v, NULL);
  a = ws_pattern_to_string (reference);
  b = ws_pattern_to_string (mine);
  return g_strcmp0 (a, b) != 0;
}

char *
ws_pattern_sweep_key (const WsPattern *pattern,
                      const char      *sweep_param)
{
  g_autoptr (WsPattern) copy = NULL;

  g_return_val_if_fail (pattern != NULL, NULL);

  copy = ws_pattern_copy (pattern);
  for (guint i = 0; sweep_param && i < ws_pattern_get_n_params (copy); i++)
    if (g_str_equal (ws_pattern_get_param_nth (copy, i)->name, sweep_param))
      ws_pattern_set_param (copy, sweep_param, ws_pattern_get_param_nth (copy, i)->min, NULL);
  return ws_pattern_to_string (copy);
}

char *
ws_preset_short_title (const char *title)
{
  const char *paren = strstr (title, " (");

  /* asides that tell presets apart ("(local)", "(shared)") stay */
  if (paren && (strpbrk (paren, ".*^[+_") || strlen (paren) > 14))
    return g_strndup (title, paren - title);
  return g_strdup (title);
}

static gboolean
parse_int (const char *text,
           gint64     *out,
           GError    **error)
{
  char *end = NULL;
  gint64 v;

  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (text == end || *g_strstrip (end) != '\0' || errno != 0)
    {
      g_autofree char *shown = ws_text_for_message (text);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("“%s” is not an integer"), shown);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

#define MAX_SWEEP_VALUES 100000

GArray *
ws_sweep_values_parse (const char *text,
                       GError    **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *shown = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  shown = ws_text_for_message (text);
  if (strchr (text, ':'))
    {
      g_auto (GStrv) parts = g_strsplit (text, ":", -1);
      gint64 a, b, step = 1;
      guint n = g_strv_length (parts);

      if (n < 2 || n > 3 || !parse_int (parts[0], &a, error) || !parse_int (parts[1], &b, error) ||
          (n == 3 && !parse_int (parts[2], &step, error)))
        {
          if (error && *error == NULL)
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("“%s” is not A:B[:STEP]"), shown);
          return NULL;
        }
      /* B - A in unsigned arithmetic: it may not fit in a signed one */
      if (step <= 0 || b < a || ((guint64) b - (guint64) a) / (guint64) step >= MAX_SWEEP_VALUES)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("“%s”: need A ≤ B, a positive step, and at most %d values"), shown, MAX_SWEEP_VALUES);
          return NULL;
        }
      for (guint64 k = 0; k <= ((guint64) b - (guint64) a) / (guint64) step; k++)
        {
          gint64 v = (gint64) ((guint64) a + k * (guint64) step);
          g_array_append_val (values, v);
        }
    }
  else
    {
      g_auto (GStrv) parts = g_strsplit (text, ",", MAX_SWEEP_VALUES + 1);
      for (guint i = 0; parts[i]; i++)
        {
          gint64 v;
          if (i == MAX_SWEEP_VALUES)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _ ("“%s”: at most %d values"), shown, MAX_SWEEP_VALUES);
              return NULL;
            }
          if (!parse_int (parts[i], &v, error))
            return NULL;
          g_array_append_val (values, v);
        }
    }
  if (values->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("“%s” gives no values"), shown);
      return NULL;
    }
  return g_steal_pointer (&values);
}
