#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build into a temporary DESTDIR and checks that everything is
# where it belongs: the program, the CLI, the desktop data, the schema, the
# man page and every bundled recording, at the paths the program looks in
# (WS_PKGDATADIR is pkgdatadir below).
#   install-check.sh BUILD_DIR SOURCE_DIR BINDIR DATADIR MANDIR PKGDATADIR APP_ID VERSION HAVE_GUI
set -eu

build=$1 source=$2 bindir=$3 datadir=$4 mandir=$5 pkgdatadir=$6 app_id=$7 version=$8 have_gui=$9

destdir=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-install.XXXXXX")
trap 'rm -rf "$destdir"' EXIT INT TERM

meson install -C "$build" --no-rebuild --destdir "$destdir" >"$destdir.log" 2>&1 || {
  cat "$destdir.log"; rm -f "$destdir.log"; echo "meson install failed"; exit 1; }
rm -f "$destdir.log"

failed=0
expect () {
  if [ -e "$destdir$1" ]; then
    echo "ok: $1"
  else
    echo "MISSING: $1"
    failed=1
  fi
}

expect "$bindir/warpscope-cli"
expect "$datadir/glib-2.0/schemas/$app_id.gschema.xml"
expect "$datadir/mime/packages/$app_id.xml"
expect "$mandir/man1/warpscope-cli.1"
if [ "$have_gui" = true ]; then
  expect "$datadir/applications/$app_id.desktop"
  expect "$datadir/metainfo/$app_id.metainfo.xml"
  expect "$datadir/icons/hicolor/scalable/apps/$app_id.svg"
  expect "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
  # the program itself, once app/meson.build builds it
  if [ -e "$build/app/warpscope" ]; then
    expect "$bindir/warpscope"
  else
    echo "note: $build/app/warpscope is not built yet"
  fi
fi
for dir in recordings truth; do
  for f in "$source/data/$dir"/*.json; do
    [ -e "$f" ] || continue
    expect "$pkgdatadir/$dir/$(basename "$f")"
  done
done
# every preset's kernel text, where ws_preset_kernel_path looks
for f in "$source"/data/presets/*/*.cu; do
  [ -e "$f" ] || continue
  expect "$pkgdatadir/presets/$(basename "$(dirname "$f")")/$(basename "$f")"
done
# the model's answers for the presets' figures, where ws-plot-cache.c looks
expect "$pkgdatadir/model-answers.txt"

# the installed CLI runs from where it was put
out=$("$destdir$bindir/warpscope-cli" --version)
if [ "$out" = "warpscope-cli $version" ]; then
  echo "ok: installed warpscope-cli --version: $out"
else
  echo "installed warpscope-cli --version said: $out"
  failed=1
fi

# and looks for the bundled recordings where they were put
if grep -q -a -F "$pkgdatadir" "$destdir$bindir/warpscope-cli"; then
  echo "ok: installed warpscope-cli looks in $pkgdatadir"
else
  echo "installed warpscope-cli does not name $pkgdatadir: it will not find the bundled recordings"
  failed=1
fi

exit $failed
