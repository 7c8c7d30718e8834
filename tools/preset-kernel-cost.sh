#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine, from the repository's root, with warpscope-cli and
# warpscope-gpu-worker built elsewhere and copied to $D (default
# .device/cost) with their libraries packed in $D/rt.tar.xz by
# device-runtime: every preset that has a kernel text (data/presets) is
# measured twice over, as its hand-written kernel (`measure ID`) and as its
# kernel text printed to CUDA and compiled with NVRTC (`measure --kernel`),
# each at its defaults, in the order hand, text, hand, text, so that the
# difference between the two can be held against the difference between
# two runs of the same one. Each call's wall time (worker start, compile,
# reference check, warm-up and samples) is kept too: the first
# measurement's latency both ways. Stops starting presets after $BUDGET
# seconds; IDS (a list of preset ids) measures those only. Results in
# $OUT/cost.tar.gz (one file: what comes back from a GPU machine is
# limited in number), which holds
#
#   PASS-WHICH-TOPIC-NAME.json   the recording (`measure --json`)
#   times.tsv                    pass, which, id, rc, wall seconds
#
# tools/preset-kernel-cost.py reads them, unpacked.
set -u
FINAL=${OUT:-/tmp/out}; mkdir -p "$FINAL"
OUT=$(mktemp -d)
D=${D:-.device/cost}
BUDGET=${BUDGET:-540}
mkdir -p /opt/rt && tar -C /opt/rt -xJf $D/rt.tar.xz
R=/opt/rt/run
export WS_GPU_WORKER=$PWD/$D/warpscope-gpu-worker
export WS_PRESETS_DIR=$PWD/data/presets
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/smi.txt" 2>&1
ids=${IDS:-$(cd data/presets && ls */*.cu | sed 's/\.cu$//' | sort)}
start=$(date +%s)
: > "$OUT/times.tsv"
for pass in 1 2; do
  for id in $ids; do
    [ $(( $(date +%s) - start )) -ge "$BUDGET" ] && { echo "budget of $BUDGET s spent in pass $pass at $id"; break 2; }
    f=$(echo "$id" | tr '/' '-')
    for which in hand text; do
      t0=$(date +%s.%N)
      if [ $which = hand ]; then
        timeout 60 $R $D/warpscope-cli measure "$id" --json > "$OUT/$pass-$which-$f.json" 2> "$OUT/$pass-$which-$f.err"
      else
        timeout 60 $R $D/warpscope-cli measure --kernel "data/presets/$id.cu" --json > "$OUT/$pass-$which-$f.json" 2> "$OUT/$pass-$which-$f.err"
      fi
      rc=$?
      t1=$(date +%s.%N)
      printf '%s\t%s\t%s\t%s\t%s\n' $pass $which "$id" $rc "$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")" >> "$OUT/times.tsv"
      [ -s "$OUT/$pass-$which-$f.err" ] || rm -f "$OUT/$pass-$which-$f.err"
    done
  done
done
echo "done in $(( $(date +%s) - start )) s: $(wc -l < "$OUT/times.tsv") measurements, $(awk '$4 != 0' "$OUT/times.tsv" | wc -l) failed"
awk '$4 != 0' "$OUT/times.tsv" | head -20
tar -C "$OUT" -czf "$FINAL/cost.tar.gz" .
