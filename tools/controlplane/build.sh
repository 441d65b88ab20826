#!/usr/bin/env bash
# Builds the binaries of Regatta's local control plane from Go modules, into a cache outside
# the repo keyed by component and version: ${REGATTA_CACHE:-~/.cache/regatta}/<component>-<version>/bin.
# Idempotent: a component whose cache folder is complete is skipped.
#
#   tools/controlplane/build.sh [component ...]     components: kubernetes etcd nats jaeger helm
#                                                   kubelet containerd runc cni crane, or `node` for those five
#                                                   (default: the control plane, all but helm and the node)
#
# Versions are pinned in libs/local-cluster/src/versions.ts, which the TypeScript side uses to find them.
# REGATTA_KUBERNETES_VERSION=X.Y.Z builds another Kubernetes release instead of the pinned one (into
# kubernetes-X.Y.Z); tests run with the same variable set use it (libs/local-cluster locateBinaries).
# docs/operations.md "Supported Kubernetes versions" lists the releases known to build and pass.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
eval "$(sed -n "s/^export const \([A-Z_]*\) = '\([^']*\)';$/\1=\2/p" "$root/libs/local-cluster/src/versions.ts")"
: "${KUBERNETES_VERSION:?} ${ETCD_VERSION:?} ${NATS_VERSION:?} ${JAEGER_VERSION:?} ${HELM_VERSION:?} ${GO_MOD_DIRECTIVE:?}"
: "${CONTAINERD_VERSION:?} ${RUNC_VERSION:?} ${CNI_PLUGINS_VERSION:?} ${CRANE_VERSION:?}"
KUBERNETES_VERSION=${REGATTA_KUBERNETES_VERSION:-$KUBERNETES_VERSION}
if ! [[ $KUBERNETES_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "regatta: REGATTA_KUBERNETES_VERSION must be a release like 1.36.3 (no leading v), not '$KUBERNETES_VERSION'" >&2
  exit 2
fi
cache=${REGATTA_CACHE:-$HOME/.cache/regatta}

if ! command -v go >/dev/null 2>&1; then
  echo "regatta: Go is needed once, to build the local control plane (kube-apiserver, etcd, nats-server, jaeger)." >&2
  echo "         Install Go ${GO_MOD_DIRECTIVE%.0} or newer (https://go.dev/doc/install, or your distribution's golang package) and run this again." >&2
  exit 3
fi

export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

log() { printf '[controlplane %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# $1 component name, $2 version; sets $out. Returns 0 when already built.
prepare() {
  out="$cache/$1-$2"
  if [ -f "$out/.complete" ]; then
    log "$1 $2: cached in $out"
    return 0
  fi
  rm -rf "$out"; mkdir -p "$out/bin"
  return 1
}

# A throw-away wrapper module; prints its path.
wrapper() {
  local w; w=$(mktemp -d "${TMPDIR:-/tmp}/regatta-build-$1.XXXXXX")
  printf 'module local/regatta-build-%s\n\ngo %s\n' "$1" "$GO_MOD_DIRECTIVE" > "$w/go.mod"
  echo "$w"
}

finish() {
  date -u +%Y-%m-%dT%H:%M:%SZ > "$out/.complete"
  log "$1: done in $2 s ($(du -sh "$out" | cut -f1))"
}

# The wrapper module for a k8s.io/kubernetes command: k8s.io/kubernetes pins its staging modules to v0.0.0, so each is
# replaced with its v0.x tag. Sets $w (the module, current directory) and $ld (version stamps as the release build sets).
kubernetes_wrapper() {
  local mod minor p
  w=$(wrapper "$1"); cd "$w"
  mod=$(go mod download -json "k8s.io/kubernetes@v$KUBERNETES_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  grep -E '^godebug ' "$mod" >> go.mod || true
  for m in $(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$mod"); do
    go mod edit -replace="$m=$m@v0.${KUBERNETES_VERSION#1.}"
  done
  minor=$(echo "$KUBERNETES_VERSION" | cut -d. -f2); ld="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $p.gitVersion=v$KUBERNETES_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.buildDate=2000-01-01T00:00:00Z"
  done
}

build_kubernetes() {
  prepare kubernetes "$KUBERNETES_VERSION" && return 0
  local t0=$SECONDS w ld
  log "kubernetes $KUBERNETES_VERSION: resolving modules (k8s.io/kubernetes pins its staging modules to v0.0.0; replacing each with its v0.x tag)"
  kubernetes_wrapper kubernetes
  go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v$KUBERNETES_VERSION" \
               "k8s.io/kubernetes/cmd/kube-controller-manager@v$KUBERNETES_VERSION" \
               "k8s.io/kubernetes/cmd/kube-scheduler@v$KUBERNETES_VERSION" \
               "k8s.io/kubernetes/cmd/kubectl@v$KUBERNETES_VERSION"
  for c in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
    log "kubernetes $KUBERNETES_VERSION: compiling $c ($((SECONDS - t0)) s so far)"
    go build -trimpath -tags notest -ldflags "$ld" -o "$out/bin/$c" "k8s.io/kubernetes/cmd/$c"
  done
  "$out/bin/kube-apiserver" --version
  cd /; rm -rf "$w"
  finish kubernetes $((SECONDS - t0))
}

build_etcd() {
  prepare etcd "$ETCD_VERSION" && return 0
  local t0=$SECONDS w
  log "etcd $ETCD_VERSION: resolving modules"
  w=$(wrapper etcd); cd "$w"
  go get -tool "go.etcd.io/etcd/server/v3@v$ETCD_VERSION"
  log "etcd $ETCD_VERSION: compiling"
  go build -trimpath -ldflags "-s -w" -o "$out/bin/etcd" go.etcd.io/etcd/server/v3
  "$out/bin/etcd" --version | head -1
  cd /; rm -rf "$w"
  finish etcd $((SECONDS - t0))
}

build_nats() {
  prepare nats "$NATS_VERSION" && return 0
  local t0=$SECONDS w
  log "nats-server $NATS_VERSION: resolving modules"
  w=$(wrapper nats); cd "$w"
  go get -tool "github.com/nats-io/nats-server/v2@v$NATS_VERSION"
  log "nats-server $NATS_VERSION: compiling"
  go build -trimpath -ldflags "-s -w" -o "$out/bin/nats-server" github.com/nats-io/nats-server/v2
  "$out/bin/nats-server" --version
  cd /; rm -rf "$w"
  finish nats-server $((SECONDS - t0))
}

build_jaeger() {
  prepare jaeger "$JAEGER_VERSION" && return 0
  local t0=$SECONDS w
  log "jaeger $JAEGER_VERSION: resolving modules (the largest of the set)"
  w=$(wrapper jaeger); cd "$w"
  # Jaeger's own go.mod pins sarama with a replace; a wrapper must repeat it to build the same graph.
  printf '\nreplace github.com/Shopify/sarama => github.com/Shopify/sarama v1.33.0\n' >> go.mod
  go get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@v$JAEGER_VERSION"
  log "jaeger $JAEGER_VERSION: compiling"
  go build -trimpath -ldflags "-s -w" -o "$out/bin/jaeger" github.com/jaegertracing/jaeger/cmd/jaeger
  cd /; rm -rf "$w"
  finish jaeger $((SECONDS - t0))
}

# helm (deploy/helm's lint, template and dry-run tests); not needed by the sandbox.
build_helm() {
  prepare helm "$HELM_VERSION" && return 0
  local t0=$SECONDS w major=${HELM_VERSION%%.*} p ld="-s -w"
  log "helm $HELM_VERSION: resolving modules"
  w=$(wrapper helm); cd "$w"
  go get -tool "helm.sh/helm/v$major/cmd/helm@v$HELM_VERSION"
  # `helm version` prints what the release build stamps; a module build must stamp it itself.
  p="helm.sh/helm/v$major/internal/version"
  ld="$ld -X $p.version=v$HELM_VERSION -X $p.gitTreeState=clean"
  log "helm $HELM_VERSION: compiling"
  go build -trimpath -ldflags "$ld" -o "$out/bin/helm" "helm.sh/helm/v$major/cmd/helm"
  "$out/bin/helm" version --short
  cd /; rm -rf "$w"
  finish helm $((SECONDS - t0))
}

# --- A real node's components (docs/real-nodes.md); `node` builds all five. ---

# kubelet: the pinned Kubernetes, same wrapper module as the control plane, its own cache folder (kubelet-<version>)
# so a node build never touches the control plane's. Fast when the kube-apiserver build left the Go cache warm.
build_kubelet() {
  prepare kubelet "$KUBERNETES_VERSION" && return 0
  local t0=$SECONDS w ld
  log "kubelet $KUBERNETES_VERSION: resolving modules"
  kubernetes_wrapper kubelet
  go get -tool "k8s.io/kubernetes/cmd/kubelet@v$KUBERNETES_VERSION"
  log "kubelet $KUBERNETES_VERSION: compiling"
  go build -trimpath -tags notest -ldflags "$ld" -o "$out/bin/kubelet" k8s.io/kubernetes/cmd/kubelet
  "$out/bin/kubelet" --version
  cd /; rm -rf "$w"
  finish kubelet $((SECONDS - t0))
}

# containerd, ctr and the runc shim (upstream Makefile: GO_BUILDTAGS no_btrfs when btrfs headers are absent).
build_containerd() {
  prepare containerd "$CONTAINERD_VERSION" && return 0
  local t0=$SECONDS w m=github.com/containerd/containerd/v2
  log "containerd $CONTAINERD_VERSION: resolving modules"
  w=$(wrapper containerd); cd "$w"
  go get -tool "$m/cmd/containerd@v$CONTAINERD_VERSION" "$m/cmd/ctr@v$CONTAINERD_VERSION" \
               "$m/cmd/containerd-shim-runc-v2@v$CONTAINERD_VERSION"
  log "containerd $CONTAINERD_VERSION: compiling"
  go build -trimpath -tags no_btrfs -ldflags "-s -w -X $m/version.Version=v$CONTAINERD_VERSION" -o "$out/bin/" \
    "$m/cmd/containerd" "$m/cmd/ctr" "$m/cmd/containerd-shim-runc-v2"
  "$out/bin/containerd" --version
  cd /; rm -rf "$w"
  finish containerd $((SECONDS - t0))
}

# runc with seccomp (cgo + libseccomp): containerd gives every sandbox a seccomp profile, and a runc built without
# it fails them all ("seccomp: config provided but seccomp not supported").
build_runc() {
  prepare runc "$RUNC_VERSION" && return 0
  local t0=$SECONDS w
  if ! command -v cc >/dev/null 2>&1 || [ ! -f /usr/include/seccomp.h ]; then
    rm -rf "$out"
    echo "regatta: runc needs a C compiler and libseccomp's headers: apt-get install -y gcc libseccomp-dev (Debian/Ubuntu), then run this again." >&2
    exit 4
  fi
  log "runc $RUNC_VERSION: resolving modules"
  w=$(wrapper runc); cd "$w"
  go get -tool "github.com/opencontainers/runc@v$RUNC_VERSION"
  log "runc $RUNC_VERSION: compiling"
  CGO_ENABLED=1 go build -trimpath -tags seccomp -ldflags "-s -w -X main.version=$RUNC_VERSION" -o "$out/bin/runc" \
    github.com/opencontainers/runc
  "$out/bin/runc" --version | head -1
  cd /; rm -rf "$w"
  finish runc $((SECONDS - t0))
}

# The CNI plugins a node's bridge network uses: bridge, host-local (IPAM) and loopback.
build_cni() {
  prepare cni "$CNI_PLUGINS_VERSION" && return 0
  local t0=$SECONDS w m=github.com/containernetworking/plugins/plugins
  log "cni $CNI_PLUGINS_VERSION: resolving modules"
  w=$(wrapper cni); cd "$w"
  go get -tool "$m/main/bridge@v$CNI_PLUGINS_VERSION" "$m/main/loopback@v$CNI_PLUGINS_VERSION" \
               "$m/ipam/host-local@v$CNI_PLUGINS_VERSION"
  log "cni $CNI_PLUGINS_VERSION: compiling"
  go build -trimpath -ldflags "-s -w" -o "$out/bin/" "$m/main/bridge" "$m/main/loopback" "$m/ipam/host-local"
  cd /; rm -rf "$w"
  finish cni $((SECONDS - t0))
}

# crane: the sandbox's registry (`crane registry serve`) and its image builder (`crane append`, `crane mutate`).
build_crane() {
  prepare crane "$CRANE_VERSION" && return 0
  local t0=$SECONDS w
  log "crane $CRANE_VERSION: resolving modules"
  w=$(wrapper crane); cd "$w"
  go get -tool "github.com/google/go-containerregistry/cmd/crane@v$CRANE_VERSION"
  log "crane $CRANE_VERSION: compiling"
  go build -trimpath -ldflags "-s -w" -o "$out/bin/crane" github.com/google/go-containerregistry/cmd/crane
  "$out/bin/crane" version
  cd /; rm -rf "$w"
  finish crane $((SECONDS - t0))
}

components=("$@")
[ ${#components[@]} -gt 0 ] || components=(nats etcd kubernetes jaeger)
for c in "${components[@]}"; do
  case "$c" in
    kubernetes|etcd|nats|jaeger|helm|kubelet|containerd|runc|cni|crane) (build_"$c") ;;
    node) for n in containerd runc cni crane kubelet; do (build_"$n"); done ;;
    *) echo "regatta: unknown component '$c' (known: kubernetes etcd nats jaeger helm kubelet containerd runc cni crane node)" >&2; exit 2 ;;
  esac
done
log "all requested components are in $cache"
