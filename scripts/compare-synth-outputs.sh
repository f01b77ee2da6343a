#!/usr/bin/env bash
# compare-synth-outputs.sh <label> <ts-out> <python-out> [<path>=<placeholder> ...]
# Holds two synthesized outputs (the TypeScript and the Python example's) to the same files, byte for byte, once
# the absolute paths given become placeholders (the output folders, the repository); prints how many files agree.
# Used by scripts/python-example.sh (cdktf) and scripts/cdktn/python-example.sh (cdktn).
set -euo pipefail
label=$1 ts=$2 py=$3
shift 3
subst=(-e "s|$ts|<OUT>|g" -e "s|$py|<OUT>|g")
for pair in "$@"; do subst+=(-e "s|${pair%%=*}|${pair#*=}|g"); done
normalise() { sed "${subst[@]}" "$1"; }
ts_files="$(cd "$ts" && find . -type f | sort)"
py_files="$(cd "$py" && find . -type f | sort)"
if [ "$ts_files" != "$py_files" ]; then
  echo "$label: the two outputs hold different files:" >&2
  diff <(echo "$ts_files") <(echo "$py_files") >&2 || true
  exit 1
fi
n=0
while IFS= read -r f; do
  if ! cmp -s <(normalise "$ts/$f") <(normalise "$py/$f"); then
    echo "$label: $f differs between the TypeScript and the Python example:" >&2
    diff <(normalise "$ts/$f") <(normalise "$py/$f") | head -n 20 >&2 || true
    exit 1
  fi
  n=$((n + 1))
done <<<"$ts_files"
echo "$label: the Python example's $n files equal the TypeScript example's byte for byte"
