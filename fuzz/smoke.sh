#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A short run of one harness: HARNESS SEEDS WORKDIR SECONDS [DICT]. New inputs
# go to WORKDIR (in the build), never into the seed corpus in the repository;
# a crash fails the test and is left in WORKDIR as crash-*.
set -eu
harness=$1 seeds=$2 work=$3 seconds=$4 dict=${5:-}
mkdir -p "$work"
# undefined behaviour is a crash too; leaks are reported at the end of a run
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# fontconfig keeps its caches to the end (a build with the figures draws text)
here=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/../tools/sanitize/lsan.supp:print_suppressions=0}"
set -- -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -artifact_prefix="$work/" -print_final_stats=1
[ -n "$dict" ] && [ -f "$dict" ] && set -- "$@" -dict="$dict"
exec "$harness" "$@" "$work" "$seeds"
