#!/usr/bin/env bash
# The Python package at work (issue 22), after `npm run package` built dist/packages/python/*.whl:
#  1. a virtualenv with cdktf 0.21.0 and the three cdktf provider packages (examples/python/requirements.txt),
#     kept outside the repository in ~/.cache/cdktf-eks-karpenter/python-venv and rebuilt when the pins change;
#     the wheel is (re)installed into it on every run
#  2. examples/python/ (the main example app written in Python) and examples/eks-karpenter/ (TypeScript)
#     synthesize into two temporary folders; their files must be byte-identical once absolute paths
#     (the repository, the output folder) are replaced by placeholders; both refuse a set but empty
#     PUBLIC_ACCESS_CIDRS (and host bits, leading zeros) with the same message
#  3. test/python/ (unittest): an invalid prop raises with the library's full message; synth-time problems
#     come back from AppValidation.validate() as structs; limits and the kubelet pod count take one type each
# Times of each step are printed. Fails on the first difference, naming the file and the first differing line.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CHECKPOINT_DISABLE=1 JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/cdktf-eks-karpenter"
venv="$cache/python-venv"
python="${PYTHON:-python3}"

shopt -s nullglob
wheels=(dist/packages/python/cdktf_eks_karpenter-*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
  echo "python-example: expected one wheel in dist/packages/python/, found ${#wheels[@]}: run npm run build && npm run package" >&2
  exit 1
fi

t0=$SECONDS
pins="$(grep -v '^#' examples/python/requirements.txt | sed '/^$/d' | sort)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.pins" 2>/dev/null)" != "$pins" ]; then
  echo "python-example: creating $venv ($("$python" --version))"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r examples/python/requirements.txt
  printf '%s' "$pins" >"$venv/.pins"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}"
echo "python-example: virtualenv ready with ${wheels[0]##*/} ($((SECONDS - t0)) s)"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
t1=$SECONDS
CDKTF_OUTDIR="$out/ts" npx tsx examples/eks-karpenter/main.ts
t2=$SECONDS
(cd examples/python && CDKTF_OUTDIR="$out/python" "$venv/bin/python" main.py)
t3=$SECONDS
echo "python-example: synth TypeScript $((t2 - t1)) s, Python $((t3 - t2)) s"

# only absolute paths may differ: the repository and the output folder become placeholders
bash scripts/compare-synth-outputs.sh python-example "$out/ts" "$out/python" "$root=<REPO>"

# the refusals the user reads are the same text too: a set but empty PUBLIC_ACCESS_CIDRS (issue 31), host bits and
# leading zeros (the aws provider refuses both at plan)
for cidrs in ' , ' '203.0.113.7/24' '010.0.0.0/8'; do
  ts_msg="$(PUBLIC_ACCESS_CIDRS="$cidrs" npx tsx -e 'import { readConfig } from "./examples/eks-karpenter/config"; try { readConfig(); } catch (e) { console.log((e as Error).message); }')"
  py_msg="$(cd examples/python && PUBLIC_ACCESS_CIDRS="$cidrs" "$venv/bin/python" -c 'from config import read_config
try:
    read_config()
except ValueError as e:
    print(e)')"
  if [ -z "$ts_msg" ] || [ "$ts_msg" != "$py_msg" ]; then
    echo "python-example: PUBLIC_ACCESS_CIDRS=\"$cidrs\" is refused differently:" >&2
    diff <(echo "$ts_msg") <(echo "$py_msg") >&2 || true
    exit 1
  fi
done
echo "python-example: both examples refuse an empty PUBLIC_ACCESS_CIDRS, host bits and leading zeros with the same message"

t4=$SECONDS
"$venv/bin/python" -m unittest discover -s test/python -v 2>&1 | grep -v "^b'!!"
echo "python-example: Python tests $((SECONDS - t4)) s; total $((SECONDS - t0)) s"
