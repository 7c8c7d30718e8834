#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A long run of one harness, for ten million executions unless told:
#   fuzz/run.sh BUILD_DIR HARNESS [RUNS [JOBS]]
# BUILD_DIR is a build made with -Dfuzzing=true (see README.md). New inputs
# go to BUILD_DIR/fuzz/corpus-HARNESS, crashes to BUILD_DIR/fuzz/crash-*; the
# seeds in fuzz/corpus/HARNESS are read, never written. The last lines say
# how many inputs ran (stat::number_of_executed_units).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1 name=$2 runs=${3:-10000000} jobs=${4:-1}
harness="$build/fuzz/fuzz-$name"
[ -x "$harness" ] || { echo "run.sh: no $harness: build with -Dfuzzing=true (fuzz/README.md)" >&2; exit 2; }
work="$build/fuzz/corpus-$name"
mkdir -p "$work"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
# fontconfig keeps its caches to the end (a build with the figures draws text)
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/../tools/sanitize/lsan.supp:print_suppressions=0}"
set -- -runs="$runs" -timeout=60 -rss_limit_mb=2048 -artifact_prefix="$build/fuzz/" -print_final_stats=1
[ -f "$here/$name.dict" ] && set -- "$@" -dict="$here/$name.dict"
# libFuzzer's entropic schedule spent 60 % of the kernel harness's time
# ranking its 60 000 features; the plain schedule runs six times the inputs
# and reached as many edges in the same 40 s (15 350 against 15 227)
[ "$name" = kernel ] && set -- "$@" -entropic=0
if [ "$jobs" -gt 1 ]; then
  # each job runs RUNS inputs of its own, sharing the corpus
  set -- "$@" -jobs="$jobs" -workers="$jobs"
fi
exec "$harness" "$@" "$work" "$here/corpus/$name"
