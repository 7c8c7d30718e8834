#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One language of the user guide, as GNOME's guides are translated: its
# LANG.po compiled, and itstool merging it into every page.  A string with
# no translation, or one whose translation is not well-formed, stays English.
#   merge-translation.sh LANG PO OUTDIR PAGE...   writes OUTDIR/LANG-PAGE
set -eu

lang=$1 po=$2 out=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-help.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

msgfmt --check-format -o "$tmp/$lang.mo" "$po"
mkdir "$tmp/pages"
itstool -m "$tmp/$lang.mo" -l "$lang" -o "$tmp/pages/" "$@"
for page in "$@"; do
  name=$(basename "$page")
  mv "$tmp/pages/$name" "$out/$lang-$name"
done
