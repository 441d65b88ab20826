// Pinned versions of the local control plane. tools/controlplane/build.sh reads these lines
// (keep the `export const NAME = 'value';` form); the cache folder is keyed by component and version,
// so changing one rebuilds only that component. REGATTA_KUBERNETES_VERSION overrides KUBERNETES_VERSION for a build
// and a test run (binaries.ts kubernetesVersion); docs/operations.md "Supported Kubernetes versions" lists what passed.
export const KUBERNETES_VERSION = '1.36.3';
export const ETCD_VERSION = '3.6.16';
export const NATS_VERSION = '2.14.5';
export const JAEGER_VERSION = '1.75.0';
// helm is not part of the control plane: tools/controlplane/build.sh helm builds it for the chart's tests (deploy/helm).
export const HELM_VERSION = '4.3.2';
export const GO_MOD_DIRECTIVE = '1.26.0';
// A real node (docs/real-nodes.md): kubelet is built from KUBERNETES_VERSION into its own cache folder (kubelet-<ver>);
// these are the node's runtime pieces, each from its Go module (tools/controlplane/build.sh node).
export const CONTAINERD_VERSION = '2.4.2';
export const RUNC_VERSION = '1.5.3';
export const CNI_PLUGINS_VERSION = '1.10.0';
export const CRANE_VERSION = '0.22.1';
