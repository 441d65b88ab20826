// Pinned versions of the local control plane. tools/controlplane/build.sh reads these lines
// (keep the `export const NAME = 'value';` form); the cache folder is keyed by component and version,
// so changing one rebuilds only that component. REGATTA_KUBERNETES_VERSION overrides KUBERNETES_VERSION for a build
// and a test run (binaries.ts kubernetesVersion); docs/operations.md "Supported Kubernetes versions" lists what passed.
export const KUBERNETES_VERSION = '1.36.3';
export const ETCD_VERSION = '3.6.16';
export const NATS_VERSION = '2.14.5';
export const JAEGER_VERSION = '1.76.0';
// helm is not part of the control plane: tools/controlplane/build.sh helm builds it for the chart's tests (deploy/helm).
export const HELM_VERSION = '4.3.2';
export const GO_MOD_DIRECTIVE = '1.26.0';
