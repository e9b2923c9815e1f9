#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# spdx: every file of the project carries its licence — an
# SPDX-License-Identifier line in its first five lines, or a path that
# REUSE.toml annotates (the data files that cannot hold a comment). Lists
# the files that do neither. Skipped outside a git checkout.
set -u
src=${1:?source root}
cd "$src" || exit 1
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
# REUSE.toml's globs as bash patterns
mapfile -t globs < <(python3 - <<'PY'
import re
text = open("REUSE.toml").read()
for block in re.findall(r"path\s*=\s*\[(.*?)\]", text, re.S):
    for g in re.findall(r'"([^"]+)"', block):
        print(g)
PY
)
missing=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  [ "$f" = REUSE.toml ] && continue
  covered=0
  for g in "${globs[@]}"; do
    # ** and * both match across folders here (bash [[ == ]] semantics)
    pat=${g//\*\*/*}
    if [[ $f == $pat ]]; then covered=1; break; fi
  done
  [ $covered = 1 ] && continue
  if ! head -n 5 "$f" | grep -q "SPDX-License-Identifier: "; then
    echo "no SPDX licence line: $f"
    missing=$((missing + 1))
  fi
done < <(git ls-files --cached --others --exclude-standard)
echo "$missing file(s) without a licence"
[ $missing = 0 ]
