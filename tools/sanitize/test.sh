#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The test suite under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer:  tools/sanitize/test.sh [BUILD_DIR [MESON_TEST_OPTIONS…]]
# (options such as --no-suite long or --suite long, not test names: it runs
# meson test twice, on the tests they select)
# Any undefined behaviour, bad access or leak fails the test it happens in.
# lsan.supp holds the only leaks forgiven: fontconfig's, json-glib's and a
# date GTK's recent-files manager stamps.
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

# The names of the tests the options select, by the pass they run in: those
# of the suites 'figures' and 'gui' (fast), or the others (full).
tests () {
  pass=$1
  shift
  # the kernel editor's leaks are read with whole stacks: GTK's recent
  # files leak a date there, forgiven by name in lsan.supp
  fast=" $(meson test -C "$build" --no-rebuild --list --suite figures --suite gui | sed -n 's|^.* / ||p' |
           grep -vx kernel-editor | tr '\n' ' ') "
  for t in $(meson test -C "$build" --no-rebuild --list "$@" | sed -n 's|^.* / ||p'); do
    case "$fast" in
      *" $t "*) [ "$pass" = full ] || echo "$t" ;;
      *) [ "$pass" = fast ] || echo "$t" ;;
    esac
  done
}
full=$(tests full "$@")
fast=$(tests fast "$@")

# Two passes. The model, the backend and the CLI with full stacks of every
# allocation: GLib and json-glib are built without frame pointers, and only
# a full unwind reaches the json-glib frame, under GLib's allocator, that
# the suppressions name. The figures and the GTK tests with stacks unwound
# by frame pointers: there every malloc of cairo, pango and GTK paid a DWARF
# walk under the full unwinder (the figure tests 30 times slower,
# app-windows 10 times), and their leaks are their own or fontconfig's,
# whose allocating frame that unwinding keeps. (The first block of quarks
# that GLib leaks on purpose, the GTK tests tell LeakSanitizer to ignore
# themselves: tests/glib-quarks.c.) A pass with no test is left out (meson
# test with no name would run them all).
rc=0
if [ -n "$full" ]; then
  # shellcheck disable=SC2086 # one word a name
  ASAN_OPTIONS="$asan:fast_unwind_on_malloc=0" \
    meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 6 "$@" $full || rc=1
fi
if [ -n "$fast" ]; then
  # shellcheck disable=SC2086
  ASAN_OPTIONS="$asan:fast_unwind_on_malloc=1" \
    meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 6 "$@" $fast || rc=1
fi
exit $rc
