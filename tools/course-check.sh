#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine, from the repository's root, with test-gpu, warpscope-cli
# and warpscope-gpu-worker built elsewhere in .device/course/ and their
# libraries packed in .device/course/rt.tar.xz by device-runtime (the CUDA
# libraries left out: the GPU machine has its own): the kernels of the
# course's later topics verified against their CPU references at their
# defaults and at every point of their sweeps (test-gpu), every preset
# recorded topic by topic, and the new presets' hardware counters beside
# the model (truth). About six minutes on an H200; results in $OUT:
#
#   smi.txt                  the GPU, its driver, clocks and memory
#   test-gpu.txt             the TAP log of test-gpu
#   record-TOPIC.json/.txt   one recording per topic, and how long it took
#   truth-TOPIC.json/.txt    the model against the counters, new presets only
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=.device/course
mkdir -p /opt/rt && tar -C /opt/rt -xJf $D/rt.tar.xz
R=/opt/rt/run
export WS_GPU_WORKER=$PWD/$D/warpscope-gpu-worker
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.used,memory.total,mig.mode.current \
  --format=csv > "$OUT/smi.txt" 2>&1
nvidia-smi -q -d COMPUTE,PERFORMANCE >> "$OUT/smi.txt" 2>&1
$R $D/warpscope-cli device >> "$OUT/smi.txt" 2>&1

# 1. the new and changed kernels, checked (about a minute and a half)
P=()
for k in unified fences readonly/stencil occupancy ilp merge/sort private-array alignment/pitch \
         alignment/malloc3d alignment/memcpy2d alignment/struct7 l2 transfer; do
  P+=(-p "/gpu/kernel/$k" -p "/gpu/sweep/$k")
done
start=$(date +%s)
timeout 150 $R $D/test-gpu -p /gpu/registry -p /gpu/registry-is-the-catalogue -p /gpu/probe "${P[@]}" \
  > "$OUT/test-gpu.txt" 2>&1
echo "test-gpu rc=$? in $(( $(date +%s) - start )) s: $(grep -c '^ok' "$OUT/test-gpu.txt") ok," \
     "$(grep -c '^not ok' "$OUT/test-gpu.txt") not ok"
grep -E '^(not ok|Bail out)|ERROR' "$OUT/test-gpu.txt" | head -5

# 2. every preset, topic by topic, so that one that fails costs only its topic
for t in coalescing alignment transpose banks constant readonly private-array occupancy ilp atomics fences l2 \
         transfer unified merge reference; do
  start=$(date +%s)
  timeout 120 $R $D/warpscope-cli record --only "$t/" -o "$OUT/record-$t.json" > "$OUT/record-$t.txt" 2>&1
  echo "record $t rc=$? in $(( $(date +%s) - start )) s"
done

# 3. the new presets' counters beside the model
for t in unified/ fences/ ilp/ occupancy/ merge/sort readonly/stencil private-array/ alignment/ l2/hot \
         transfer/overlap; do
  f=$(echo "$t" | tr '/' '-')
  start=$(date +%s)
  timeout 60 $R $D/warpscope-cli truth --only "$t" --json -o "$OUT/truth-${f%-}.json" > "$OUT/truth-${f%-}.txt" 2>&1
  echo "truth $t rc=$? in $(( $(date +%s) - start )) s"
done
