/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The launches of the presets' real kernels (kernels/ws-kernels-*.cu).
 *
 * A description is phases separated by "||", then options after "::".
 * A phase is "block | grid | definitions | guard | accesses", where "-"
 * keeps what the preset's pattern (or, for later phases, the first phase)
 * has, or the accesses alone. Accesses are separated by ';', each "@k" (the
 * pattern's access k) or "array:space:kind:bytes:index" (bytes 0: the
 * parameter elem_size), and may end in "repeat EXPR" (each thread makes it
 * EXPR times, with the same addresses) and "for VAR in A..B" or
 * "for VAR in a,b,c" (one access per value, VAR replaced in the index).
 * A phase that starts "loop EXPR:" runs EXPR times in a row (a loop of the
 * kernel's around it): each of its accesses repeats EXPR times more.
 * A phase may start with "loop VAR in A..B |" (or a list): a loop of the
 * kernel's that is not unrolled, one phase per iteration, each after the
 * one before, with VAR replaced in all of the phase's fields (so that a
 * grid-stride loop reads new memory every iteration, and waits for it).
 * Options: regs=EXPR, shared=EXPR (bytes per block), alu=EXPR (arithmetic
 * warp instructions per thread... per thread), syncs=EXPR (per block),
 * chain=EXPR (arithmetic instructions on a block's path, each waiting for
 * the one before), fence_block=EXPR, fence_gpu=EXPR, fence_system=EXPR
 * (fences a thread makes one after another, each after a store), tex=EXPR
 * (texture fetches per thread: the accesses give their memory, this their
 * cost in the texture pipeline), messages=EXPR (flags that other blocks
 * store, which a block waits for one after another: its accesses give the
 * flag's load once),
 * host=pageable|pinned|mapped|streams|prefetch|managed, in=EXPR, out=EXPR
 * (bytes), streams=EXPR.
 * Expressions use the pattern's parameters and the kernel's own ones. */
#include "ws-config.h"
#include "ws-kernel-launch.h"
#include "ws-presets.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define I "i = blockIdx.x * blockDim.x + threadIdx.x"
#define OUT_I "out:global:store:4:blockIdx.x * blockDim.x + threadIdx.x"
/* the transposes: 32 × 8 threads, four rows each */
#define T_GEOM "32,8 | - | x = blockIdx.x * 32 + threadIdx.x; y = blockIdx.y * 32 + threadIdx.y | x < N && y < N | "
#define ROWS " for j in 0,8,16,24"

typedef struct
{
  const char *id;
  const char *launch;
} LaunchSpec;

static const LaunchSpec specs[] = {
  /* out[i] = in[index] */
  { "coalescing/sequential", "@0; " OUT_I },
  { "coalescing/permuted", "@0; " OUT_I },
  { "coalescing/offset", "@0; " OUT_I },
  { "coalescing/stride", "@0; " OUT_I },
  { "coalescing/broadcast", "@0; " OUT_I },
  { "coalescing/strided-sweep", "@0; " OUT_I },

  { "alignment/elem-size", "@0; out:global:store:0:i" },
  { "alignment/struct-unpadded", "@0; @1; @2; out:global:store:4:i" },
  { "alignment/struct-padded", "@0; out:global:store:4:i" },
  { "alignment/aos", "@0; out:global:store:4:i" },
  { "alignment/soa", "@0; out:global:store:4:i" },
  { "alignment/asta", "@0; out:global:store:4:i" },
  { "alignment/struct7", "@0; @1; @2; @3; @4; @5; @6; out:global:store:4:i" },
  { "alignment/struct7-padded", "@0; out:global:store:4:i" },
  { "alignment/pitch-none", "@0; out:global:store:4:y * W + x" },
  { "alignment/pitch", "@0; out:global:store:4:y * row + x" },
  /* cudaMemcpy2D of the packed rows from pinned memory, then the 2-D copy */
  { "alignment/memcpy2d", "@0; @1 :: host=pinned in=W * 4 * H" },

  { "transpose/copy", T_GEOM "in:global:load:4:(y + j) * N + x" ROWS "; out:global:store:4:(y + j) * N + x" ROWS },
  { "transpose/read-coalesced", T_GEOM "in:global:load:4:(y + j) * N + x" ROWS "; out:global:store:4:x * N + y + j" ROWS },
  { "transpose/write-coalesced", T_GEOM "in:global:load:4:x * N + y + j" ROWS "; out:global:store:4:(y + j) * N + x" ROWS },
  { "transpose/ldg", T_GEOM "in:global:load:4:x * N + y + j" ROWS "; out:global:store:4:(y + j) * N + x" ROWS },
  { "transpose/shared",
    T_GEOM "in:global:load:4:(y + j) * N + x" ROWS "; tile:shared:store:4:(threadIdx.y + j) * 32 + threadIdx.x" ROWS
    "; tile:shared:load:4:threadIdx.x * 32 + threadIdx.y + j" ROWS
    "; out:global:store:4:(blockIdx.x * 32 + threadIdx.y + j) * N + blockIdx.y * 32 + threadIdx.x" ROWS " :: syncs=1" },
  { "transpose/shared-padded",
    T_GEOM "in:global:load:4:(y + j) * N + x" ROWS "; tile:shared:store:4:(threadIdx.y + j) * 33 + threadIdx.x" ROWS
    "; tile:shared:load:4:threadIdx.x * 33 + threadIdx.y + j" ROWS
    "; out:global:store:4:(blockIdx.x * 32 + threadIdx.y + j) * N + blockIdx.y * 32 + threadIdx.x" ROWS " :: syncs=1" },

  /* shared memory filled (9216 words), then `loads` loads per thread, one store */
#define BANKS "; s:shared:store:4:threadIdx.x + 256 * k for k in 0..35; " OUT_I " :: shared=36864 syncs=1 alu=loads"
  { "banks/stride", "@0 repeat loads" BANKS },
  { "banks/broadcast", "@0 repeat loads" BANKS },
  { "banks/padding", "@0 repeat loads" BANKS },
  { "banks/elem8", "@0 repeat loads" BANKS },
  { "banks/elem16", "@0 repeat loads" BANKS },
  { "banks/swizzle", "@0 repeat loads; s:shared:store:4:threadIdx.y * 32 + threadIdx.x + 1024 * k for k in 0..8; "
                     "out:global:store:4:blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x :: shared=36864 syncs=1 alu=loads" },

  { "constant/broadcast", "@0 repeat loads; " OUT_I " :: alu=loads" },
  { "constant/distinct", "@0 repeat loads; " OUT_I " :: alu=loads" },

  { "readonly/plain", "@0; out:global:store:4:i" },
  { "readonly/ldg", "@0; out:global:store:4:i" },

  /* tex2D from a CUDA array: (2 radius + 1)² fetches a thread, each a
   * texture request of the warp's 32 texels; the two loads of the pattern
   * stand for the memory they read */
  { "readonly/stencil-texture", "@0; @1; @2; @3 :: tex=(2 * radius + 1) * (2 * radius + 1)" },

  /* The shared-memory stencil: the block's (8 + 2 radius) × (32 + 2 radius)
   * tile, each thread loading (and storing to shared memory) its element,
   * the one 32 columns right of it (threadIdx.x < 2 radius), 8 rows below it
   * (threadIdx.y < 2 radius) and both; a barrier; then (2 radius + 1)²
   * neighbours from the tile, each times its coefficient (an operand of the
   * multiply-add from the constant bank: the loops are unrolled, so no load
   * of its own), and the sum stored. */
#define STENCIL_TILE(DX, DY) "in:global:load:4:(blockIdx.y * 8 + threadIdx.y + " DY ") * (W + 2 * radius) + " \
  "blockIdx.x * 32 + threadIdx.x + " DX "; tile:shared:store:4:(threadIdx.y + " DY ") * (32 + 2 * radius) + threadIdx.x + " DX
  { "readonly/stencil-shared",
    "- | - | - | 1 | " STENCIL_TILE ("0", "0")
    " || - | - | - | threadIdx.x < 2 * radius | " STENCIL_TILE ("32", "0")
    " || - | - | - | threadIdx.y < 2 * radius | " STENCIL_TILE ("0", "8")
    " || - | - | - | threadIdx.x < 2 * radius && threadIdx.y < 2 * radius | " STENCIL_TILE ("32", "8")
    " || - | - | - | x < W && y < H | tile:shared:load:4:(threadIdx.y + k / (2 * radius + 1)) * (32 + 2 * radius) + "
    "threadIdx.x + k % (2 * radius + 1) for k in 0..(2 * radius + 1) * (2 * radius + 1) - 1; out:global:store:4:y * W + x"
    " :: syncs=1 alu=12 + (2 * radius + 1) * (2 * radius + 1)" },

  /* x = in[i]; 32 words of a private array filled, read 256 times, out[i] */
#define PRIVATE_IN "- | - | " I " | i < N | in:global:load:4:i; "
/* 256 reads of a 32-word array: 4 of its words stand for each group of 8 */
  { "private-array/static", PRIVATE_IN OUT_I " :: alu=600" },
  { "private-array/uniform-local",
    PRIVATE_IN "a:local:store:4:k for k in 0..31; a:local:load:4:(blockIdx.x % 32 + k) % 32 repeat 64 for k in 0,8,16,24; "
    OUT_I " :: alu=1350" },
  { "private-array/nonuniform-local",
    PRIVATE_IN "a:local:store:4:k for k in 0..31; a:local:load:4:(threadIdx.x % 32 + k) % 32 repeat 64 for k in 0,8,16,24; "
    OUT_I " :: alu=1350" },
  { "private-array/nonuniform-shared",
    PRIVATE_IN "a:shared:store:4:k * 256 + threadIdx.x for k in 0..31; "
    "a:shared:load:4:(threadIdx.x % 32 + k) % 32 * 256 + threadIdx.x repeat 64 for k in 0,8,16,24; " OUT_I " :: alu=1350" },
  /* a base of its own per lane and round: the pattern's draw stands for
   * them all (20 of the 32 lanes' words differ); 7 instructions of hash a
   * round, on the integer pipe */
  { "private-array/random",
    PRIVATE_IN "a:local:store:4:k for k in 0..31; "
    "a:local:load:4:((lane ^ (lane >> 2) * 13) + k) % 32 repeat 64 for k in 0,8,16,24; "
    OUT_I " :: alu=1350 + 8 * 2 * 7" },
  { "private-array/distinct",
    PRIVATE_IN "a:local:store:4:k for k in 0..31; "
    "a:local:load:4:(threadIdx.x % 32 % distinct + k) % 32 repeat 64 for k in 0,8,16,24; " OUT_I " :: alu=1350" },
  /* a[size] in registers (nvcc unrolls the loops up to 160 words; the
   * registers it allocates for each size): per word, a hash of 7 integer
   * instructions and 2 multiplies, and 8 rounds of an xor and half an
   * IADD3; integer instructions issue at half the rate, so count twice */
#define SIZE_REGS "(size <= 4 ? 16 : size <= 8 ? 22 : size <= 16 ? 29 : size <= 32 ? 42 : size <= 64 ? 74 : " \
  "size <= 96 ? 110 : size <= 128 ? 142 : size <= 160 ? 174 : size <= 192 ? 205 : 255)"
  { "private-array/size", "- | - | " I " | i < N | in:global:load:4:i; " OUT_I
    " :: regs=" SIZE_REGS " alu=2 * size * (7 + 8 * 3 / 2)" },
  /* 16 words, read 256 times at (threadIdx.x + r) % 16 */
  { "private-array/l1-carveout",
    PRIVATE_IN "a:local:store:4:k for k in 0..15; "
    "a:local:load:4:(threadIdx.x % 16 + k) % 16 repeat 64 for k in 0,4,8,12; " OUT_I " :: alu=1350 - 16 * 14" },
  { "private-array/local-wide",
    PRIVATE_IN "a:local:store:8:k for k in 0..15; a:local:load:8:(blockIdx.x % 16 + k) % 16 repeat 64 for k in 0,4,8,12; "
    OUT_I " :: alu=2000" },

  /* ws-kernels-ilp.cu: thread i of T sums 16-byte elements i, i + T, … in
   * a loop that is not unrolled (a phase per iteration: each waits for the
   * load before), `ilp` (or `unroll`) loads an iteration, then out[i] */
#define STREAM(T, U) "loop it in 0..(N - 1) / ((" T ") * " U ") | - | - | - | i + it * " U " * (" T ") < N | " \
  "in:global:load:16:i + (it * " U " + u) * (" T ") for u in 0.." U " - 1 || - | - | - | 1 | out:global:store:4:i"
#define REG_BLOCKS "(registers <= 32 ? 8 : registers <= 40 ? 6 : registers <= 48 ? 5 : registers <= 64 ? 4 : " \
  "registers <= 80 ? 3 : registers <= 128 ? 2 : 1)"
#define SHARED_BLOCKS "(233472 / ((shared + 1151) / 128 * 128) < 8 ? 233472 / ((shared + 1151) / 128 * 128) : 8)"
/* the values the hold kernel keeps for the budget `registers` rounds up to */
#define HELD "(registers <= 32 ? 8 : registers <= 40 ? 20 : registers <= 48 ? 28 : registers <= 64 ? 44 : " \
  "registers <= 80 ? 60 : registers <= 128 ? 100 : 200)"
  /* the held values: volatile loads, one after another, of word
   * k * 256 + threadIdx.x of the input, then the stream, then two
   * instructions each */
  { "occupancy/registers", "loop k in 0.." HELD " - 1 | - | - | - | - | table:global:load:4:k * 256 + threadIdx.x || "
    STREAM ("132 * " REG_BLOCKS " * 256", "1") " :: regs=registers alu=2 * " HELD },
  { "occupancy/shared", STREAM ("132 * " SHARED_BLOCKS " * 256", "1") " :: shared=shared" },
  { "occupancy/saturation", STREAM ("132 * (warps / 4) * 128", "1") },
  { "ilp/loads", STREAM ("132 * (warps / 4) * 128", "ilp") },
  /* the compiler unrolls the plain loop: `unroll` loads hoisted together */
  { "ilp/unroll", STREAM ("132 * (warps / 4) * 128", "unroll") },
  /* about 88 of the 192 values spilled (L2 takes 348 bytes of stores per
   * thread), as 16-byte slots */
  { "occupancy/spill", PRIVATE_IN "spill:local:store:16:k for k in 0..21; spill:local:load:16:k for k in 0..21; "
    OUT_I " :: regs=32 alu=10 * 192" },

  { "atomics/one-address", "in:global:load:4:blockIdx.x * blockDim.x + threadIdx.x; @0" },
  { "atomics/distinct", "in:global:load:4:i; @0" },
  { "atomics/histogram", "@0" },
  { "atomics/shared", "- | - | - | threadIdx.x < bins | hist:shared:store:4:threadIdx.x"
                      " || - | - | - | - | @0 || - | - | - | threadIdx.x < bins | out:global:atomic:4:threadIdx.x :: syncs=2" },
  { "atomics/warp-aggregated", "- | - | " I " | i < N | in:global:load:4:i || - | - | - | lane == 0 | @0 :: alu=10" },
  { "atomics/cas-loop", "in:global:load:4:blockIdx.x * blockDim.x + threadIdx.x; @0 :: alu=8" },

  /* The last-block reduction: 4 loads and a partial sum stored per thread
   * (then __threadfence () with the fence), a barrier, thread 0's ticket
   * (atomicInc on the problem's word), a barrier; the last of each 16
   * blocks (here the 16th) reads the 16 partial sums of each thread at L2,
   * sums the block (shuffles, one word per warp in shared memory, a
   * barrier) and thread 0 stores the result. */
#define LAST_BLOCK "- | - | - | 1 | in:global:load:4:blockIdx.x * 1024 + u * 256 + threadIdx.x for u in 0..3; " \
  "partial:global:store:4:blockIdx.x * 256 + threadIdx.x" \
  " || - | - | - | threadIdx.x == 0 | tickets:global:atomic:4:blockIdx.x / 16" \
  " || - | - | - | blockIdx.x % 16 == 15 | partial:global:load:4:(blockIdx.x / 16 * 16 + b) * 256 + threadIdx.x for b in 0..15" \
  " || - | - | - | blockIdx.x % 16 == 15 && threadIdx.x % 32 == 0 | warp_sums:shared:store:4:threadIdx.x / 32" \
  " || - | - | - | blockIdx.x % 16 == 15 && threadIdx.x == 0 | result:global:store:4:blockIdx.x / 16" \
  " :: syncs=2 + 1 / 16 alu=12"
  { "fences/last-block", LAST_BLOCK },
  /* a fence after the stores (and one more in the last block) */
  { "fences/last-block-fence", LAST_BLOCK " fence_gpu=1" },

  /* Message passing: the even block of a pair stores 256 words (8 a lane)
   * and lane 0 the flag; lane 0 of the odd one reads the flag until it is
   * set (a volatile one: again and again; a plain one: once), then the
   * block copies the 256 words out and lane 0 stores its status. With
   * fences, one after the data and one after the flag. The plain flag is
   * read once, and the consumer goes on at once (and times out); a
   * volatile one holds the consumer until the producer's flag reaches it
   * (messages=1). */
#define SPIN "- | - | - | blockIdx.x % 2 == 0 | data:global:store:4:blockIdx.x / 2 * 256 + lane + 32 * k for k in 0..7" \
  " || - | - | - | blockIdx.x % 2 == 0 && lane == 0 | flags:global:store:4:blockIdx.x / 2" \
  " || - | - | - | blockIdx.x % 2 == 1 && lane == 0 | flags:global:load:4:blockIdx.x / 2" \
  " || - | - | - | blockIdx.x % 2 == 1 | data:global:load:4:blockIdx.x / 2 * 256 + lane + 32 * k for k in 0..7; " \
  "out:global:store:4:blockIdx.x / 2 * 256 + lane + 32 * k for k in 0..7" \
  " || - | - | - | blockIdx.x % 2 == 1 && lane == 0 | status:global:store:4:blockIdx.x / 2 :: alu=24"
  { "fences/spin-plain", SPIN },
  { "fences/spin-volatile", SPIN " messages=1" },
  { "fences/spin-fence", SPIN " fence_gpu=2 messages=1" },

  /* rounds volatile stores to the thread's own word, each followed by the
   * fence: 1 the block's, 2 the GPU's, 3 a barrier, 4 the system's */
  { "fences/cost", "@0 repeat rounds :: syncs=(fence == 3 ? rounds : 0) alu=4 * rounds "
                   "fence_block=(fence == 1 ? rounds : 0) fence_gpu=(fence == 2 ? rounds : 0) "
                   "fence_system=(fence == 4 ? rounds : 0)" },

  { "l2/persisting", "@0; @1; out:global:store:4:i" },
  { "l2/streaming", "@0; @1; out:global:store:4:i" },
  { "l2/hot-size", "@0; @1; out:global:store:4:i" },

  /* a copy to the device, then out[i] = in[i] * 3 + 1 */
  { "transfer/pageable", "@0; out:global:store:4:i :: host=pageable in=N * 4" },
  { "transfer/pinned", "@0; out:global:store:4:i :: host=pinned in=N * 4" },
  { "transfer/mapped", "@0; out:global:store:4:i :: host=mapped in=N * 4" },
  { "transfer/streams", "@0; out:global:store:4:i :: host=streams in=N * 4 out=N * 4 streams=streams" },
  /* the same with `work` rounds of a hash per element: a shift, an xor
   * and a multiply-add each */
  { "transfer/overlap", "@0; @1 :: host=streams in=N * 4 out=N * 4 streams=streams alu=3 * work" },

  /* out[i] = in[i] * 3 + 1, the input written by the host just before */
  { "unified/explicit", "@0; @1 :: host=pageable in=N * 4" },
  { "unified/managed", "@0; @1 :: host=managed in=N * 4" },
  { "unified/prefetch", "@0; @1 :: host=prefetch in=N * 4" },
  /* the device's read-only copy outlives the host's reads */
  { "unified/read-mostly", "@0; @1" },
  { "unified/preferred-host", "@0; @1 :: host=mapped in=N * 4" },
  { "unified/managed-variable", "@0; @1 :: host=managed in=N * 4" },
  { "unified/mapped-uva", "@0; @1 :: host=mapped in=N * 4" },

  /* v = in[i], then the block's merge, then out[blockIdx.x] */
#define MERGE_IN "- | - | " I " | i < N | in:global:load:4:i; s:shared:store:4:threadIdx.x"
#define MERGE_OUT " || - | - | - | threadIdx.x == 0 | out:global:store:4:blockIdx.x"
  /* the compiler reads s[1 … 255] 16 bytes at a time */
  { "merge/one-thread", MERGE_IN " || - | - | - | threadIdx.x == 0 | s:shared:load:16:0 repeat 64" MERGE_OUT
                        " :: syncs=1 alu=2" },
  { "merge/atomicmin", "- | - | " I " | i < N | in:global:load:4:i || - | - | - | 1 | @0" MERGE_OUT " :: syncs=2" },
  { "merge/tree", MERGE_IN " || - | - | - | threadIdx.x < 128 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 128"
                  " || - | - | - | threadIdx.x < 64 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 64"
                  " || - | - | - | threadIdx.x < 32 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 32"
                  " || - | - | - | threadIdx.x < 16 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 16"
                  " || - | - | - | threadIdx.x < 8 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 8"
                  " || - | - | - | threadIdx.x < 4 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 4"
                  " || - | - | - | threadIdx.x < 2 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 2"
                  " || - | - | - | threadIdx.x < 1 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 1"
                  MERGE_OUT " :: syncs=9" },
  { "merge/tree-interleaved",
    MERGE_IN " || - | - | - | 2 * threadIdx.x < 256 | s:shared:load:4:2 * threadIdx.x; s:shared:load:4:2 * threadIdx.x + 1"
    " || - | - | - | 4 * threadIdx.x < 256 | s:shared:load:4:4 * threadIdx.x; s:shared:load:4:4 * threadIdx.x + 2"
    " || - | - | - | 8 * threadIdx.x < 256 | s:shared:load:4:8 * threadIdx.x; s:shared:load:4:8 * threadIdx.x + 4"
    " || - | - | - | 16 * threadIdx.x < 256 | s:shared:load:4:16 * threadIdx.x; s:shared:load:4:16 * threadIdx.x + 8"
    " || - | - | - | 32 * threadIdx.x < 256 | s:shared:load:4:32 * threadIdx.x; s:shared:load:4:32 * threadIdx.x + 16"
    " || - | - | - | 64 * threadIdx.x < 256 | s:shared:load:4:64 * threadIdx.x; s:shared:load:4:64 * threadIdx.x + 32"
    " || - | - | - | 128 * threadIdx.x < 256 | s:shared:load:4:128 * threadIdx.x; s:shared:load:4:128 * threadIdx.x + 64"
    " || - | - | - | threadIdx.x < 1 | s:shared:load:4:threadIdx.x; s:shared:load:4:threadIdx.x + 128"
    MERGE_OUT " :: syncs=9" },
  { "merge/hybrid", "- | - | " I " | i < N | in:global:load:4:i || - | - | - | lane == 0 | @0" MERGE_OUT " :: syncs=2 alu=10" },

  /* The block-wide merge sort: thread t loads its 4 values (4 loads, 16
   * bytes apart), sorts them (5 compare-exchanges) and leaves them in keys;
   * then 1024 times the block finds the smallest head, thread 0 writes it to
   * sorted, and the one thread whose head it was reads its next key; last,
   * the block copies sorted out.
   * The sorts issue about 80 % of the cycles (ncu's smsp__issue_active on
   * the H200): the instructions besides the accesses (alu=) are what ncu's
   * smsp__inst_executed counts on the H200 (CUDA 13.0, sm_90), less the
   * accesses the description lists; the hybrid's follow its SASS, a loop
   * over the group unrolled by 16, 8 and 4, then the rest one by one. */
#define SORT_IN "- | - | - | 1 | in:global:load:4:blockIdx.x * 1024 + threadIdx.x * 4 + u for u in 0..3; " \
  "keys:shared:store:4:u * 256 + threadIdx.x for u in 0..3"
#define SORT_STEP " || loop 1024: - | - | - | threadIdx.x == 0 | sorted:shared:store:4:0; keys:shared:load:4:256 + threadIdx.x"
#define SORT_OUT " || - | - | - | 1 | sorted:shared:load:4:threadIdx.x + 256 * u for u in 0..3; " \
  "out:global:store:4:blockIdx.x * 1024 + threadIdx.x + 256 * u for u in 0..3"
/* the hybrid's leader, a step: 19 instructions, then for group >= 2 the
 * loop's 6 and 5 for each of the last (group - 1) % 4 up to 2; beyond 3
 * more, 11, then 29 an unrolled 16, 16 an unrolled 8 and 11 an unrolled 4 */
#define HY_M "(group - 1 - (group - 1) % 4)"
#define HY_K "(" HY_M " > 12 ? (" HY_M " - 13) / 16 + 1 : 0)"
#define HY_REST "(" HY_M " - 16 * " HY_K ")"
#define HY_LEADER "(19 + (group >= 2 ? 6 + ((group - 1) % 4 >= 1 ? 5 : 0) + ((group - 1) % 4 >= 2 ? 5 : 0) + " \
  "(group - 1 >= 4 ? 11 + 29 * " HY_K " + (" HY_REST " > 4 ? 16 : 0) + 11 * ((" HY_REST " - (" HY_REST " > 4 ? 8 : 0)) / 4) : 0) : 0))"
  /* heads[t] = head; barrier; thread 0 reads the 256 heads (the compiler:
   * 64 16-byte loads) and takes their minimum, 128 three-way minima
   * (VIMNMX3) each of the one before, stores smin; barrier; all read it */
  { "merge/sort-one-thread",
    SORT_IN " || loop 1024: - | - | - | 1 | heads:shared:store:4:threadIdx.x; smin:shared:load:4:0"
    " || loop 1024: - | - | - | threadIdx.x == 0 | heads:shared:load:16:4 * k for k in 0..63"
    " || loop 1024: - | - | - | threadIdx.x == 0 | smin:shared:store:4:0"
    SORT_STEP SORT_OUT " :: shared=10252 syncs=2 + 1024 * 2 alu=44410 chain=1024 * 128" },
  /* atomicMin (&smin[s % 3], head) by every thread (the compiler: a warp's
   * minimum, then one atomic a warp); barrier; all read it; thread 0 resets
   * the word of two steps on */
  { "merge/sort-atomicmin",
    SORT_IN " || loop 1024: - | - | - | 1 | smin:shared:atomic:4:0 || loop 1024: - | - | - | 1 | smin:shared:load:4:0"
    " || loop 1024: - | - | - | threadIdx.x == 0 | smin:shared:store:4:1"
    SORT_STEP SORT_OUT " :: shared=8204 syncs=2 + 1024 alu=25405" },
  /* h[t] = head; barrier; 8 levels of h[t] = min (h[t], h[t + d]) for t < d,
   * a barrier each (a minimum each on the block's path); all read h[0] */
#define SORT_LEVEL(d) " || loop 1024: - | - | - | threadIdx.x < " #d " | heads:shared:load:4:threadIdx.x; " \
  "heads:shared:load:4:threadIdx.x + " #d "; heads:shared:store:4:threadIdx.x"
  { "merge/sort-tree",
    SORT_IN " || loop 1024: - | - | - | 1 | heads:shared:store:4:threadIdx.x; heads:shared:load:4:0"
    SORT_LEVEL (128) SORT_LEVEL (64) SORT_LEVEL (32) SORT_LEVEL (16) SORT_LEVEL (8) SORT_LEVEL (4) SORT_LEVEL (2)
    SORT_LEVEL (1) SORT_STEP SORT_OUT " :: shared=10240 syncs=2 + 1024 * 9 alu=65914 chain=1024 * 8" },
  /* heads[t] = head; barrier; the first of each group reads the group's
   * other heads (the loop unrolled: the loads together, then three-way
   * minima, each of the one before) and applies atomicMin (the compiler: the
   * warp's minimum, then one atomic a warp);
   * barrier; all read the word; thread 0 resets the word of two steps on */
  { "merge/sort-hybrid",
    SORT_IN " || loop 1024: - | - | - | 1 | heads:shared:store:4:threadIdx.x; smin:shared:load:4:0"
    " || loop 1024: - | - | - | threadIdx.x % group == 0 | heads:shared:load:4:threadIdx.x + 1 repeat group - 1; "
    "smin:shared:atomic:4:0"
    " || loop 1024: - | - | - | threadIdx.x == 0 | smin:shared:store:4:1"
    SORT_STEP SORT_OUT " :: shared=10252 syncs=2 + 1024 * 2 alu=1024 * (33 + " HY_LEADER " - group) - 200 "
    "chain=1024 * (group - 1) / 2" },
};

const char *
ws_kernel_launch_describe (const char *preset)
{
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    if (g_strcmp0 (specs[i].id, preset) == 0)
      return specs[i].launch;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Building                                                           */
/* ------------------------------------------------------------------ */

static void
phase_free (gpointer data)
{
  WsLaunchPhase *ph = data;

  g_clear_pointer (&ph->pattern, ws_pattern_unref);
  g_free (ph->repeat);
  g_free (ph);
}

void
ws_kernel_launch_free (WsKernelLaunch *launch)
{
  if (launch == NULL)
    return;
  g_free (launch->preset);
  g_clear_pointer (&launch->phases, g_ptr_array_unref);
  g_free (launch);
}

static WsKernelLaunch *
launch_new (const char *preset)
{
  WsKernelLaunch *l = g_new0 (WsKernelLaunch, 1);

  l->preset = g_strdup (preset);
  l->phases = g_ptr_array_new_with_free_func (phase_free);
  return l;
}

WsKernelLaunch *
ws_kernel_launch_of_pattern (const WsPattern *pattern)
{
  WsKernelLaunch *l = launch_new (NULL);
  WsLaunchPhase *ph = g_new0 (WsLaunchPhase, 1);

  g_return_val_if_fail (pattern != NULL, NULL);

  ph->pattern = ws_pattern_ref ((WsPattern *) pattern);
  ph->repeat = g_new0 (guint64, MAX (ws_pattern_get_n_accesses (pattern), 1));
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    ph->repeat[i] = 1;
  g_ptr_array_add (l->phases, ph);
  return l;
}

/* Parameters: the pattern's, then the kernel's own at their defaults. */
typedef struct
{
  const WsPattern *pattern;
  const WsPreset *preset;
} Params;

static gboolean
lookup (const char *name,
        gpointer    data,
        gint64     *value,
        GError    **error)
{
  const Params *p = data;
  const WsPresetParam *pp;

  if (ws_pattern_get_param (p->pattern, name, value))
    return TRUE;
  if (p->preset && (pp = ws_preset_get_param (p->preset, name)))
    {
      *value = pp->value;
      return TRUE;
    }
  g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, _("no parameter “%s”"), name);
  return FALSE;
}

static gboolean
eval (const Params *p,
      const char   *text,
      gint64       *value,
      GError      **error)
{
  g_autoptr (WsExpr) e = ws_expr_parse (text, NULL, error);
  WsEvalEnv env = { .lookup = lookup, .lookup_data = (gpointer) p };

  return e != NULL && ws_expr_eval (e, &env, value, error);
}

static gboolean
inherit (const char *field)
{
  const char *s = field;

  while (*s == ' ')
    s++;
  return *s == '\0' || (s[0] == '-' && (s[1] == '\0' || s[1] == ' '));
}

/* Copies a pattern's parameters (and the kernel's own, so that indices may
 * use them) into a new phase pattern. */
static gboolean
copy_params (WsPattern    *to,
             const Params *p,
             GError      **error)
{
  const WsPattern *from = p->pattern;

  for (guint i = 0; i < ws_pattern_get_n_params (from); i++)
    {
      const WsParam *pp = ws_pattern_get_param_nth (from, i);

      if (!ws_pattern_set_param (to, pp->name, pp->value, error))
        return FALSE;
      ws_pattern_set_param_range (to, pp->name, pp->min, pp->max, pp->description);
    }
  for (guint i = 0; p->preset && i < WS_PRESET_MAX_PARAMS && p->preset->params[i].name; i++)
    {
      const WsPresetParam *pp = &p->preset->params[i];

      if (pp->use == WS_PARAM_KERNEL_ONLY && !ws_pattern_get_param (to, pp->name, NULL) &&
          !ws_pattern_set_param (to, pp->name, pp->value, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
set_grid (WsPattern    *to,
          const char   *text,
          const Params *p,
          GError      **error)
{
  g_auto (GStrv) dims = g_strsplit (text, ",", 3);
  gint64 g[3] = { 1, 1, 1 };

  for (guint i = 0; dims[i]; i++)
    if (!eval (p, dims[i], &g[i], error))
      return FALSE;
  for (guint i = 0; i < 3; i++)
    if (g[i] < 1 || g[i] > G_MAXUINT32)
      {
        /* Translators: the real kernel's grid, as an expression of the
         * pattern's parameters, then what it gave with their values */
        g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("the grid “%s” gives %lld blocks"),
                     text, (long long) g[i]);
        return FALSE;
      }
  return ws_pattern_set_grid (to, WS_DIM3 ((guint) g[0], (guint) g[1], (guint) g[2]), error);
}

static gboolean
parse_block (const char *text,
             WsDim3     *out)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", 3);
  guint64 v[3] = { 1, 1, 1 };

  for (guint i = 0; parts[i]; i++)
    if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, 1024, &v[i], NULL))
      return FALSE;
  *out = WS_DIM3 ((guint) v[0], (guint) v[1], (guint) v[2]);
  return TRUE;
}

/* The values of "for VAR in A..B" or "for VAR in a,b,c". */
static GArray *
loop_values (const char   *list,
             const Params *p,
             GError      **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  const char *dots = strstr (list, "..");

  if (dots)
    {
      g_autofree char *first = g_strndup (list, dots - list);
      gint64 a, b;

      if (!eval (p, first, &a, error) || !eval (p, dots + 2, &b, error))
        return NULL;
      for (gint64 v = a; v <= b && values->len < 4096; v++)
        g_array_append_val (values, v);
    }
  else
    {
      g_auto (GStrv) items = g_strsplit (list, ",", -1);

      for (guint i = 0; items[i]; i++)
        {
          gint64 v;

          if (!eval (p, items[i], &v, error))
            return NULL;
          g_array_append_val (values, v);
        }
    }
  return g_steal_pointer (&values);
}

static char *
substitute (const char *index,
            const char *var,
            gint64      value)
{
  g_autofree char *pattern = g_strdup_printf ("\\b%s\\b", var);
  g_autofree char *text = g_strdup_printf ("(%" G_GINT64_FORMAT ")", value);
  g_autoptr (GRegex) re = g_regex_new (pattern, 0, 0, NULL);

  return g_regex_replace_literal (re, index, -1, 0, text, 0, NULL);
}

static gboolean
add_one (WsPattern    *to,
         GArray       *repeat,
         const char   *array,
         WsSpace       space,
         WsAccessKind  kind,
         guint         elem,
         const char   *index,
         gint64        base,
         gboolean      bind_elem,
         guint64       times,
         GError      **error)
{
  guint i = ws_pattern_get_n_accesses (to);

  if (!ws_pattern_add_access (to, array, space, kind, elem ? elem : 4, index, base, error) ||
      (bind_elem && !ws_pattern_bind_elem_size (to, i, error)))
    return FALSE;
  g_array_append_val (repeat, times);
  return TRUE;
}

/* One access of a description, expanded. */
static gboolean
add_access (WsPattern       *to,
            GArray          *repeat,
            const char      *text,
            const WsPattern *pattern,
            const Params    *p,
            GError         **error)
{
  g_autofree char *body = g_strstrip (g_strdup (text));
  char *for_at = strstr (body, " for ");
  char *repeat_at;
  g_autofree char *var = NULL;
  g_autoptr (GArray) values = NULL;
  gint64 times = 1;
  const WsAccess *src = NULL;
  g_auto (GStrv) f = NULL;
  WsSpace space;
  WsAccessKind kind;
  guint elem;
  const char *index, *array;
  gint64 base = 0;
  gboolean bind;

  if (for_at)
    {
      g_auto (GStrv) words = g_strsplit (g_strstrip (for_at + 5), " in ", 2);

      if (g_strv_length (words) != 2)
        goto bad;
      var = g_strdup (g_strstrip (words[0]));
      if ((values = loop_values (words[1], p, error)) == NULL)
        return FALSE;
      *for_at = '\0';
    }
  if ((repeat_at = strstr (body, " repeat ")))
    {
      if (!eval (p, repeat_at + 8, &times, error))
        return FALSE;
      *repeat_at = '\0';
      times = MAX (times, 1);
    }
  g_strstrip (body);
  if (body[0] == '@')
    {
      guint64 k;

      if (!g_ascii_string_to_unsigned (body + 1, 10, 0, G_MAXUINT, &k, NULL) || k >= ws_pattern_get_n_accesses (pattern))
        goto bad;
      src = ws_pattern_get_access (pattern, (guint) k);
      array = src->array;
      space = src->space;
      kind = src->kind;
      elem = src->elem_size;
      index = src->index_text;
      base = src->base;
      bind = src->elem_from_param;
    }
  else
    {
      f = g_strsplit (body, ":", 5);
      if (g_strv_length (f) != 5 || !ws_space_from_string (f[1], &space) || !ws_access_kind_from_string (f[2], &kind))
        goto bad;
      array = f[0];
      elem = (guint) g_ascii_strtoull (f[3], NULL, 10);
      bind = elem == 0;
      index = f[4];
    }
  if (values == NULL)
    return add_one (to, repeat, array, space, kind, elem, index, base, bind, times, error);
  for (guint v = 0; v < values->len; v++)
    {
      g_autofree char *each = substitute (index, var, g_array_index (values, gint64, v));

      if (!add_one (to, repeat, array, space, kind, elem, each, base, bind, times, error))
        return FALSE;
    }
  return TRUE;

bad:
  /* English: these errors are about the program's own launch tables, for its developers */
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, "cannot read the access “%s”", text);
  return FALSE;
}

/* One phase: block | grid | definitions | guard | accesses (or the accesses
 * alone), "-" keeping what first (the first phase, or the pattern) has. */
static WsLaunchPhase *
build_phase (const char      *text,
             const WsPattern *first,
             const WsPattern *pattern,
             const Params    *p,
             GError         **error)
{
  g_auto (GStrv) f = NULL;
  g_autoptr (WsPattern) to = ws_pattern_new ();
  g_autoptr (GArray) repeat = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_auto (GStrv) accesses = NULL;
  guint n;
  const char *block, *grid, *defs, *guard;
  WsLaunchPhase *ph;
  gint64 loop = 1;
  WsDim3 b;

  /* "loop EXPR: …": the block runs the phase EXPR times in a row */
  text += strspn (text, " ");
  if (g_str_has_prefix (text, "loop "))
    {
      const char *colon = strchr (text, ':');
      g_autofree char *count = colon ? g_strndup (text + 5, colon - text - 5) : NULL;

      if (count == NULL)
        {
          /* English: about the program's own launch tables, for its developers */
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, "a loop without its ':': “%s”", text);
          return NULL;
        }
      if (!eval (p, count, &loop, error))
        return NULL;
      loop = MAX (loop, 1);
      text = colon + 1;
    }
  f = g_strsplit (text, "|", 5);
  n = g_strv_length (f);
  block = n == 5 ? f[0] : "-";
  grid = n == 5 ? f[1] : "-";
  defs = n == 5 ? f[2] : "-";
  guard = n == 5 ? f[3] : "-";

  if (n != 5 && n != 1)
    {
      /* English: about the program's own launch tables, for its developers */
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, "a phase has 5 fields or the accesses alone: “%s”", text);
      return NULL;
    }
  if (!copy_params (to, p, error))
    return NULL;
  if (inherit (block))
    b = ws_pattern_get_block (first);
  else if (!parse_block (block, &b))
    {
      /* English: about the program's own launch tables, for its developers */
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, "bad block “%s”", block);
      return NULL;
    }
  if (!ws_pattern_set_block (to, b, error))
    return NULL;
  if (inherit (grid))
    {
      if (!ws_pattern_set_grid (to, ws_pattern_get_grid (first), error))
        return NULL;
    }
  else if (!set_grid (to, grid, p, error))
    return NULL;
  if (inherit (defs))
    {
      for (guint i = 0; i < ws_pattern_get_n_definitions (first); i++)
        {
          const WsDefinition *d = ws_pattern_get_definition (first, i);
          if (!ws_pattern_add_definition (to, d->name, d->text, error))
            return NULL;
        }
    }
  else
    {
      g_auto (GStrv) list = g_strsplit (defs, ";", -1);

      for (guint i = 0; list[i]; i++)
        {
          g_auto (GStrv) kv = g_strsplit (list[i], "=", 2);

          if (g_strv_length (kv) != 2 || !ws_pattern_add_definition (to, g_strstrip (kv[0]), g_strstrip (kv[1]), error))
            return NULL;
        }
    }
  if (!ws_pattern_set_guard (to, inherit (guard) ? ws_pattern_get_guard_text (first) : g_strstrip (f[3]), error))
    return NULL;
  accesses = g_strsplit (f[n - 1], ";", -1);
  for (guint i = 0; accesses[i]; i++)
    if (*g_strstrip (accesses[i]) && !add_access (to, repeat, accesses[i], pattern, p, error))
      return NULL;
  for (guint i = 0; i < repeat->len; i++)
    g_array_index (repeat, guint64, i) *= (guint64) loop;
  ph = g_new0 (WsLaunchPhase, 1);
  ph->pattern = g_steal_pointer (&to);
  ph->repeat = (guint64 *) g_array_free (g_steal_pointer (&repeat), FALSE);
  ph->times = (guint64) loop;
  return ph;
}

static gboolean
apply_option (WsKernelLaunch *l,
              const char     *item,
              const Params   *p,
              GError        **error)
{
  g_auto (GStrv) kv = g_strsplit (item, "=", 2);
  gint64 v = 0;

  if (g_strv_length (kv) != 2)
    goto bad;
  if (g_str_equal (kv[0], "host"))
    {
      static const char *names[] = { "none", "pageable", "pinned", "mapped", "streams", "prefetch", "managed" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_str_equal (kv[1], names[i]))
          {
            l->host = i;
            return TRUE;
          }
      goto bad;
    }
  if (!eval (p, kv[1], &v, error))
    return FALSE;
  if (v < 0)
    goto bad;
  if (g_str_equal (kv[0], "regs"))
    l->registers = (guint) MIN (v, 255);
  else if (g_str_equal (kv[0], "shared"))
    l->shared_bytes = (guint64) v;
  else if (g_str_equal (kv[0], "alu"))
    l->alu = (double) v;
  else if (g_str_equal (kv[0], "syncs"))
    l->syncs = (double) v;
  else if (g_str_equal (kv[0], "chain"))
    l->chain = (double) v;
  else if (g_str_equal (kv[0], "tex"))
    l->tex = (double) v;
  else if (g_str_equal (kv[0], "messages"))
    l->messages = (double) v;
  else if (g_str_equal (kv[0], "fence_block"))
    l->fences[WS_FENCE_BLOCK_SCOPE] = (double) v;
  else if (g_str_equal (kv[0], "fence_gpu"))
    l->fences[WS_FENCE_GPU_SCOPE] = (double) v;
  else if (g_str_equal (kv[0], "fence_system"))
    l->fences[WS_FENCE_SYSTEM_SCOPE] = (double) v;
  else if (g_str_equal (kv[0], "in"))
    l->host_in = (guint64) v;
  else if (g_str_equal (kv[0], "out"))
    l->host_out = (guint64) v;
  else if (g_str_equal (kv[0], "streams"))
    l->streams = (guint) MAX (v, 1);
  else
    goto bad;
  return TRUE;

bad:
  /* a description's own mistake, or a value the parameters made negative */
  /* Translators: an option of the real kernel's launch, such as “alu=12 * N” */
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("bad option “%s”"), item);
  return FALSE;
}

/* "name=…", not "<=" or "==" */
static gboolean
starts_option (const char *word)
{
  const char *p = word;

  while (g_ascii_isalpha (*p) || *p == '_')
    p++;
  return p > word && p[0] == '=' && p[1] != '=';
}

/* A phase, or a loop of them: "loop VAR in LIST | phase" runs the phase
 * once per value of VAR, one iteration after another (each waits for the
 * loads of the one before), VAR replaced in its fields. */
static gboolean
add_phases (WsKernelLaunch  *l,
            const char      *text,
            const WsPattern *pattern,
            const Params    *p,
            GError         **error)
{
  const char *s = text;
  const char *bar;
  g_autofree char *head = NULL;
  g_auto (GStrv) words = NULL;
  g_autoptr (GArray) values = NULL;

  while (*s == ' ')
    s++;
  bar = strchr (s, '|');
  /* "loop EXPR: phase" (the same phase EXPR times) is build_phase's */
  if (!g_str_has_prefix (s, "loop ") || bar == NULL || !g_strstr_len (s, bar - s, " in "))
    {
      const WsPattern *first = l->phases->len ? ((WsLaunchPhase *) l->phases->pdata[0])->pattern : pattern;
      WsLaunchPhase *ph = build_phase (text, first, pattern, p, error);

      if (ph == NULL)
        return FALSE;
      g_ptr_array_add (l->phases, ph);
      return TRUE;
    }
  head = g_strndup (s + 5, bar - s - 5);
  words = g_strsplit (head, " in ", 2);
  if (g_strv_length (words) != 2 || !*g_strstrip (words[0]) || strchr (words[0], ' '))
    goto bad;
  if ((values = loop_values (words[1], p, error)) == NULL)
    return FALSE;
  if (values->len == 0)
    goto bad;
  for (guint v = 0; v < values->len; v++)
    {
      g_autofree char *each = substitute (bar + 1, words[0], g_array_index (values, gint64, v));
      guint before = l->phases->len;

      if (!add_phases (l, each, pattern, p, error))
        return FALSE;
      if (v > 0 && l->phases->len > before)
        ((WsLaunchPhase *) l->phases->pdata[before])->waits = TRUE;
    }
  return TRUE;

bad:
  /* a description's own mistake, or a range the parameters left empty */
  /* Translators: a loop of the real kernel's launch, such as “loop k in 0..N - 1 | …” */
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("cannot read the loop “%s”"), text);
  return FALSE;
}

WsKernelLaunch *
ws_kernel_launch_new (const char      *preset,
                      const WsPattern *pattern,
                      GError         **error)
{
  const char *spec = ws_kernel_launch_describe (preset);
  g_autoptr (WsKernelLaunch) l = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) phases = NULL;
  char *options;
  Params p = { pattern, ws_preset_lookup (preset) };

  g_return_val_if_fail (preset != NULL && pattern != NULL, NULL);

  if (spec == NULL)
    return ws_kernel_launch_of_pattern (pattern);
  l = launch_new (preset);
  text = g_strdup (spec);
  if ((options = strstr (text, " :: ")))
    {
      g_auto (GStrv) items = g_strsplit (options + 4, " ", -1);

      *options = '\0';
      for (guint i = 0; items[i]; i++)
        {
          /* "alu=6 * (…)": an option runs to the next word with '=' */
          GString *item = g_string_new (items[i]);

          while (items[i + 1] && !starts_option (items[i + 1]))
            g_string_append_printf (item, " %s", items[++i]);
          if (item->len && !apply_option (l, item->str, &p, error))
            {
              g_string_free (item, TRUE);
              g_prefix_error (error, "%s: ", preset);
              return NULL;
            }
          g_string_free (item, TRUE);
        }
    }
  phases = g_strsplit (text, "||", -1);
  for (guint i = 0; phases[i]; i++)
    if (!add_phases (l, phases[i], pattern, &p, error))
      {
        /* Translators: a preset's id and a phase of its real kernel, before what
         * is wrong there: "transpose/shared, phase 2: …" */
        g_prefix_error (error, _("%s, phase %u: "), preset, i + 1);
        return NULL;
      }
  return g_steal_pointer (&l);
}

/* The pattern is the preset's but for its parameters' values (and the
 * values of the kernel's own parameters, which it may carry). */
static gboolean
same_shape (const WsPreset  *preset,
            const WsPattern *pattern)
{
  g_autoptr (WsPattern) reference = ws_preset_build (preset);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *pp = ws_pattern_get_param_nth (pattern, i);
      const WsPresetParam *own = ws_preset_get_param (preset, pp->name);

      if (own && own->use == WS_PARAM_KERNEL_ONLY)
        {
          /* the kernel's: in the reference too, so that the texts compare */
          if (!ws_pattern_set_param (reference, pp->name, pp->value, NULL))
            return FALSE;
          continue;
        }
      if (!ws_pattern_get_param (reference, pp->name, NULL) ||
          !ws_pattern_set_param (reference, pp->name, pp->value, NULL))
        return FALSE;
    }
  if (ws_pattern_get_n_params (pattern) != ws_pattern_get_n_params (reference) ||
      !ws_pattern_set_grid (reference, ws_pattern_get_grid (pattern), NULL))
    return FALSE;
  a = ws_pattern_to_string (reference);
  b = ws_pattern_to_string (pattern);
  return g_strcmp0 (a, b) == 0;
}

WsKernelLaunch *
ws_kernel_launch_choose (const char      *preset,
                         const WsPattern *pattern,
                         GError         **error)
{
  const WsPreset *p = preset ? ws_preset_lookup (preset) : NULL;

  g_return_val_if_fail (pattern != NULL, NULL);

  if (p == NULL || ws_kernel_launch_describe (preset) == NULL || !same_shape (p, pattern))
    return ws_kernel_launch_of_pattern (pattern);
  return ws_kernel_launch_new (preset, pattern, error);
}

/* ------------------------------------------------------------------ */
/* Predicting                                                         */
/* ------------------------------------------------------------------ */

void
ws_launch_prediction_free (WsLaunchPrediction *prediction)
{
  if (prediction == NULL)
    return;
  g_clear_pointer (&prediction->phases, g_ptr_array_unref);
  g_free (prediction);
}

/* The copies before the kernel, which it waits for. (Streams overlap them
 * with the kernel: see pipeline_ms.) A prefetch moves managed pages in bulk
 * as a pinned copy does; pages migrated on faults come in at the profile's
 * fault rate, after a fixed cost. */
static double
host_ms (const WsKernelLaunch  *l,
         const WsDeviceProfile *p)
{
  switch (l->host)
    {
    case WS_HOST_PAGEABLE:
      return l->host_in / p->pcie_pageable_bytes_per_s * 1e3;
    case WS_HOST_PINNED:
    case WS_HOST_PREFETCH:
      return l->host_in / p->pcie_pinned_bytes_per_s * 1e3;
    case WS_HOST_MANAGED:
      return l->host_in ? p->managed_fault_us * 1e-3 + l->host_in / p->managed_fault_bytes_per_s * 1e3 : 0;
    case WS_HOST_STREAMS:
    case WS_HOST_MAPPED:
    case WS_HOST_NONE:
    default:
      return 0;
    }
}

/* Copy in, kernel and copy out of S chunks in S streams: three stages (two
 * copy engines and the SMs) in a pipeline, so the first chunk's copy in and
 * the last one's copy out are not hidden, and between them the slowest stage
 * sets the pace. Each chunk's kernel is a launch of its own, and each copy
 * costs what a launch does before its first byte moves. */
static double
pipeline_ms (const WsKernelLaunch  *l,
             const WsDeviceProfile *p,
             double                 kernel_ms)
{
  double s = MAX (l->streams, 1);
  double in = l->host_in / p->pcie_pinned_bytes_per_s * 1e3 / s + p->launch_us * 1e-3;
  double out = l->host_out / p->pcie_pinned_bytes_per_s * 1e3 / s + p->launch_us * 1e-3;
  double k = kernel_ms / s + p->launch_us * 1e-3;

  return in + k + out + (s - 1) * MAX (MAX (in, out), k);
}

WsLaunchPrediction *
ws_launch_predict (const WsKernelLaunch  *l,
                   const WsDeviceProfile *profile,
                   GCancellable          *cancellable,
                   GError               **error)
{
  g_autoptr (WsLaunchPrediction) r = g_new0 (WsLaunchPrediction, 1);
  WsTimingWork work = { 0 };

  g_return_val_if_fail (l != NULL && profile != NULL, NULL);

  r->phases = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hierarchy_free);
  for (guint i = 0; i < l->phases->len; i++)
    {
      const WsLaunchPhase *ph = g_ptr_array_index (l->phases, i);
      WsHierarchyOptions options = { l->registers, ph->repeat, l->shared_bytes };
      WsHierarchy *h = ws_hierarchy_analyze (ph->pattern, profile, &options, cancellable, error);

      if (h == NULL)
        return NULL;
      g_ptr_array_add (r->phases, h);
      ws_hier_stats_add (&r->total, &h->total);
      work.next_waits = ph->waits;
      work.next_times = ph->times;
      ws_timing_work_add (&work, h, ph->repeat, profile);
    }
  work.alu = l->alu * (double) ((WsHierarchy *) r->phases->pdata[0])->launch->threads / WS_WARP_SIZE;
  work.tex_requests = l->tex * (double) ((WsHierarchy *) r->phases->pdata[0])->launch->threads / WS_WARP_SIZE;
  work.syncs = l->syncs;
  work.chain = l->chain;
  work.messages = l->messages;
  memcpy (work.fences, l->fences, sizeof work.fences);
  work.host_ms = host_ms (l, profile);
  if (l->host == WS_HOST_MAPPED)
    {
      /* what the kernel reads comes over the bus, not from DRAM */
      work.mapped_bytes = (double) l->host_in;
      work.mem.dram_read_bytes -= MIN (work.mem.dram_read_bytes, l->host_in);
      r->total.dram_read_bytes -= MIN (r->total.dram_read_bytes, l->host_in);
    }
  else if (l->host != WS_HOST_NONE)
    {
      /* copies in write DRAM; copies out read what the kernel just left in L2 */
      r->total.dram_write_bytes += l->host_in;
    }
  ws_timing_predict_work (&work, profile, &r->timing);
  if (l->host == WS_HOST_STREAMS)
    {
      /* the copies overlap the kernel, chunk by chunk */
      double kernel = r->timing.predicted_ms - r->timing.level_ms[WS_BOUND_LAUNCH];
      double total = pipeline_ms (l, profile, kernel);

      r->timing.level_ms[WS_BOUND_LAUNCH] = total - kernel;
      if (r->timing.level_ms[WS_BOUND_LAUNCH] > kernel)
        r->timing.bound = WS_BOUND_LAUNCH;
      r->timing.predicted_ms = total;
    }
  return g_steal_pointer (&r);
}
