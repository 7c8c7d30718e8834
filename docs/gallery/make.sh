#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A gallery of Warpscope's figures, made with warpscope-cli export and no
# display: what a course on CUDA memory could put on its slides. Adapt it:
# each `fig` line is one figure, in PNG (at twice its size), SVG and PDF.
#
#   docs/gallery/make.sh [OUT_DIR]          (default: gallery/ here)
#
# The measurements are those of the bundled recording Warpscope replays
# without a GPU (data/recordings/h200.json, an H200's), unless RECORDINGS
# names others: RECORDINGS="h100.json laptop.json" plots each beside the
# others, labelled with its GPU. WARPSCOPE_CLI says which
# warpscope-cli to run (default: the one in _build/, else the one on PATH).
# STYLE=dark (or light) draws them as on screen instead of for print;
# SCALE=1 makes the PNGs at their size in points, not twice it. The README
# shows three of them (transpose-compare, banks-sweep, banks-stride-2), made
# by this script at SCALE=1.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-gallery}
cli=${WARPSCOPE_CLI:-}
if [ -z "$cli" ]; then
  if [ -x "$top/_build/app/warpscope-cli" ]; then cli=$top/_build/app/warpscope-cli; else cli=warpscope-cli; fi
fi
style=${STYLE:-print}
scale=${SCALE:-2}
recordings=""
for r in ${RECORDINGS:-}; do recordings="$recordings --recording=$r"; done

mkdir -p "$out"

# fig NAME WIDTH HEIGHT EXPORT-OPTIONS...
fig () {
  name=$1 width=$2 height=$3
  shift 3
  for format in png svg pdf; do
    # shellcheck disable=SC2086  # $recordings is a list of options
    "$cli" export "$@" $recordings --style="$style" --width="$width" --height="$height" \
      --scale="$scale" --format="$format" -o "$out/$name.$format"
  done
  echo "$out/$name.{png,svg,pdf}"
}

# The README's three.
fig transpose-compare 1300 1040 --view=compare \
  --compare=transpose/copy,transpose/read-coalesced,transpose/shared,transpose/shared-padded
fig banks-sweep      1100 540 --preset=banks/stride --view=plot
fig banks-stride-2   1100 420 --preset=banks/stride --set=stride=2 --view=banks

# Global coalescing: where a warp's 32 addresses land, in 32-byte sectors.
fig coalescing-sequential 1200 560 --preset=coalescing/sequential --view=warp
fig coalescing-offset     1200 560 --preset=coalescing/offset --view=warp
fig coalescing-stride     1200 640 --preset=coalescing/stride --view=warp
fig coalescing-sweep      1200 640 --preset=coalescing/strided-sweep --view=plot
fig sequential-vs-strided 1400 1000 --view=compare --compare=coalescing/sequential,coalescing/stride

# Shared-memory banks: a stride of 2 words is a 2-way conflict, 32 a 32-way one.
fig banks-padding-0  1200 760 --preset=banks/padding --set=pad=0 --view=banks
fig banks-padding-1  1200 600 --preset=banks/padding --set=pad=1 --view=banks

# The matrix transpose: which side to coalesce (naive against tiled is above).
fig transpose-sides  1600 1000 --view=compare \
  --compare=transpose/read-coalesced,transpose/write-coalesced,transpose/ldg

# Local memory, constant memory, atomics.
fig local-uniform-vs-nonuniform 1600 1000 --view=compare \
  --compare=private-array/uniform-local,private-array/nonuniform-local,private-array/nonuniform-shared
fig constant-distinct 1200 600 --preset=constant/distinct --view=constant
fig atomics-histogram 1200 600 --preset=atomics/histogram --view=atomics

# One step at a time, for a slide per step (the screen styles show the animation's state).
for step in 0 1 2; do
  "$cli" export --preset=coalescing/offset --view=warp --style=light --step=$step \
    --width=1200 --height=560 --scale="$scale" -o "$out/coalescing-offset-step-$step.png"
done

# The data behind a plot and a comparison, for a spreadsheet or a program.
"$cli" export --preset=coalescing/strided-sweep --view=plot $recordings -o "$out/coalescing-sweep.csv"
"$cli" export --view=compare --compare=coalescing/sequential,coalescing/stride $recordings \
  -o "$out/sequential-vs-strided.json"
echo "$out/coalescing-sweep.csv $out/sequential-vs-strided.json"
