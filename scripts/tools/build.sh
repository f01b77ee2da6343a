#!/usr/bin/env bash
# Builds the real tools `npm run e2e` drives (OpenTofu, Helm v3, the hashicorp providers aws, helm and
# kubernetes) from the Go module proxy into a cache outside the repository:
#   ${CDKTF_EKS_KARPENTER_TOOLS:-~/.cache/cdktf-eks-karpenter/tools}/<name>-<module version>/<binary>
# A tool whose directory holds a `.built` stamp is reused; a version change in versions.txt names a new
# directory, so it is built afresh. Nothing lands in the repository.
#
# Why not `go install module@version`: the providers' go.mod module paths carry no /vN suffix, so their
# release tags are not module versions, and OpenTofu's go.mod has replace directives, which `go install`
# refuses. So each module is fetched with `go mod download` and built inside a writable copy of it.
#
# A tool whose `pkg` column is a full import path (not `.`/`./...`/`pip`/`k8s@...`) is a program inside a module that
# is no main module of its own (the Karpenter controller): it is built in a wrapper module generated here,
# `require <module> <version>`, with the options of the row's optional 7th column, a
# comma-separated list (readers that take the first six columns are unaffected):
#   replace=<old module>=<new module>@<version>   a replace directive of the wrapper (repeatable)
#   toolchain=go1.X.Y                             GOTOOLCHAIN for that build (fetched by go from the proxy)
# Changing the options does not rename the tool's directory: remove it to rebuild.
#
# A `pkg` of `repo:<folder>` is a program of this repository (scripts/e2e/cel-judge: Karpenter's own pkg/cel judging
# kubelet expressions): its .go files are copied into the same generated wrapper module (`require <module> <version>`
# and the 7th column's options) and built there. Its stamp records a hash of those files, so an edit rebuilds it.
#
# Usage: scripts/tools/build.sh [name...]     (default: every tool in versions.txt)
# Env:   TOOLS_BUILD_PARALLEL  go build -p (default 2; 1 halves peak memory of the aws provider link)
#        TOOLS_LOCK_WAIT_SECONDS how long to wait for a tool another build.sh is building (default 5400)
# Every tool is attempted; the summary lists each result and the exit status is 1 if any failed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${CDKTF_EKS_KARPENTER_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/cdktf-eks-karpenter/tools}"
parallel="${TOOLS_BUILD_PARALLEL:-2}"
mkdir -p "$cache/logs" "$cache/.work"
command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 1; }

wanted=("$@")
summary=()
failed=0

build_one() {
  local name="$1" version="$3"
  # one builder per tool: a second build.sh (another checkout's CI, an e2e run) must not clobber the
  # copy the first one is compiling in. It waits for the first instead (then finds the tool cached), up to
  # TOOLS_LOCK_WAIT_SECONDS: giving up at once left e2e without a tool that was minutes from done
  local lock wait="${TOOLS_LOCK_WAIT_SECONDS:-5400}"
  exec {lock}>"$cache/.work/$name-$version.lock"
  if ! flock -n "$lock"; then
    echo "$name $version: being built by another build.sh (lock $cache/.work/$name-$version.lock); waiting up to ${wait}s"
    if ! flock -w "$wait" "$lock"; then
      exec {lock}>&-
      summary+=("$name $version: still being built by another build.sh after ${wait}s (lock $cache/.work/$name-$version.lock); not built by this run")
      failed=1
      return 1
    fi
  fi
  _build_locked "$@"
  local rc=$?
  exec {lock}>&-
  return $rc
}

_build_locked() {
  local name="$1" module="$2" version="$3" pkg="$4" binary="$5" release="$6"
  local dir="$cache/$name-$version" log="$cache/logs/$name-$version.log"
  if [ -f "$dir/.built" ] && [ -x "$dir/$binary" ] &&
     { [[ "$pkg" != repo:* ]] || grep -qx "source=$(_repo_source_hash "${pkg#repo:}")" "$dir/.built"; }; then
    summary+=("$name $version ($release): cached $dir/$binary")
    return 0
  fi
  echo "building $name $module@$version (log: $log)"
  local start=$SECONDS src info moddir
  : >"$log"
  if [ "$pkg" = "pip" ]; then
    # the AWS API emulator: a Python package from PyPI in its own virtualenv, created where it stays
    # (a virtualenv records its absolute path); the stamp is written last, so a half install is redone
    rm -rf "$dir"
    if python3 -m venv "$dir" >>"$log" 2>&1 &&
       "$dir/bin/pip" install --disable-pip-version-check -q "$module==$version" >>"$log" 2>&1; then
      printf 'package=%s\nversion=%s\nbuilt=%s\n' "$module" "$version" "$(date -u +%FT%TZ)" >"$dir/.built"
      summary+=("$name $version: installed in $((SECONDS - start)) s -> $dir/$binary")
      return 0
    fi
    rm -rf "$dir.tmp" "$dir"
    summary+=("$name $module==$version: FAILED pip install: $(tail -n 3 "$log" | tr '\n' ' ')")
    failed=1
    return 1
  fi
  if [[ "$pkg" == k8s@* ]]; then
    _build_in_k8s_wrapper "$@"
    return $?
  fi
  case "$pkg" in
    .|./*) ;;
    *) _build_wrapper "$@"; return $? ;;
  esac
  info="$(go mod download -json "$module@$version" 2>>"$log")"
  moddir="$(printf '%s' "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  if [ -z "$moddir" ] || [ ! -d "$moddir" ]; then
    local err
    err="$(printf '%s' "$info" | sed -n 's/^[[:space:]]*"Error": "\(.*\)"$/\1/p')"
    printf '%s\n' "$info" >>"$log"
    summary+=("$name $module@$version: FAILED download: ${err:-see $log}")
    failed=1
    return 1
  fi
  src="$cache/.work/$name-$version"
  rm -rf "$src" && cp -r "$moddir" "$src" && chmod -R u+w "$src"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  if (cd "$src" && GOFLAGS="-buildvcs=false -p=$parallel" /usr/bin/env go build -trimpath -ldflags="-s -w" \
        -o "$dir.tmp/$binary" "$pkg") >>"$log" 2>&1; then
    printf 'module=%s\nversion=%s\nrelease=%s\ngo=%s\nbuilt=%s\nseconds=%s\n' "$module" "$version" "$release" \
      "$(go env GOVERSION)" "$(date -u +%FT%TZ)" "$((SECONDS - start))" >"$dir.tmp/.built"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    rm -rf "$src"
    summary+=("$name $version ($release): built in $((SECONDS - start)) s -> $dir/$binary")
  else
    rm -rf "$dir.tmp" "$src"
    summary+=("$name $module@$version: FAILED build after $((SECONDS - start)) s: $(tail -n 3 "$log" | tr '\n' ' ')")
    failed=1
    return 1
  fi
}

# kube-apiserver and etcd: `pkg` is k8s@<kubernetes version>:<import path of the main package>.
# k8s.io/kubernetes replaces its 32 k8s.io/* staging modules with ./staging/..., which its module zip does
# not hold, so neither `go install` nor a build inside the module works. Instead a wrapper module is
# written here, at build time, from the downloaded k8s.io/kubernetes go.mod: it requires that version (and
# the tool's own module), and replaces each k8s.io/X the go.mod replaces with the published k8s.io/X
# v0.<minor>.<patch> (k8s.io/sample-cli-plugin is required by nothing the server needs, and its published
# version is not always there: left out). Nothing of upstream is copied into the repository.
_build_in_k8s_wrapper() {
  local name="$1" module="$2" version="$3" pkg="$4" binary="$5" release="$6"
  local dir="$cache/$name-$version" log="$cache/logs/$name-$version.log"
  local start=$SECONDS spec="${pkg#k8s@}" k8s importpath gomod info staging src
  k8s="${spec%%:*}" importpath="${spec#*:}"
  staging="v0.${k8s#v1.}"
  info="$(go mod download -json "k8s.io/kubernetes@$k8s" 2>>"$log")"
  gomod="$(printf '%s' "$info" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  if [ -z "$gomod" ] || [ ! -f "$gomod" ]; then
    printf '%s\n' "$info" >>"$log"
    summary+=("$name k8s.io/kubernetes@$k8s: FAILED download: $(printf '%s' "$info" | sed -n 's/^[[:space:]]*"Error": "\(.*\)"$/\1/p')")
    failed=1
    return 1
  fi
  src="$cache/.work/$name-$version"
  rm -rf "$src" && mkdir -p "$src"
  {
    echo "// generated by scripts/tools/build.sh from k8s.io/kubernetes@$k8s's go.mod"
    echo "module cdktf-eks-karpenter.local/tools/$name"
    echo
    sed -n 's/^go \(.*\)$/go \1/p' "$gomod" | head -n 1
    echo
    echo "require k8s.io/kubernetes $k8s"
    if [ "$module" != "k8s.io/kubernetes" ]; then echo "require $module $version"; fi
    echo
    echo "replace ("
    sed -n 's/^[[:space:]]*\(k8s\.io\/[A-Za-z0-9._-]*\) => \.\/staging\/.*$/\1/p' "$gomod" |
      grep -vx 'k8s.io/sample-cli-plugin' | while read -r m; do printf '\t%s => %s %s\n' "$m" "$m" "$staging"; done
    echo ")"
  } >"$src/go.mod"
  echo "wrapper go.mod: $(grep -c ' => ' "$src/go.mod") replaces" >>"$log"
  # Helm picks API versions by .Capabilities.KubeVersion (the karpenter chart's PodDisruptionBudget):
  # an unstamped build says v0.0.0-master, so stamp the version the way the Kubernetes build does
  local ldflags="-s -w"
  if [ "$module" = "k8s.io/kubernetes" ]; then
    local major="${version#v}" minor
    minor="${major#*.}" minor="${minor%%.*}" major="${major%%.*}"
    for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ldflags+=" -X $p.gitVersion=$version -X $p.gitMajor=$major -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.buildDate=1970-01-01T00:00:00Z"
    done
  fi
  _go_build_in_wrapper "$name" "$module" "$version" "$release" "$binary" "$src" "$importpath" "$ldflags" "" "kubernetes=$k8s" "$start"
}

# The tail both wrapper builds share: `go build -mod=mod` of `importpath` in the wrapper module `src`
# (GOTOOLCHAIN=`toolchain` when given), the stamp (`stamp`: one more key=value line), the wrapper's go.mod
# kept beside the binary; on failure the wrapper stays for a look and the summary names what the proxy refused.
_go_build_in_wrapper() {
  local name="$1" module="$2" version="$3" release="$4" binary="$5" src="$6" importpath="$7" ldflags="$8" toolchain="$9" stamp="${10}" start="${11}"
  local dir="$cache/$name-$version" log="$cache/logs/$name-$version.log"
  local gotc=()
  [ -n "$toolchain" ] && gotc=("GOTOOLCHAIN=$toolchain")
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  # -mod=mod resolves just what the package imports (not `go mod tidy`, which also wants the modules of
  # every test of the graph: 1.15.0's would need github.com/aws/aws-sdk-go-v2/service/fis@v1.46.1, refused)
  if (cd "$src" && env "${gotc[@]}" GOFLAGS="-buildvcs=false -mod=mod -p=$parallel" go build -trimpath -ldflags="$ldflags" \
        -o "$dir.tmp/$binary" "$importpath") >>"$log" 2>&1; then
    printf 'module=%s\nversion=%s\nrelease=%s\n%s\ngo=%s\nbuilt=%s\nseconds=%s\n' "$module" "$version" "$release" "$stamp" \
      "$(cd "$src" && env "${gotc[@]}" go env GOVERSION)" "$(date -u +%FT%TZ)" "$((SECONDS - start))" >"$dir.tmp/.built"
    cp "$src/go.mod" "$dir.tmp/wrapper.go.mod"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    rm -rf "$src"
    summary+=("$name $version ($release): built in $((SECONDS - start)) s -> $dir/$binary")
  else
    rm -rf "$dir.tmp"
    summary+=("$name $module@$version: FAILED build after $((SECONDS - start)) s (wrapper kept: $src/go.mod): $(grep -E 'refused|not available|40[34]|error' "$log" | head -n 3 | tr '\n' ' ')$(tail -n 2 "$log" | tr '\n' ' ')")
    failed=1
    return 1
  fi
}

# the sha256 of a repo: tool's .go files (names and contents), which its stamp records
_repo_source_hash() {
  (cd "$here/../../$1" && for f in *.go; do printf '%s\n' "$f"; cat "$f"; done) | sha256sum | cut -d' ' -f1
}

# a program in a wrapper module: go.mod requires the module (+ the tool's replaces), `go build -mod=mod`
# resolves the rest through the proxy and links the package (a repo:<folder> program: its .go files, built as `.`)
_build_wrapper() {
  local name="$1" module="$2" version="$3" pkg="$4" binary="$5" release="$6"
  local log="$cache/logs/$name-$version.log" start=$SECONDS
  local opts="$7" src="$cache/.work/$name-$version" toolchain="" ldflags="-s -w" replaces="" o
  local IFS_save="$IFS"
  IFS=','
  for o in $opts; do
    case "$o" in
      toolchain=*) toolchain="${o#toolchain=}" ;;
      replace=*) replaces+="${o#replace=}"$'\n' ;;
    esac
  done
  IFS="$IFS_save"
  rm -rf "$src" && mkdir -p "$src"
  {
    printf 'module e2e.local/%s\n\ngo 1.24\n\nrequire %s %s\n\n' "$name" "$module" "$version"
    local r
    while IFS= read -r r; do
      [ -n "$r" ] || continue
      local old="${r%%=*}" new="${r#*=}"
      printf 'replace %s => %s %s\n' "$old" "${new%@*}" "${new##*@}"
    done <<<"$replaces"
  } >"$src/go.mod"
  echo "wrapper go.mod (GOTOOLCHAIN=${toolchain:-local}):" >>"$log"
  cat "$src/go.mod" >>"$log"
  local importpath="$pkg" stamp="package=$pkg"
  if [[ "$pkg" == repo:* ]]; then
    cp "$here/../../${pkg#repo:}"/*.go "$src/" && importpath="." &&
      stamp="package=$pkg"$'\n'"source=$(_repo_source_hash "${pkg#repo:}")"
  fi
  _go_build_in_wrapper "$name" "$module" "$version" "$release" "$binary" "$src" "$importpath" "$ldflags" "$toolchain" "$stamp" "$start"
}

while read -r name module version pkg binary release opts; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " =~ " $name " ]]; then continue; fi
  build_one "$name" "$module" "$version" "$pkg" "$binary" "$release" "${opts:-}"
done <"$here/versions.txt"

printf '%s\n' "${summary[@]}"
exit $failed
