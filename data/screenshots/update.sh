#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Refreshes the screenshots the AppStream metainfo shows, from the ones the
# test suite saves under BUILD/tests/screenshots/ (run `meson test` first):
#   data/screenshots/update.sh [BUILD_DIR]
# Each line of the table: the metainfo's file name, then the test's file.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../_build}
shots=$build/tests/screenshots

pending=0
while read -r name source; do
  [ -n "$name" ] || continue
  if [ -f "$shots/$source" ]; then
    cp "$shots/$source" "$here/$name"
    echo "$name ← $source"
  else
    echo "$name: pending, the test suite made no $source"
    pending=1
  fi
done <<TABLE
coalescing.png window-coalescing-stride-light.png
banks.png      window-transpose-shared-padded-light.png
dark.png       window-banks-stride-dark.png
help.png       help-coalescing-light.png
TABLE

[ "$pending" = 0 ] || echo "Some screenshots are pending: the metainfo still names them (see README.md)."
