#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Remakes the screenshots the AppStream metainfo shows, under Xvfb:
#   data/screenshots/update.sh [BUILD_DIR]
# The main window's come from `warpscope --screenshot`; the help window's
# from the test suite (tests/test-app-windows.c), so run `meson test` first.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../_build}" && pwd)
warpscope=$build/app/warpscope

export GSETTINGS_SCHEMA_DIR="$build/data" GSETTINGS_BACKEND=memory
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1

pending=0
window_shot () {   # NAME PRESET STYLE
  if [ -x "$warpscope" ] && "$warpscope" --help 2>/dev/null | grep -q -- --screenshot; then
    xvfb-run -a -s "-screen 0 1920x1200x24" \
      "$warpscope" --preset "$2" --style "$3" --size 1400x900 --screenshot "$here/$1"
    echo "$1 ← warpscope --preset $2 --style $3"
  else
    echo "$1: pending: $warpscope is not built, or has no --screenshot"
    pending=1
  fi
}

window_shot coalescing.png coalescing/stride light
window_shot banks.png banks/padding light
window_shot dark.png coalescing/offset dark

if [ -f "$build/tests/screenshots/help-coalescing-light.png" ]; then
  cp "$build/tests/screenshots/help-coalescing-light.png" "$here/help.png"
  echo "help.png ← tests/screenshots/help-coalescing-light.png"
else
  echo "help.png: pending: run meson test -C $build first"
  pending=1
fi

[ "$pending" = 0 ] || echo "Some screenshots are pending; the metainfo still names them (see README.md)."
