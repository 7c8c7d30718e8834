#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine, from the repository's root, with warpscope-cli,
# warpscope-gpu-worker and the GPU tests built elsewhere in .device/gpu/ and
# their libraries packed in .device/gpu/rt.tar.xz by device-runtime (the CUDA
# libraries left out: the GPU machine has its own). Results in $OUT.
#
#   tools/gpu-check.sh tests      the GPU tests (gpu, jit, counters, backend,
#                                 session, worker, truth), TAP logs
#   tools/gpu-check.sh kernels    the course kernels of tests/data/kernels: the
#                                 model against the counters line by line
#                                 (test-kernel-gpu), and measure --kernel
#                                 --counters of each: $OUT/kernels.txt
#   tools/gpu-check.sh record     every preset recorded: $OUT/recording.json,
#                                 named after the device as data/recordings/ is
#   tools/gpu-check.sh truth      the model against the counters, below L1 and
#                                 the time too: $OUT/<device slug>.json as
#                                 data/truth/ names it
#   tools/gpu-check.sh calibrate  the device's profile: $OUT/<device slug>.json
#                                 as data/devices/ names it
#   tools/gpu-check.sh screens    the window on a private X server with its live
#                                 backend, a few presets and views, light and
#                                 dark: $OUT/screens/*.png
#   tools/gpu-check.sh sanitize   compute-sanitizer (memcheck with leak check,
#                                 racecheck, synccheck, initcheck) over every
#                                 kernel of a recording, in the worker process:
#                                 $OUT/sanitize-TOOL.txt, a summary per tool
#   tools/gpu-check.sh race       racecheck over the real kernel of each
#                                 PRESET[:NAME=VALUE] in RACE_PRESETS
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=.device/gpu
if [ ! -x /opt/rt/run ]; then
  mkdir -p /opt/rt && tar -C /opt/rt -xJf $D/rt.tar.xz
fi
R=/opt/rt/run
# NVRTC and CUPTI are the machine's own
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export WS_GPU_WORKER=$PWD/$D/warpscope-gpu-worker WS_CLI=$PWD/$D/warpscope-cli
export WS_SOURCE_DIR=$PWD G_TEST_SRCDIR=$PWD/tests G_DEBUG=gc-friendly GSETTINGS_BACKEND=memory
# the binaries look for data/ (device profiles, recordings) in the tree they
# were built in
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.used,memory.total \
  --format=csv > "$OUT/smi.txt" 2>&1

for what in "$@"; do
  start=$(date +%s)
  case $what in
    tests)
      for t in gpu jit kernel-gpu counters backend session worker truth calibrate; do
        [ -x $D/test-$t ] || continue
        s=$(date +%s)
        timeout 200 $R $D/test-$t > "$OUT/test-$t.txt" 2>&1
        echo "test-$t rc=$? in $(( $(date +%s) - s )) s: $(grep -c '^ok' "$OUT/test-$t.txt") ok," \
             "$(grep -c '^not ok' "$OUT/test-$t.txt") not ok, $(grep -c '# SKIP' "$OUT/test-$t.txt") skipped"
        grep -E '^(not ok|Bail out)|ERROR' "$OUT/test-$t.txt" | head -5
      done ;;
    kernels)
      s=$(date +%s)
      timeout 400 $R $D/test-kernel-gpu > "$OUT/test-kernel-gpu.txt" 2>&1
      echo "test-kernel-gpu rc=$? in $(( $(date +%s) - s )) s: $(grep -c '^ok' "$OUT/test-kernel-gpu.txt") ok," \
           "$(grep -c '^not ok' "$OUT/test-kernel-gpu.txt") not ok"
      grep -E '← differs|summary|on NVIDIA|^not ok' "$OUT/test-kernel-gpu.txt" | head -40
      for k in tests/data/kernels/*.cu; do
        echo "== $k" >> "$OUT/kernels.txt"
        timeout 120 $R $D/warpscope-cli measure --kernel "$k" --counters >> "$OUT/kernels.txt" 2>&1
        echo "rc=$?" >> "$OUT/kernels.txt"
      done ;;
    record)
      timeout 400 $R $D/warpscope-cli record -o "$OUT/recording.json" > "$OUT/record.txt" 2>&1
      echo "record rc=$?"; tail -3 "$OUT/record.txt" ;;
    truth)
      # the profile of this GPU from this tree (the binaries look in the tree they were built in)
      slug=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
      dev=()
      [ -f "data/devices/$slug.json" ] && dev=(--device "$PWD/data/devices/$slug.json")
      timeout 480 $R $D/warpscope-cli truth --json --counters "${dev[@]}" -o "$OUT/" > "$OUT/truth.txt" 2>&1
      echo "truth rc=$?"; tail -3 "$OUT/truth.txt" ;;
    calibrate)
      mkdir -p "$OUT/devices"
      slug=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
      base=()
      [ -f "data/devices/$slug.json" ] && base=(--base "$PWD/data/devices/$slug.json")
      timeout 120 $R $D/warpscope-cli calibrate "${base[@]}" -o "$OUT/devices/" > "$OUT/calibrate.txt" 2>&1
      echo "calibrate rc=$?"; cat "$OUT/calibrate.txt" ;;
    screens)
      mkdir -p "$OUT/screens"
      # the settings schemas, the program's with the packed libraries' (the
      # runner sets GSETTINGS_SCHEMA_DIR to its own), compiled where they were built
      [ -f $D/schemas/gschemas.compiled ] && cp $D/schemas/gschemas.compiled /opt/rt/share/glib-2.0/schemas/
      # (eight pictures: what comes back from the machine is counted)
      mkdir -p /tmp/screens
      for shot in coalescing/stride:hierarchy transpose/read-coalesced:hierarchy merge/sort-hybrid:hierarchy \
                  occupancy/saturation:warp; do
        preset=${shot%%:*} view=${shot##*:}
        for style in light dark; do
          name=$(echo "$preset-$view-$style" | tr / -)
          timeout 120 $R --display $D/warpscope --preset "$preset" --view "$view" --style $style \
            --size 1600x1000 --screenshot "$OUT/screens/$name.png" > "/tmp/screens/$name.txt" 2>&1
          echo "$name rc=$? $(stat -c %s "$OUT/screens/$name.png" 2>/dev/null || echo no) bytes"
          grep -v "session bus" "/tmp/screens/$name.txt" | head -3
        done
      done ;;
    sanitize)
      cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
      for tool in memcheck racecheck synccheck initcheck; do
        s=$(date +%s)
        extra=()
        [ $tool = memcheck ] && extra=(--leak-check full)
        # the kernels run in the worker, a child of warpscope-cli
        timeout ${SANITIZE_SECONDS:-120} "$cs" --tool $tool "${extra[@]}" --target-processes all --print-limit 20 \
          $R $D/warpscope-cli record -o "/tmp/sanitize-$tool.json" > "$OUT/sanitize-$tool.txt" 2>&1
        rc=$?
        echo "$tool rc=$rc in $(( $(date +%s) - s )) s: $(grep -c 'measurements of' "$OUT/sanitize-$tool.txt") complete runs," \
             "$(grep -E 'ERROR SUMMARY' "$OUT/sanitize-$tool.txt" | tail -2 | tr '\n' ' ')"
        grep -E '========= (Invalid|Race|Barrier|Uninitialized|Leaked|Program hit)' "$OUT/sanitize-$tool.txt" | sort | uniq -c | head -5
      done ;;
    race)
      # racecheck over every launch of each preset's real kernel, five at a
      # time: RACE_PRESETS holds PRESET or PRESET:NAME=VALUE (a smaller
      # launch, where the default takes more than ten minutes under racecheck)
      cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
      one() {
        preset=${1%%:*} set=(); [ "$preset" != "$1" ] && set=(--set "${1#*:}")
        name=$(echo "$1" | tr '/:=' '---') s=$(date +%s)
        WS_WORKER_TIMEOUT=600 timeout 590 "$cs" --tool racecheck --target-processes all --print-limit 20 \
          $R $D/warpscope-cli measure "$preset" "${set[@]}" > "$OUT/race-$name.txt" 2>&1
        echo "racecheck $1 rc=$? in $(( $(date +%s) - s )) s: $(grep -E 'RACECHECK SUMMARY|said nothing' "$OUT/race-$name.txt")"
      }
      export -f one; export cs R D OUT
      printf '%s\n' ${RACE_PRESETS:-banks/swizzle:loads=256 merge/sort-tree:N=65536} | xargs -P 5 -I{} bash -c 'one {}' ;;
    *)
      echo "gpu-check: what is $what? tests, kernels, record, truth, calibrate, screens, sanitize or race" >&2; exit 2 ;;
  esac
  echo "$what: $(( $(date +%s) - start )) s"
done
