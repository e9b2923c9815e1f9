#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# po-complete: every source file with translatable strings is listed in
# po/POTFILES.in, and every language in po/LINGUAS translates every string
# (no untranslated, no fuzzy). Extracts a fresh template with the keywords
# of meson's "glib" gettext preset, so a string added without a
# translation fails here, not only in a user's session.
set -u
src=${1:?source root}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
fail=0

# 1. coverage of POTFILES.in
grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort > "$tmp/listed"
{ grep -lE '\b(N?_|C_|NC_|g_dngettext)\s*\(' engine/*.c app/*.c ui/*.c kernels/*.c kernels/*.cu kernels/*.cuh 2>/dev/null
  grep -l 'translatable="yes"' ui/*.ui 2>/dev/null; } | sort -u > "$tmp/needed"
missing=$(comm -13 "$tmp/listed" "$tmp/needed")
if [ -n "$missing" ]; then
  echo "FAIL: files with translatable strings missing from po/POTFILES.in:"
  echo "$missing"
  fail=1
fi

# 2. a fresh template, then each language against it
grep -v '^#' po/POTFILES.in | sed '/^$/d' > "$tmp/files"
xgettext --from-code=UTF-8 --add-comments --keyword=_ --keyword=N_ --keyword=C_:1c,2 \
  --keyword=NC_:1c,2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --files-from="$tmp/files" -o "$tmp/roomwave.pot" 2> "$tmp/xgettext.log" || {
  cat "$tmp/xgettext.log"; echo "FAIL: xgettext"; exit 1; }
for lang in $(grep -v '^#' po/LINGUAS); do
  msgmerge --quiet --no-fuzzy-matching "po/$lang.po" "$tmp/roomwave.pot" -o "$tmp/$lang.po" || exit 1
  stats=$(LC_ALL=C msgfmt -c --statistics -o /dev/null "$tmp/$lang.po" 2>&1)
  echo "$lang: $stats"
  if echo "$stats" | grep -qE 'untranslated|fuzzy'; then
    msgattrib --untranslated "$tmp/$lang.po" | grep '^msgid' | head -20
    echo "FAIL: po/$lang.po is incomplete"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "all translations complete"
exit $fail
