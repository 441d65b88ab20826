#!/usr/bin/env bash
# Builds OpenKruise's own end-to-end test binary and kruise-manager from the Go module proxy,
# into ${REGATTA_CACHE:-~/.cache/regatta}/openkruise-<version>/bin:
#   kruise-e2e.test   `go test -c ./test/e2e`  (the ginkgo suite, run by tools/compat/run.mjs)
#   kruise-manager    `go build ./`            (upstream's main package is the module root)
# The module is extracted into a writable build folder and built there as the main module, so its
# own go.mod `replace` directives (k8s.io/* pinned to v0.32.x) apply. Idempotent: skipped when
# the cache folder is complete. The version is pinned in tools/compat/versions.ts.
#
#   tools/compat/build.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
eval "$(sed -n "s/^export const \([A-Z_]*\) = '\([^']*\)';$/\1=\2/p" "$root/tools/compat/versions.ts")"
: "${OPENKRUISE_VERSION:?} ${OPENKRUISE_MODULE:?}"
cache=${REGATTA_CACHE:-$HOME/.cache/regatta}
out="$cache/openkruise-$OPENKRUISE_VERSION"
export PATH="$PATH:/usr/local/go/bin"

log() { printf '[compat %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# one build at a time: a second caller waits, then finds the cache complete
mkdir -p "$cache"
exec 9>"$cache/openkruise-$OPENKRUISE_VERSION.lock"
if ! flock -n 9; then
  log "openkruise $OPENKRUISE_VERSION: another build is running; waiting for it"
  flock 9
fi

if [ -f "$out/.complete" ]; then
  log "openkruise $OPENKRUISE_VERSION: cached in $out"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "regatta: Go is needed once, to build OpenKruise's e2e suite and kruise-manager." >&2
  exit 3
fi

export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
t0=$SECONDS
rm -rf "$out"; mkdir -p "$out/bin"

log "openkruise $OPENKRUISE_VERSION: downloading $OPENKRUISE_MODULE@v$OPENKRUISE_VERSION from the module proxy"
dir=$(go mod download -json "$OPENKRUISE_MODULE@v$OPENKRUISE_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -d "$dir" ] || { echo "regatta: the module proxy gave no source folder for $OPENKRUISE_MODULE@v$OPENKRUISE_VERSION" >&2; exit 4; }

src=$(mktemp -d "${TMPDIR:-/tmp}/regatta-build-openkruise.XXXXXX")
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT
cp -r "$dir/." "$src/"; chmod -R u+w "$src"
cd "$src"

log "openkruise $OPENKRUISE_VERSION: resolving dependencies ($((SECONDS - t0)) s so far)"
go mod download

# The e2e binary and the manager share most packages; build the e2e binary first (the spec runner needs it).
log "openkruise $OPENKRUISE_VERSION: compiling the e2e suite (test/e2e) ($((SECONDS - t0)) s so far)"
go test -c -trimpath -o "$out/bin/kruise-e2e.test" ./test/e2e
log "openkruise $OPENKRUISE_VERSION: compiling kruise-manager ($((SECONDS - t0)) s so far)"
go build -trimpath -ldflags "-s -w" -o "$out/bin/kruise-manager" ./
# The CRDs kruise-manager needs, and the e2e specs' sources (the runner lists specs from them).
mkdir -p "$out/config" "$out/src"
cp -r config/crd "$out/config/"
cp -r test/e2e "$out/src/"

printf '%s\n' "$OPENKRUISE_VERSION" > "$out/VERSION"
date -u +%Y-%m-%dT%H:%M:%SZ > "$out/.complete"
log "openkruise $OPENKRUISE_VERSION: done in $((SECONDS - t0)) s ($(du -sh "$out" | cut -f1)) in $out"
