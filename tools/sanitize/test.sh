#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The test suite under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer:  tools/sanitize/test.sh [BUILD_DIR [MESON_TEST_ARGS…]]
# Any undefined behaviour, bad access or leak fails the test it happens in.
# lsan.supp holds the only leaks forgiven: fontconfig's and json-glib's.
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
# Stacks of allocations by frame pointers: the slow unwinder made every
# malloc of cairo and pango cost a DWARF walk (the figure tests 30 times
# slower), and the suppressions match the library of the allocating frame,
# which fast unwinding keeps. WS_ASAN_UNWIND=fast_unwind_on_malloc=0 for full
# stacks through libraries built without frame pointers.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:protect_shadow_gap=0:${WS_ASAN_UNWIND:-fast_unwind_on_malloc=1}"
export LSAN_OPTIONS="suppressions=$top/tools/sanitize/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
# GSlice hands out memory LeakSanitizer cannot see: malloc instead
export G_SLICE=always-malloc
# the window tests draw with cairo: no GL, so no Mesa in the leak report
export GDK_DEBUG=gl-disable
# everything runs several times slower
export WS_TEST_TIMEOUT_SCALE=6
exec meson test -C "$build" --print-errorlogs --timeout-multiplier 6 "$@"
