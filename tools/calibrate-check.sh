#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine: `warpscope-cli calibrate` into $OUT/, then the GPU cases
# of test-calibrate (the microkernels' numbers checked, and the whole
# command through the GPU worker). A few seconds on an H200.
#
#   tools/calibrate-check.sh [WS_CLI [WS_TEST_DIR]]
#
#   WS_CLI        warpscope-cli (default: .device/calibrate/warpscope-cli)
#   WS_TEST_DIR   the folder holding test-calibrate (default: WS_CLI's folder)
#   WS_GPU_WORKER the GPU worker (default: warpscope-gpu-worker beside WS_CLI)
#   WS_RT         an archive device-runtime packed for the binaries, unpacked
#                 into /opt/rt (default: rt.tar.xz beside WS_CLI, if there);
#                 with /opt/rt/run the binaries run with its libraries
#   OUT           where the results go (default: /tmp/out):
#
#   smi.txt               the GPU, its driver and clocks
#   calibrate.txt         the table: each measured value beside the shipped one
#   DEVICE.json           the calibrated profile (calibrate -o $OUT/)
#   calibrate.json        the same, as --json prints it
#   model.txt             model --device DEVICE.json of coalescing/stride
#   test-calibrate.txt    the TAP log of test-calibrate
#
# Exit status: 0 when calibrate and the test passed.
set -u
WS_CLI=${1:-${WS_CLI:-.device/calibrate/warpscope-cli}}
WS_TEST_DIR=${2:-${WS_TEST_DIR:-$(dirname "$WS_CLI")}}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
WS_CLI=$(cd "$(dirname "$WS_CLI")" && pwd)/$(basename "$WS_CLI")
export WS_CLI
export WS_GPU_WORKER=${WS_GPU_WORKER:-$(dirname "$WS_CLI")/warpscope-gpu-worker}
WS_RT=${WS_RT:-$(dirname "$WS_CLI")/rt.tar.xz}

R=()
if [ -f "$WS_RT" ]; then
  mkdir -p /opt/rt && tar -C /opt/rt -xJf "$WS_RT"
fi
if [ -x /opt/rt/run ]; then
  R=(/opt/rt/run)
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.used,memory.total \
  --format=csv > "$OUT/smi.txt" 2>&1
status=0

# 1. the command, as a person runs it: the table, then the file. Over the
# profile this copy of the repository ships for the GPU (the build's own
# data folder may not be on this machine).
name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1)
slug=$(echo "$name" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
BASE=()
[ -n "$slug" ] && [ -f "data/devices/$slug.json" ] && BASE=(--base "data/devices/$slug.json")
start=$(date +%s%N)
"${R[@]}" "$WS_CLI" calibrate "${BASE[@]}" -o "$OUT/" > "$OUT/calibrate.txt" 2>&1
rc=$?
echo "calibrate rc=$rc in $(( ($(date +%s%N) - start) / 1000000 )) ms"
cat "$OUT/calibrate.txt"
[ $rc -eq 0 ] || status=1
"${R[@]}" "$WS_CLI" calibrate "${BASE[@]}" --json > "$OUT/calibrate.json" 2> "$OUT/calibrate-json.err"
rc=$?
echo "calibrate --json rc=$rc, $(wc -c < "$OUT/calibrate.json") bytes"
[ $rc -eq 0 ] || { status=1; cat "$OUT/calibrate-json.err"; }

# the model reads the profile it made, and predicts a time with it
for f in "$OUT"/*.json; do
  case $f in */calibrate.json) continue ;; esac
  "${R[@]}" "$WS_CLI" model --device "$f" --preset coalescing/stride > "$OUT/model.txt" 2>&1
  rc=$?
  echo "model --device $(basename "$f") rc=$rc: $(grep 'predicted time' "$OUT/model.txt")"
  [ $rc -eq 0 ] || status=1
done

# 2. the test: the numbers in range, the profile through the loader
timeout 300 "${R[@]}" "$WS_TEST_DIR/test-calibrate" --verbose > "$OUT/test-calibrate.txt" 2>&1
rc=$?
echo "test-calibrate rc=$rc: $(grep -c '^ok' "$OUT/test-calibrate.txt") ok," \
     "$(grep -c '^not ok' "$OUT/test-calibrate.txt") not ok, $(grep -c '# SKIP' "$OUT/test-calibrate.txt") skipped"
grep -E '^(not ok|Bail out)|ERROR|# SKIP' "$OUT/test-calibrate.txt" | head -10
[ $rc -eq 0 ] || status=1
exit $status
