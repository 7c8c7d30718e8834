#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The test suite under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer:  tools/sanitize/test.sh [BUILD_DIR [MESON_TEST_OPTIONS…]]
# (options such as --no-suite long or --suite long, not test names: it runs
# meson test twice, on the tests they select)
# Any undefined behaviour, bad access or leak fails the test it happens in.
# lsan.supp holds the only leaks forgiven: fontconfig's and json-glib's.
# The suite 'long' takes an hour or more here, whole; CI runs it with
# WS_TEST_SAMPLE=K in the environment, which makes its tests check a share
# of their cases (tests/sample.h says which).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/_build-asan}
[ $# -gt 0 ] && shift

if [ ! -f "$build/build.ninja" ]; then
  # one GPU architecture is enough: no GPU runs these kernels here
  meson setup "$build" "$top" -Db_sanitize=address,undefined -Db_lundef=false -Dgpu_archs=90 -Dgpu_ptx=false
fi
ninja -C "$build"

# CUDA maps memory where ASan keeps its shadow gap (protect_shadow_gap=0).
asan="detect_leaks=1:abort_on_error=1:protect_shadow_gap=0"
export LSAN_OPTIONS="suppressions=$top/tools/sanitize/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
# GSlice hands out memory LeakSanitizer cannot see: malloc instead
export G_SLICE=always-malloc
# the window tests draw with cairo: no GL, so no Mesa in the leak report
export GDK_DEBUG=gl-disable
# everything runs several times slower
export WS_TEST_TIMEOUT_SCALE=6

# The names of the tests the options select: those of the suite 'figures'
# (figures), or the others (others).
tests () {
  part=$1
  shift
  figures=" $(meson test -C "$build" --no-rebuild --list --suite figures | sed -n 's|^.* / ||p' | tr '\n' ' ') "
  for t in $(meson test -C "$build" --no-rebuild --list "$@" | sed -n 's|^.* / ||p'); do
    case "$figures" in
      *" $t "*) [ "$part" = others ] || echo "$t" ;;
      *) [ "$part" = figures ] || echo "$t" ;;
    esac
  done
}
others=$(tests others "$@")
figures=$(tests figures "$@")

# Two passes. Everything but the figures with full stacks of every
# allocation: GLib, GTK, json-glib and fontconfig are built without frame
# pointers, and only a full unwind reaches the library frame the
# suppressions name. The figures with stacks unwound by frame pointers:
# there every malloc of cairo and pango paid a DWARF walk under the full
# unwinder (the figure tests 30 times slower), and the figures' leaks are
# their own, reported all the same. A pass with no test is left out (meson
# test with no name would run them all).
rc=0
if [ -n "$others" ]; then
  # shellcheck disable=SC2086 # one word a name
  ASAN_OPTIONS="$asan:fast_unwind_on_malloc=0" \
    meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 6 "$@" $others || rc=1
fi
if [ -n "$figures" ]; then
  # shellcheck disable=SC2086
  ASAN_OPTIONS="$asan:fast_unwind_on_malloc=1" \
    meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 6 "$@" $figures || rc=1
fi
exit $rc
