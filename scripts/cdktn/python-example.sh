#!/usr/bin/env bash
# `npm run test:python:cdktn` (issue 32): the Python package of the CDK Terrain flavour at work, as
# scripts/python-example.sh does for the cdktf one, after `npm run build && npm run package` built
# dist/cdktn/packages/python/cdktn_eks_karpenter-*.whl:
#  1. a virtualenv with cdktn and the three cdktn provider packages from PyPI (scripts/cdktn/flavour.json
#     `pythonRequirements`), kept outside the repository in ~/.cache/cdktf-eks-karpenter/python-venv-cdktn
#     and rebuilt when those pins change; the wheel is (re)installed into it on every run
#  2. examples/python/ and test/python/ rewritten into a temporary folder with their imports renamed as a
#     user's cdktf app would be (scripts/cdktn/rewrite.cjs --python: cdktf → cdktn, cdktf_cdktf_provider_X →
#     cdktn_provider_X, cdktf_eks_karpenter → cdktn_eks_karpenter; nothing else changes)
#  3. that Python example synthesizes on cdktn, and the TypeScript example too (tsx under
#     scripts/cdktn/register.cjs, the module mapping of npm run test:cdktn); their files must be
#     byte-identical once absolute paths are replaced by placeholders. (The TypeScript example's Terraform
#     on cdktn is held to cdktf's by test/cdktn/example-terraform.cdktn-test.ts.)
#  4. test/python/ (unittest), rewritten, on cdktn
# Before those, the README's minimal Python app (section "CDK Terrain") runs as written from an empty folder:
# both its stacks, by cdktn, with the Helm releases, the queue, the EC2NodeClass and the NodePool.
# Prints the time of each step. A missing wheel or an unreachable PyPI ends the run with SKIP naming it
# (exit 0) only when CDKTN_PYTHON_SKIP_MISSING=1; otherwise it fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
export CHECKPOINT_DISABLE=1 JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/cdktf-eks-karpenter"
venv="$cache/python-venv-cdktn"
python="${PYTHON:-python3}"
say() { echo "python-example-cdktn: $*"; }
missing() {
  if [ "${CDKTN_PYTHON_SKIP_MISSING:-}" = 1 ]; then
    say "SKIP: $*"
    exit 0
  fi
  say "$*" >&2
  exit 1
}

shopt -s nullglob
wheels=(dist/cdktn/packages/python/cdktn_eks_karpenter-*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
  missing "expected one wheel in dist/cdktn/packages/python/, found ${#wheels[@]}: run npm run build && npm run package"
fi

t0=$SECONDS
pins="$(node -p 'require("./scripts/cdktn/flavour.json").pythonRequirements.slice().sort().join("\n")')"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.pins" 2>/dev/null)" != "$pins" ]; then
  say "creating $venv ($("$python" --version)): $(echo "$pins" | tr '\n' ' ')"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  # shellcheck disable=SC2086
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pins; then
    rm -rf "$venv"
    missing "pip could not install $(echo "$pins" | tr '\n' ' ')(PyPI)"
  fi
  printf '%s' "$pins" >"$venv/.pins"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}"
# the wheel's own requirements must be met by the pins (pip check names any that is not)
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null || {
  "$venv/bin/python" -m pip check --disable-pip-version-check >&2
  exit 1
}
say "virtualenv ready with ${wheels[0]##*/} and $(echo "$pins" | tr '\n' ' ')($((SECONDS - t0)) s)"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# the rewritten example and tests, laid out as in the repository (test/python reads README.md and docs/)
node scripts/cdktn/rewrite.cjs --python examples/python "$out/repo/examples/python"
node scripts/cdktn/rewrite.cjs --python test/python "$out/repo/test/python"
ln -s "$root/README.md" "$out/repo/README.md"
ln -s "$root/docs" "$out/repo/docs"

# the README's minimal Python app ("CDK Terrain", "Python on cdktn"), run as written from an empty folder
ta=$SECONDS
mkdir -p "$out/readme-app"
node -e '
  const text = require("fs").readFileSync("README.md", "utf8");
  const section = text.slice(text.indexOf("\n## CDK Terrain\n"), text.indexOf("\n## Python\n"));
  const block = [...section.matchAll(/\n```python\n([\s\S]*?)\n```\n/g)].map((m) => m[1]).find((b) => b.includes("from cdktn import"));
  if (!block) throw new Error("README.md: no ```python block with `from cdktn import` in the CDK Terrain section");
  process.stdout.write(block + "\n");
' >"$out/readme-app/main.py"
(cd "$out/readme-app" && CDKTF_OUTDIR="$out/readme-app/cdktf.out" "$venv/bin/python" main.py)
node -e '
  const fs = require("fs"), path = require("path");
  const [out, version] = process.argv.slice(1);
  const stack = (n) => JSON.parse(fs.readFileSync(path.join(out, "stacks", n, "cdk.tf.json"), "utf8"));
  const count = (s, t) => Object.keys((s.resource || {})[t] || {}).length;
  const install = stack("karpenter"), nodes = stack("karpenter-nodes");
  const problems = [];
  for (const [n, s] of [["karpenter", install], ["karpenter-nodes", nodes]])
    if (s["//"].metadata.version !== version) problems.push(`${n}: framework ${s["//"].metadata.version}, not cdktn ${version}`);
  if (count(install, "helm_release") !== 2) problems.push(`karpenter: ${count(install, "helm_release")} helm_release, not 2`);
  if (count(install, "aws_sqs_queue") !== 1) problems.push(`karpenter: ${count(install, "aws_sqs_queue")} aws_sqs_queue, not 1`);
  if (count(nodes, "kubernetes_manifest") !== 2) problems.push(`karpenter-nodes: ${count(nodes, "kubernetes_manifest")} kubernetes_manifest, not 2 (EC2NodeClass, NodePool)`);
  if (problems.length) { console.error(`python-example-cdktn: the README app: ${problems.join("; ")}`); process.exit(1); }
  console.log(`python-example-cdktn: the README minimal Python app synthesized on cdktn ${version}: karpenter (${Object.values(install.resource).reduce((n, r) => n + Object.keys(r).length, 0)} resources, 2 helm_release), karpenter-nodes (EC2NodeClass, NodePool)`);
' "$out/readme-app/cdktf.out" "$(node -p 'require("./scripts/cdktn/flavour.json").pythonRequirements.find((r) => r.startsWith("cdktn==")).slice(7)')"
say "README app $((SECONDS - ta)) s"

t1=$SECONDS
# the TypeScript example on cdktn: tsx under the module mapping (cdktn-cli itself needs Node >= 22.19)
CDKTF_OUTDIR="$out/ts" NODE_OPTIONS="${NODE_OPTIONS:-} --require $root/scripts/cdktn/register.cjs" \
  node_modules/.bin/tsx examples/eks-karpenter/main.ts
t2=$SECONDS
(cd "$out/repo/examples/python" && CDKTF_OUTDIR="$out/python" "$venv/bin/python" main.py)
t3=$SECONDS
say "synth on cdktn: TypeScript $((t2 - t1)) s, Python $((t3 - t2)) s"

# the framework is cdktn in both (the "//" metadata names its version)
for side in ts python; do
  v="$(node -p 'require(process.argv[1])["//"].metadata.version' "$out/$side/stacks/eks/cdk.tf.json")"
  want="$(node -p 'require("./scripts/cdktn/flavour.json").pythonRequirements.find((r) => r.startsWith("cdktn==")).slice(7)')"
  if [ "$v" != "$want" ]; then
    say "the $side example's eks stack was synthesized by framework version $v, not cdktn $want" >&2
    exit 1
  fi
done

# only absolute paths may differ: the repository, the rewritten copy and the output folder become placeholders
bash scripts/compare-synth-outputs.sh python-example-cdktn "$out/ts" "$out/python" "$out/repo=<REPO>" "$root=<REPO>"

t4=$SECONDS
(cd "$out/repo" && "$venv/bin/python" -m unittest discover -s test/python -v 2>&1 | grep -v "^b'!!")
say "Python tests on cdktn $((SECONDS - t4)) s; total $((SECONDS - t0)) s"
