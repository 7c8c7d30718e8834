#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The translations' template: po/POTFILES.in names only files that exist and
# every file that marks strings; the .pot builds without xgettext's warnings
# and holds strings from the .ui files, the C code and the desktop data; and
# the desktop file and metainfo, merged with the translations, still validate.
# The user guide's template builds too, with itstool, from every page. And a
# pseudo-translation of the .pot shows where it should, and only there.
#   po-check.sh SOURCE_DIR BUILD_DIR APP_ID HAVE_GUI HAVE_HELP_TEMPLATE
set -eu

source=$1 build=$2 app_id=$3 have_gui=$4 have_help=$5
pot="$source/po/warpscope.pot"
failed=0

# 1. POTFILES.in: each file exists
while IFS= read -r f; do
  case "$f" in ''|'#'*) continue ;; esac
  if [ -f "$source/$f" ]; then
    echo "ok: POTFILES.in: $f"
  else
    echo "not ok: POTFILES.in names $f, which does not exist"
    failed=1
  fi
done < "$source/po/POTFILES.in"

# 2. and each file with marked strings is in it
cd "$source"
for f in $(grep -rlE '(^|[^A-Za-z0-9_])((N|FG|NG)?_ ?\(|g_dn?gettext \(GETTEXT_PACKAGE, *)"' app backend ui \
             --include='*.c' --include='*.h') \
         $(grep -rl 'translatable="yes"' ui --include='*.ui'); do
  if grep -qxF "$f" po/POTFILES.in; then :; else
    echo "not ok: $f marks strings for translation but po/POTFILES.in does not list it"
    failed=1
  fi
done

# 3. the .pot builds, with no warning from xgettext
log=$(mktemp "${TMPDIR:-/tmp}/warpscope-pot.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM
if command -v ninja >/dev/null 2>&1; then
  ninja -C "$build" warpscope-pot >"$log" 2>&1 || { cat "$log"; echo "not ok: the .pot did not build"; exit 1; }
else
  meson compile -C "$build" warpscope-pot >"$log" 2>&1 || { cat "$log"; echo "not ok: the .pot did not build"; exit 1; }
fi
if grep -i 'warning' "$log"; then
  echo "not ok: xgettext warned while building the .pot"
  failed=1
fi
n=$(grep -c '^msgid ' "$pot")
echo "ok: $pot built, $((n - 1)) strings"

# 4. with strings from each kind of source
for s in \
  'msgid "_Save Measurements…"' \
  'msgid "Samples per Measurement"' \
  'msgid "Show Help"' \
  'msgid "Could not measure: %s"' \
  'msgid "Add a GPU Elsewhere"' \
  'msgid "Sectors per request"' \
  'msgid "Compare two to four presets or kernel files side by side"' \
  'msgid "GPU Memory Explorer"' \
  'msgid "Shared-memory banks"' \
  'msgid "elements between consecutive threads"' \
  'msgid "Describe the GPU, or say why there is none"' \
  'msgid "Timed samples per point (default 10)"' \
  'msgid "could not write %s: it is a folder"' \
  'msgid "a plot'"'"'s data is CSV or JSON, not %s"' \
  'msgid "Sequential against strided"' \
  'msgid "%s, instruction %u"' \
  'msgid "%s per warp"'; do
  if grep -qF "$s" "$pot"; then
    echo "ok: the .pot has $s"
  else
    echo "not ok: the .pot lacks $s"
    failed=1
  fi
done

# 5. the desktop data as installed, translations merged in
if [ "$have_gui" = true ]; then
  if desktop-file-validate "$build/data/$app_id.desktop"; then
    echo "ok: merged $app_id.desktop validates"
  else
    echo "not ok: merged $app_id.desktop does not validate"; failed=1
  fi
  if appstreamcli validate --no-net "$build/data/$app_id.metainfo.xml" >"$log" 2>&1; then
    echo "ok: merged $app_id.metainfo.xml validates"
  else
    cat "$log"; echo "not ok: merged $app_id.metainfo.xml does not validate"; failed=1
  fi
fi

# 6. the user guide's template: every page's text, and no verbatim code
help="$source/ui/app-windows/help"
if [ "$have_help" = true ]; then
  ninja -C "$build" warpscope-help-pot >"$log" 2>&1 || { cat "$log"; echo "not ok: the guide's .pot did not build"; exit 1; }
  for page in "$help"/*.page; do
    name=$(basename "$page")
    if grep -q "^#: $name:" "$help/warpscope-help.pot"; then
      echo "ok: the guide's .pot has $name"
    else
      echo "not ok: the guide's .pot has nothing of $name (is it in ui/app-windows/help/meson.build?)"
      failed=1
    fi
  done
  for s in 'msgid "Welcome to Warpscope"' 'msgid "Choose <guiseq><gui>Global coalescing</gui>'; do
    if grep -qF "$s" "$help/warpscope-help.pot"; then
      echo "ok: the guide's .pot has $s"
    else
      echo "not ok: the guide's .pot lacks $s"; failed=1
    fi
  done
  if grep -qF 'warpscope-cli record -o my-gpu' "$help/warpscope-help.pot"; then
    echo "not ok: the guide's .pot has a command to translate"; failed=1
  fi
  n=$(grep -c '^msgid ' "$help/warpscope-help.pot")
  echo "ok: $help/warpscope-help.pot built, $((n - 1)) strings"
else
  echo "skip: the guide's .pot (no GUI, or itstool missing)"
fi

# 7. a language: a pseudo-translation of the whole .pot ("xx": every string
# in ⟨ ⟩), through WARPSCOPE_LOCALEDIR, shows in what warpscope-cli says to
# a person (help, errors) and in the GPU worker's errors, but not in what
# either writes for a program (JSON keys and words, numbers)
if command -v msginit >/dev/null 2>&1 && command -v msgfilter >/dev/null 2>&1; then
  locale_dir=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-xx.XXXXXX")
  trap 'rm -f "$log"; rm -rf "$locale_dir"' EXIT INT TERM
  mkdir -p "$locale_dir/xx/LC_MESSAGES"
  # leading and trailing newlines stay where they are (msgfmt -c checks)
  # (msginit makes an English catalogue, every string its own translation,
  # with a header msgfmt takes)
  msginit --no-translator --locale=en_US.UTF-8 -i "$pot" -o "$locale_dir/en.po" >"$log" 2>&1 &&
    msgfilter --keep-header -i "$locale_dir/en.po" -o "$locale_dir/xx.po" \
      sed -z -e 's/^\(\n*\)/\1⟨/' -e 's/\(\n*\)$/⟩\1/' 2>>"$log" &&
    msgfmt -c -o "$locale_dir/xx/LC_MESSAGES/warpscope.mo" "$locale_dir/xx.po" 2>>"$log" ||
    { cat "$log"; echo "not ok: the pseudo-translation did not build"; exit 1; }
  echo "ok: pseudo-translation xx built from the .pot"
  cli="$build/app/warpscope-cli"
  worker="$build/app/warpscope-gpu-worker"
  xx () { LANGUAGE=xx LC_ALL=C.UTF-8 WARPSCOPE_LOCALEDIR="$locale_dir" "$@"; }
  check () {  # what, text, expected: yes (translated) or no
    case "$2" in
      *⟨*) got=yes ;;
      *) got=no ;;
    esac
    if [ "$got" = "$3" ]; then
      echo "ok: $1"
    else
      printf 'not ok: %s: %s\n' "$1" "$2"
      failed=1
    fi
  }
  check "in xx, the CLI's error on a bad expression is translated" \
    "$(xx "$cli" model --index '1 +' 2>&1 >/dev/null)" yes
  check "without xx, the same error is English" \
    "$(LC_ALL=C.UTF-8 WARPSCOPE_LOCALEDIR="$locale_dir" "$cli" model --index '1 +' 2>&1 >/dev/null)" no
  check "in xx, the CLI's help is translated" "$(xx "$cli" model --help 2>&1)" yes
  check "in xx, model --json writes no translated word" \
    "$(xx "$cli" model --preset coalescing/stride --json 2>/dev/null)" no
  json=$(xx "$cli" model --preset coalescing/stride --json 2>/dev/null) || true
  case "$json" in
    *'"format" : "warpscope-model"'*'"bound" : '*) echo "ok: in xx, model --json writes its JSON" ;;
    *) echo "not ok: in xx, model --json wrote: $json"; failed=1 ;;
  esac
  # without a GPU, device --json says why: the sentence in the user's
  # language, the word (reason) and the keys in English
  device=$(xx "$cli" device --json 2>/dev/null) || true
  case "$device" in
    *'"reason"'*)
      check "in xx, device --json's error is translated" \
        "$(printf '%s\n' "$device" | sed -n 's/^ *"error" : //p')" yes
      check "in xx, device --json's reason is not" \
        "$(printf '%s\n' "$device" | grep -v '^ *"error" : ')" no ;;
    *) echo "ok: device --json found a GPU here: its error is not looked at" ;;
  esac
  answer=$(printf '{"id":1,"op":"nonsense"}\n' | xx "$worker" 2>/dev/null | head -n 1) || true
  check "in xx, the GPU worker's error is translated" \
    "$(printf '%s\n' "$answer" | sed -n 's/.*"message":\("[^"]*"\).*/\1/p')" yes
  check "in xx, the GPU worker's answer keeps its keys" \
    "$(printf '%s\n' "$answer" | sed 's/"message":"[^"]*"//')" no
else
  echo "skip: the pseudo-translation (msginit or msgfilter missing)"
fi

exit $failed
