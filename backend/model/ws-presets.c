/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-presets.h"

#include <errno.h>
#include <string.h>

static const WsTopic topics[] = {
  { "coalescing", "Global coalescing",
    "How the 32 addresses of a warp become 32-byte sectors of global memory. "
    "The degree of coalescing is the bytes the warp asked for over the bytes the sectors moved." },
  { "alignment", "Alignment and layout",
    "Element sizes from 1 to 16 bytes, structures padded or not, arrays of structures against "
    "structures of arrays, and 2-D arrays with and without a pitch." },
  { "transpose", "Matrix transpose",
    "A transpose reads rows and writes columns, so one side is always strided — unless a "
    "shared-memory tile turns the corner." },
  { "banks", "Shared-memory banks",
    "Shared memory has 32 banks of 4 bytes. Lanes that need different words of one bank are "
    "served in separate wavefronts; lanes that need the same word share it." },
  { "constant", "Constant memory",
    "The constant cache serves one address per request: a warp that asks for N different "
    "addresses is served N times, one after another." },
  { "readonly", "Read-only path",
    "Loads through the read-only (texture) path with __ldg or const __restrict__, against plain loads." },
  { "private-array", "Local memory",
    "Private arrays: in registers when every index is known at compile time, in local memory "
    "otherwise — which is interleaved so that a warp-uniform index is coalesced." },
  { "occupancy", "Registers and occupancy",
    "Registers per thread decide how many blocks and warps an SM can hold; too few registers "
    "spill to local memory." },
  { "atomics", "Atomics",
    "Atomic updates of one address are applied one after another; spread over many addresses, "
    "or aggregated within the warp first, they run in parallel." },
  { "l2", "L2 persistence",
    "An access-policy window asks L2 to keep a region resident (persisting) while the rest "
    "streams through." },
  { "transfer", "Host transfers",
    "Copies between host and device: pageable, pinned and mapped (zero-copy) memory, and copies "
    "overlapped with computation in streams." },
  { "merge", "Shared-memory merge",
    "Combining the values of a block in shared memory: one thread, atomicMin, a tree "
    "reduction, and a hybrid of warp shuffles and one atomic per warp." },
};

/* The real kernels' sizes. DRAM-bound arrays hold 32 Mi elements of 4
 * bytes: 128 MiB each, in and out together five times the 50 MiB L2 of an
 * H100. Kernels whose cost is on the chip need fewer. */
#define N_STREAM 33554432
#define N_SMALL 4194304

/* One thread per element, 256 a block (ws_launch_1d) */
#define GRID_1D "(N + 255) / 256"
#define P_N(DEF) { "N", DEF, 1, 1 << 28, "elements in the array" }
/* The real kernels loop over what the pattern shows: the model analyses one
 * pass, whose instructions are the same in every pass */
#define P_LOADS(DEF) { "loads", DEF, 32, 1 << 20, "loads per thread in the real kernel (a multiple of 32)", \
                       WS_PARAM_KERNEL_ONLY }
#define DEF_I "i = blockIdx.x * blockDim.x + threadIdx.x"
#define DEF_XY "x = blockIdx.x * blockDim.x + threadIdx.x; y = blockIdx.y * blockDim.y + threadIdx.y"

#define B1(X) WS_DIM3 (X, 1, 1)
#define LOAD(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_LOAD, SIZE, INDEX, 0 }
#define STORE(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_STORE, SIZE, INDEX, 0 }
#define ATOMIC(ARR, SPACE, SIZE, INDEX) { ARR, WS_SPACE_##SPACE, WS_ACCESS_ATOMIC, SIZE, INDEX, 0 }

static const WsPreset presets[] = {
  /* ---------------------------------------------------------------- */
  { "coalescing/sequential", "coalescing", "Sequential",
    "out[i] = in[i]",
    "Thread i reads element i. The 32 lanes of a warp ask for 128 consecutive bytes, exactly "
    "four 32-byte sectors, so every byte moved is used: 100 % coalescing.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "coalescing/permuted", "coalescing", "Permuted (threadIdx.x ^ 1)",
    "out[i] = in[blockIdx.x * blockDim.x + (threadIdx.x ^ 1)]",
    "Neighbouring lanes swap their elements. The warp still covers the same 128 bytes, and the "
    "hardware does not care which lane takes which word: 4 sectors, 100 %.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "blockIdx.x * blockDim.x + (threadIdx.x ^ 1)") } },
  { "coalescing/offset", "coalescing", "Misaligned (+1 element)",
    "out[i] = in[i + offset]",
    "Every index is shifted by one element. The warp's 128 bytes now straddle a sector boundary: "
    "5 sectors move 160 bytes for 128 used, 80 %. Sweep the offset to see it return to 100 % at 8.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "offset", 1, 0, 64, "elements to shift every index by" } },
    { LOAD ("in", GLOBAL, 4, "i + offset") }, "offset", "0:32" },
  { "coalescing/stride", "coalescing", "Strided (blockIdx.x + threadIdx.x * gridDim.x)",
    "out[i] = in[blockIdx.x + threadIdx.x * gridDim.x], N / 256 blocks",
    "Consecutive lanes are gridDim.x elements apart: with a thread per element, N / 256 blocks, "
    "and the lanes of a warp are hundreds of kilobytes apart, so each lane needs a sector of its "
    "own: 32 sectors move 1024 bytes for 128 used, 12.5 %.",
    B1 (256), GRID_1D, NULL, NULL,
    { { "N", N_STREAM, 256, 1 << 28, "elements in the array (a multiple of 256)" } },
    { LOAD ("in", GLOBAL, 4, "blockIdx.x + threadIdx.x * gridDim.x") } },
  { "coalescing/broadcast", "coalescing", "Broadcast (x[0])",
    "out[i] = in[0]",
    "Every lane reads x[0]. One sector serves the whole warp, but only 4 of its 32 bytes are "
    "distinct data: 12.5 % — cheap, yet all lanes wait on one address.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "0") } },
  { "coalescing/strided-sweep", "coalescing", "Stride sweep",
    "out[i] = in[i * stride] while i * stride < N",
    "Thread i reads element i × stride. Sectors per request grow with the stride until every lane "
    "has its own sector at a stride of 8 floats (32 bytes); bandwidth falls with them.",
    B1 (256), GRID_1D, DEF_I, "i * stride < N",
    { P_N (N_STREAM), { "stride", 2, 1, 128, "elements between consecutive threads" } },
    { LOAD ("in", GLOBAL, 4, "i * stride") }, "stride", "1:32" },

  /* ---------------------------------------------------------------- */
  { "alignment/elem-size", "alignment", "Element size",
    "out[i] = in[i], elements of elem_size bytes",
    "Thread i reads element i of 1, 2, 4, 8 or 16 bytes. A warp moves 32, 64, 128, 256 or 512 "
    "bytes: 1, 2, 4, 8 or 16 sectors, always fully used. Wider elements move more per instruction.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "elem_size", 4, 1, 16, "bytes per element: 1, 2, 4, 8 or 16" } },
    { LOAD ("in", GLOBAL, 0, "i") }, "elem_size", "1,2,4,8,16" },
  { "alignment/struct-unpadded", "alignment", "12-byte struct, unpadded",
    "out[i] = in[i].x + in[i].y + in[i].z, 12-byte structures",
    "A struct { float x, y, z; } is 12 bytes, not a power of two, so the compiler reads it with "
    "three 4-byte loads. Each load strides 12 bytes: 12 sectors for 128 used bytes, 33 %.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "3 * i"), LOAD ("in", GLOBAL, 4, "3 * i + 1"), LOAD ("in", GLOBAL, 4, "3 * i + 2") } },
  { "alignment/struct-padded", "alignment", "__align__(16) struct, padded",
    "out[i] = in[i].x + in[i].y + in[i].z, __align__(16) structures",
    "Padded to 16 bytes with __align__(16), the same struct is read by one 16-byte load per "
    "thread: 16 sectors for 512 bytes, 100 % (the padding word is moved but never asked for "
    "by the program, which sees 75 % of it as useful).",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 16, "i") } },
  { "alignment/aos", "alignment", "Array of structures (one field)",
    "out[i] = in[i].x of 12-byte structures (in[3 * i])",
    "Reading only x from an array of { float x, y, z }: lanes are 12 bytes apart, so 12 sectors "
    "move 384 bytes to deliver 128: 33 %.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "3 * i") } },
  { "alignment/soa", "alignment", "Structure of arrays",
    "out[i] = x[i]",
    "The same field stored as its own array: consecutive lanes read consecutive floats, "
    "4 sectors, 100 %.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("x", GLOBAL, 4, "i") } },
  { "alignment/asta", "alignment", "Array of structures of tiled arrays",
    "out[i] = in[(i / 32) * 96 + i % 32]",
    "Groups of 32 structures store each field contiguously (x[32], y[32], z[32]). A warp's field "
    "is one 128-byte run again: 4 sectors, 100 %, while a structure's fields stay close together.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "(i / 32) * 96 + i % 32") } },
  { "alignment/pitch-none", "alignment", "2-D array without a pitch",
    "2-D copy, rows W elements apart",
    "A 1000-wide float matrix stored row after row: a row is 4000 bytes, so most rows start in "
    "the middle of a sector and a warp's 32 floats often touch 5 sectors instead of 4.",
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY, "x < W && y < H",
    { { "W", 1000, 1, 65536, "row width in elements" }, { "H", 32768, 1, 65536, "rows" } },
    { LOAD ("in", GLOBAL, 4, "y * W + x") } },
  { "alignment/pitch", "alignment", "2-D array with a pitch (cudaMallocPitch)",
    "2-D copy, rows pitch elements apart (cudaMallocPitch)",
    "cudaMallocPitch pads each row to a multiple of the alignment (512 bytes on recent GPUs: here "
    "4096 bytes, a pitch of 1024 floats): every row starts on a sector boundary and each warp reads 4 sectors.",
    WS_DIM3 (32, 8, 1), "(W + 31) / 32, (H + 7) / 8", DEF_XY "; row = pitch > 0 ? pitch : (W * 4 + 511) / 512 * 128", "x < W && y < H",
    { { "W", 1000, 1, 65536, "row width in elements" }, { "H", 32768, 1, 65536, "rows" },
      { "pitch", 0, 0, 65536, "row pitch in elements; 0: what cudaMallocPitch chooses" } },
    { LOAD ("in", GLOBAL, 4, "y * row + x") } },

  /* ---------------------------------------------------------------- */
#define TRANSPOSE_GEOM WS_DIM3 (32, 32, 1), "(N + 31) / 32, (N + 31) / 32", DEF_XY, "x < N && y < N", \
    { { "N", 8192, 32, 32768, "matrix side in elements" } }
  { "transpose/copy", "transpose", "Copy (the bound)",
    "out[y][x] = in[y][x] (the bound)",
    "Not a transpose: read a row, write the same row. Both sides are coalesced, so this is the "
    "bandwidth every transpose should aim for.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/read-coalesced", "transpose", "Naive, coalesced reads",
    "out[x][y] = in[y][x]",
    "Each thread reads in[y][x] along a row and writes out[x][y] down a column. Reads take 4 "
    "sectors per request; the strided writes take 32.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"), STORE ("out", GLOBAL, 4, "x * N + y") } },
  { "transpose/write-coalesced", "transpose", "Naive, coalesced writes",
    "out[y][x] = in[x][y]",
    "The other way round: strided reads (32 sectors per request), coalesced writes. Usually "
    "faster than coalesced reads, because L1 and L2 catch the reused read sectors.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "x * N + y"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/ldg", "transpose", "Coalesced writes, __ldg reads",
    "out[y][x] = __ldg (&in[x][y])",
    "The same accesses as the write-coalesced transpose, with the strided reads through the "
    "read-only path (__ldg). The sectors are the same; the caching differs.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "x * N + y"), STORE ("out", GLOBAL, 4, "y * N + x") } },
  { "transpose/shared", "transpose", "Shared-memory tile",
    "32 x 32 shared-memory tile",
    "Read a 32 × 32 tile by rows, store it in shared memory, read it back by columns and write "
    "rows: both global sides are coalesced. But a column of a 32-wide float tile lies in one "
    "bank: reading it costs 32 wavefronts.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"),
      STORE ("tile", SHARED, 4, "threadIdx.y * 32 + threadIdx.x"),
      LOAD ("tile", SHARED, 4, "threadIdx.x * 32 + threadIdx.y"),
      STORE ("out", GLOBAL, 4, "(blockIdx.x * 32 + threadIdx.y) * N + blockIdx.y * 32 + threadIdx.x") } },
  { "transpose/shared-padded", "transpose", "Shared-memory tile, padded (TILE + 1)",
    "32 x 33 shared-memory tile",
    "One extra word per row (tile[32][33]) shifts each row by one bank, so a column touches all "
    "32 banks: 1 wavefront instead of 32.",
    TRANSPOSE_GEOM,
    { LOAD ("in", GLOBAL, 4, "y * N + x"),
      STORE ("tile", SHARED, 4, "threadIdx.y * 33 + threadIdx.x"),
      LOAD ("tile", SHARED, 4, "threadIdx.x * 33 + threadIdx.y"),
      STORE ("out", GLOBAL, 4, "(blockIdx.x * 32 + threadIdx.y) * N + blockIdx.y * 32 + threadIdx.x") } },

  /* ---------------------------------------------------------------- */
  { "banks/stride", "banks", "Stride sweep",
    "4-byte shared loads of s[threadIdx.x * stride]",
    "Lane k reads word k × stride. Even strides fold lanes onto fewer banks: stride 2 needs 2 "
    "wavefronts, 4 needs 4, 32 needs 32. Odd strides hit every bank once.",
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, "words between consecutive lanes" }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 4, "threadIdx.x * stride") }, "stride", "1:33" },
  { "banks/broadcast", "banks", "Broadcast",
    "4-byte shared loads of s[warp]",
    "All lanes of a warp read the same word: it is read once and broadcast, one wavefront.",
    B1 (256), "132", NULL, NULL, { P_LOADS (4096) },
    { LOAD ("s", SHARED, 4, "warp") } },
  { "banks/padding", "banks", "Column of a padded tile",
    "4-byte shared loads of tile[threadIdx.x % 32 * (32 + pad)]",
    "Lane k reads row k, column 0 of a tile 32 + pad words wide. Without padding every row starts "
    "in bank 0 (32 wavefronts); one word of padding spreads them over all banks (1).",
    B1 (256), "132", NULL, NULL,
    { { "pad", 0, 0, 8, "words of padding per row" }, P_LOADS (4096) },
    { LOAD ("tile", SHARED, 4, "threadIdx.x % 32 * (32 + pad)") }, "pad", "0:4" },
  { "banks/elem8", "banks", "8-byte accesses",
    "8-byte shared loads of s[threadIdx.x * stride]",
    "Each lane reads a double. 32 lanes × 8 bytes cannot pass in one 128-byte wavefront: two "
    "half-warp phases are the minimum. Try stride 2 (4 wavefronts).",
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, "elements between consecutive lanes" }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 8, "threadIdx.x * stride") }, "stride", "1:17" },
  { "banks/elem16", "banks", "16-byte accesses",
    "16-byte shared loads of s[threadIdx.x * stride]",
    "Each lane reads a float4: four quarter-warp phases of 8 lanes at least. A stride of 2 "
    "doubles the wavefronts.",
    B1 (256), "132", NULL, NULL,
    { { "stride", 1, 0, 64, "elements between consecutive lanes" }, P_LOADS (4096) },
    { LOAD ("s", SHARED, 16, "threadIdx.x * stride") }, "stride", "1:9" },
  { "banks/swizzle", "banks", "XOR swizzle",
    "4-byte shared loads of tile[threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x)]",
    "Instead of padding, store element (row, col) at column col ^ row. Reading a column then hits "
    "32 different banks — 1 wavefront — without wasting a word per row.",
    WS_DIM3 (32, 32, 1), "132", NULL, NULL, { P_LOADS (4096) },
    { LOAD ("tile", SHARED, 4, "threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x)") } },

  /* ---------------------------------------------------------------- */
  { "constant/broadcast", "constant", "One address per warp",
    "constant loads of c[warp]",
    "All lanes read the same constant: one request serves the warp.",
    B1 (256), "132", NULL, NULL, { P_LOADS (2048) },
    { LOAD ("c", CONSTANT, 4, "warp") } },
  { "constant/distinct", "constant", "N distinct addresses",
    "constant loads of c[lane % distinct]",
    "Lane k reads c[k % distinct]. The constant cache serves one address at a time, so the warp "
    "is served `distinct` times in a row.",
    B1 (256), "132", NULL, NULL,
    { { "distinct", 8, 1, 32, "distinct addresses per warp" }, P_LOADS (2048) },
    { LOAD ("c", CONSTANT, 4, "lane % distinct") }, "distinct", "1:32" },

  /* ---------------------------------------------------------------- */
  { "readonly/plain", "readonly", "Scattered reads, plain loads",
    "out[i] = in[i * 7919 % N], plain loads",
    "Thread i reads element (i × 7919) mod N: every lane lands in its own sector.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i * 7919 % N") } },
  { "readonly/ldg", "readonly", "Scattered reads, __ldg",
    "out[i] = __ldg (&in[i * 7919 % N])",
    "The same scattered reads through the read-only path (__ldg). The sectors are the same; on "
    "recent GPUs plain loads are cached in L1 too, so the difference is small.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (N_STREAM) },
    { LOAD ("in", GLOBAL, 4, "i * 7919 % N") } },

  /* ---------------------------------------------------------------- */
  { "private-array/static", "private-array", "Static indexing (registers)",
    "a[32] read at compile-time indices (registers)",
    "Every index into the private array is a compile-time constant, so the compiler keeps the "
    "array in registers: no memory instruction at all.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL), { "k", 3, 0, 31, "the constant index" } },
    { LOAD ("a", REGISTER, 4, "k") } },
  { "private-array/uniform-local", "private-array", "Uniform dynamic index (local)",
    "a[32] read at (blockIdx.x + r) % 32 (local, uniform)",
    "An index known only at run time puts the array in local memory. Local memory is "
    "interleaved — word w of lane l at (w × 32 + l) × 4 — so when all lanes use the same index "
    "the warp reads 128 contiguous bytes: 4 sectors, no replay.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 4, "blockIdx.x % 32") } },
  { "private-array/nonuniform-local", "private-array", "Non-uniform index (local)",
    "a[32] read at (threadIdx.x + r) % 32 (local, non-uniform)",
    "Each lane uses its own index. The interleaving now works against the warp: every lane's word "
    "is in a different 128-byte line, 32 sectors and 31 replays.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 4, "threadIdx.x % 32") } },
  { "private-array/nonuniform-shared", "private-array", "Non-uniform index (shared)",
    "a[index * blockDim.x + threadIdx.x] in shared memory",
    "The same private array kept in shared memory as a[index × blockDim.x + threadIdx.x]: "
    "each thread owns a column, so whatever the index, lanes fall in different banks — 1 wavefront.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", SHARED, 4, "threadIdx.x % 32 * blockDim.x + threadIdx.x") } },
  { "private-array/local-wide", "private-array", "8-byte elements in local memory",
    "8-byte a[16] read at (blockIdx.x + r) % 16 (local, uniform)",
    "Interleaving is per 4-byte word: an 8-byte element is two words 128 bytes apart, read as two "
    "requests of 4 sectors each when the index is uniform.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { LOAD ("a", LOCAL, 8, "blockIdx.x % 16") } },

  /* ---------------------------------------------------------------- */
  { "occupancy/registers", "occupancy", "Registers per thread",
    "a streaming kernel holding values in registers",
    "A streaming kernel that holds `registers` values per thread. More registers mean fewer "
    "resident warps per SM; beyond 255 the compiler spills to local memory.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_SMALL), { "registers", 32, 16, 255, "registers each thread needs (the kernel rounds up to a compiled budget)" } },
    { LOAD ("in", GLOBAL, 4, "i") }, "registers", "32,48,64,96,128,176,255" },
  { "occupancy/spill", "occupancy", "Spills to local memory",
    "the same kernel limited to 32 registers: it spills",
    "A thread that needs more registers than it may use stores values to local memory and loads "
    "them back: uniform spill slots, 4 sectors each.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL), { "slot", 0, 0, 63, "spill slot", WS_PARAM_MODEL_ONLY } },
    { STORE ("spill", LOCAL, 4, "slot"), LOAD ("spill", LOCAL, 4, "slot") } },

  /* ---------------------------------------------------------------- */
  { "atomics/one-address", "atomics", "One address",
    "atomicAdd (&counter, in[i] & 0xff)",
    "Every thread adds to the same counter: the 32 lanes of a warp are applied one after the other, "
    "32 serialised updates of one sector per warp. (When the address is a constant the compiler "
    "sees, CUDA 11 and later count the warp's lanes and issue one update instead — the real kernel "
    "hides its index from the compiler to show the hardware's behaviour.)",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },
  { "atomics/distinct", "atomics", "One address per thread",
    "atomicAdd (&out[i], in[i])",
    "Every thread updates its own element: no two lanes collide, and the warp's updates are "
    "coalesced into 4 sectors.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { ATOMIC ("out", GLOBAL, 4, "i") } },
  { "atomics/histogram", "atomics", "Histogram (many addresses)",
    "atomicAdd (&bins[i % bins], 1), global",
    "Thread i adds to bin i mod bins. With few bins, lanes collide and serialise; with 32 or more "
    "each lane of a warp has its own bin.",
    B1 (256), GRID_1D, DEF_I, NULL,
    { P_N (N_SMALL), { "bins", 8, 1, 4096, "number of bins" } },
    { ATOMIC ("bins", GLOBAL, 4, "i % bins") }, "bins", "1,2,4,8,16,32,64" },
  { "atomics/shared", "atomics", "Shared-memory atomics",
    "atomicAdd (&hist[i % bins], 1) in shared memory, merged per block",
    "The same histogram in shared memory, one per block, merged at the end.",
    B1 (256), GRID_1D, DEF_I, NULL,
    { P_N (N_SMALL), { "bins", 8, 1, 4096, "number of bins" } },
    { ATOMIC ("hist", SHARED, 4, "i % bins") }, "bins", "1,2,4,8,16,32,64" },
  { "atomics/warp-aggregated", "atomics", "Warp-aggregated",
    "warp sum with shuffles, one atomicAdd per warp",
    "The warp first adds its values with shuffles; lane 0 alone updates the counter: one atomic "
    "per warp instead of 32.",
    B1 (256), GRID_1D, NULL, "lane == 0", { P_N (N_SMALL) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },
  { "atomics/cas-loop", "atomics", "Compare-and-swap loop",
    "float maximum with an atomicCAS loop on one address",
    "An update with no atomic instruction of its own (here a float maximum) is a loop of atomicCAS "
    "that retries while another lane wins: all lanes on one address serialise, and some retry.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (1 << 20) },
    { ATOMIC ("counter", GLOBAL, 4, "0") } },

  /* ---------------------------------------------------------------- */
  { "l2/persisting", "l2", "Persisting access window",
    "out[i] = hot[i % hot] + stream[i], hot buffer in a persisting window",
    "Each thread reads a small hot buffer again and again while streaming a large one. An access-"
    "policy window marks hit_ratio % of the hot buffer as persisting in L2.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, "elements in the hot buffer" },
      { "hit_ratio", 100, 0, 100, "percent of the window marked persisting" } },
    { LOAD ("hot", GLOBAL, 4, "i % hot"), LOAD ("stream", GLOBAL, 4, "i") }, "hit_ratio", "0:100:20" },
  { "l2/streaming", "l2", "Streaming (no window)",
    "out[i] = hot[i % hot] + stream[i], no window",
    "The same reads with no access-policy window: the streamed data evicts the hot buffer from L2.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, "elements in the hot buffer" } },
    { LOAD ("hot", GLOBAL, 4, "i % hot"), LOAD ("stream", GLOBAL, 4, "i") } },

  /* ---------------------------------------------------------------- */
  { "transfer/pageable", "transfer", "Pageable memory",
    "cudaMemcpy from malloc'ed memory, then a kernel",
    "cudaMemcpy from malloc'ed memory: the driver stages it through a pinned buffer, so it is "
    "slower. The kernel afterwards reads the data coalesced.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/pinned", "transfer", "Pinned memory",
    "cudaMemcpy from cudaMallocHost memory, then a kernel",
    "cudaMemcpy from cudaMallocHost memory: DMA straight from host memory at the full speed of "
    "the bus.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/mapped", "transfer", "Mapped (zero-copy)",
    "a kernel reading mapped host memory",
    "The kernel reads host memory directly over the bus. Each sector crosses PCIe or NVLink when "
    "the warp asks for it: coalescing matters even more than in device memory.",
    B1 (256), GRID_1D, DEF_I, "i < N", { P_N (1 << 24) },
    { LOAD ("in", GLOBAL, 4, "i") } },
  { "transfer/streams", "transfer", "Copies overlapped in streams",
    "copy in, kernel, copy out in chunks over streams",
    "Split the work in chunks and issue copy in, kernel, copy out for each chunk in its own stream: "
    "copies in both directions overlap with computation.",
    B1 (256), GRID_1D, DEF_I, "i < N",
    { P_N (1 << 24), { "streams", 4, 1, 16, "streams (chunks)" } },
    { LOAD ("in", GLOBAL, 4, "i"), STORE ("out", GLOBAL, 4, "i") }, "streams", "1,2,4,8,16" },

  /* ---------------------------------------------------------------- */
  { "merge/one-thread", "merge", "One thread merges",
    "block minimum: thread 0 walks shared memory",
    "Thread 0 alone walks the block's values in shared memory: one lane per instruction, and all "
    "other threads wait.",
    B1 (256), GRID_1D, NULL, "threadIdx.x == 0",
    { P_N (N_SMALL), { "k", 0, 0, 255, "element thread 0 reads", WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "k") } },
  { "merge/atomicmin", "merge", "atomicMin on one word",
    "block minimum: atomicMin on one shared word",
    "Every thread applies atomicMin to the same shared word: the 32 lanes of a warp collide on "
    "one address.",
    B1 (256), GRID_1D, NULL, NULL, { P_N (N_SMALL) },
    { ATOMIC ("s", SHARED, 4, "0") } },
  { "merge/tree", "merge", "Tree reduction",
    "block minimum: tree reduction, sequential addressing",
    "In each step, thread t < step combines s[t] and s[t + step]. Consecutive threads read "
    "consecutive words: no bank conflict, and whole warps retire as the step shrinks.",
    B1 (256), GRID_1D, NULL, "threadIdx.x < step",
    { P_N (N_SMALL), { "step", 128, 1, 128, "distance between the combined elements (the step the views show)", WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "threadIdx.x"), LOAD ("s", SHARED, 4, "threadIdx.x + step") }, "step", "1,2,4,8,16,32,64,128" },
  { "merge/tree-interleaved", "merge", "Tree reduction, interleaved addressing",
    "block minimum: tree reduction, interleaved addressing",
    "The older form: thread t combines s[2·step·t] and s[2·step·t + step]. The stride doubles "
    "every step, and so do the bank conflicts.",
    B1 (256), GRID_1D, NULL, "2 * step * threadIdx.x < 256",
    { P_N (N_SMALL), { "step", 1, 1, 128, "distance between the combined elements (the step the views show)", WS_PARAM_MODEL_ONLY } },
    { LOAD ("s", SHARED, 4, "2 * step * threadIdx.x"), LOAD ("s", SHARED, 4, "2 * step * threadIdx.x + step") },
    "step", "1,2,4,8,16,32,64,128" },
  { "merge/hybrid", "merge", "Warp shuffles, then one atomic per warp",
    "block minimum: warp shuffles, one atomicMin per warp",
    "Each warp reduces its values with __shfl_down_sync, and lane 0 applies one atomicMin to "
    "shared memory: 8 atomics per block instead of 256.",
    B1 (256), GRID_1D, NULL, "lane == 0", { P_N (N_SMALL) },
    { ATOMIC ("s", SHARED, 4, "0") } },
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
  g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, "no parameter “%s”", name);
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
          g_prefix_error (error, "the grid of %s, “%s”: ", preset->id, preset->grid);
          return FALSE;
        }
      if (g[i] < 1 || g[i] > G_MAXUINT32)
        {
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                       "the grid of %s, “%s”, gives %" G_GINT64_FORMAT " blocks", preset->id, preset->grid, g[i]);
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
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "“%s” is not an integer", shown);
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
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "“%s” is not A:B[:STEP]", shown);
          return NULL;
        }
      /* B - A in unsigned arithmetic: it may not fit in a signed one */
      if (step <= 0 || b < a || ((guint64) b - (guint64) a) / (guint64) step >= MAX_SWEEP_VALUES)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "“%s”: need A ≤ B, a positive step, and at most %d values", shown, MAX_SWEEP_VALUES);
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
                           "“%s”: at most %d values", shown, MAX_SWEEP_VALUES);
              return NULL;
            }
          if (!parse_int (parts[i], &v, error))
            return NULL;
          g_array_append_val (values, v);
        }
    }
  if (values->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "“%s” gives no values", shown);
      return NULL;
    }
  return g_steal_pointer (&values);
}
