// The RBAC the chart gives each program (deploy/helm/regatta templates/_rbac.tpl, controllers.yaml, watcher.yaml,
// imagepull-agent.yaml), applied to a cluster, and a kubeconfig that carries a TokenRequest token of a program's own
// ServiceAccount, as a pod's projected token is: so tests run a program with the rights it has when installed, not
// as cluster-admin (docs/adr/0054). Shared by the chart's deploy test (tools/deploy) and the scenario tests
// (program-identities.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, stringify } from 'yaml';
import { KubeClient } from '@regatta/kube';
import type { Manifest } from './chart.js';
import { LocalClusterError } from './errors.js';
import { writePrivateFile } from './private-file.js';
import { applyObjects } from './resources.js';

export const RBAC_KINDS: ReadonlySet<string> = new Set([
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
]);
const CLUSTER_SCOPED = new Set(['ClusterRole', 'ClusterRoleBinding']);

/** The ServiceAccounts, Roles, ClusterRoles and their bindings among rendered manifests. */
export function rbacOf(manifests: readonly Manifest[]): Manifest[] {
  return manifests.filter((m) => RBAC_KINDS.has(m.kind));
}

export const isClusterScoped = (m: Manifest): boolean => CLUSTER_SCOPED.has(m.kind);

interface Rule {
  resources?: string[];
  resourceNames?: string[];
  [key: string]: unknown;
}
interface RoleRef {
  kind: string;
  name: string;
  [key: string]: unknown;
}

/**
 * The manifests with `suffix` added to the name of every ClusterRole and ClusterRoleBinding, to every reference to
 * such a ClusterRole (roleRef, a rule's resourceNames of `clusterroles`): so the RBAC of several installations (the
 * scenario tests', the deploy test's) can live on one cluster without one rebinding the other's ClusterRoles.
 */
export function withClusterNameSuffix(manifests: readonly Manifest[], suffix: string): Manifest[] {
  if (!suffix) return [...manifests];
  const renamed = new Set(manifests.filter((m) => m.kind === 'ClusterRole').map((m) => m.metadata.name));
  const rename = (name: string) => (renamed.has(name) ? `${name}${suffix}` : name);
  return manifests.map((m) => {
    const out: Manifest = structuredClone(m);
    if (isClusterScoped(m)) out.metadata.name = `${m.metadata.name}${suffix}`;
    const ref = out['roleRef'] as RoleRef | undefined;
    if (ref?.kind === 'ClusterRole') out['roleRef'] = { ...ref, name: rename(ref.name) };
    const rules = out['rules'] as Rule[] | undefined;
    if (rules) {
      out['rules'] = rules.map((r) =>
        r.resources?.includes('clusterroles') && r.resourceNames
          ? { ...r, resourceNames: r.resourceNames.map(rename) }
          : r,
      );
    }
    return out;
  });
}

/** The namespaced manifests of namespace `from`, moved into `to` (the others left out). */
export function movedToNamespace(manifests: readonly Manifest[], from: string, to: string): Manifest[] {
  return manifests
    .filter((m) => m.metadata.namespace === from)
    .map((m) => {
      const out: Manifest = structuredClone(m);
      out.metadata.namespace = to;
      return out;
    });
}

/** Server-side applies the manifests with the admin `kubeconfig` (create or update; the same apply twice is a no-op). */
export async function applyManifests(kubeconfig: string, manifests: readonly Manifest[]): Promise<void> {
  await applyObjects(kubeconfig, [...manifests]);
}

/** A TokenRequest (`kubectl create token`): a token of the ServiceAccount, valid `expirationSeconds`. */
export async function requestServiceAccountToken(
  client: KubeClient,
  namespace: string,
  serviceAccount: string,
  expirationSeconds = 7200,
): Promise<string> {
  const answer = await client.request<{ status?: { token?: string } }>(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds },
      },
    },
  );
  const token = answer.status?.token;
  if (!token) {
    throw new LocalClusterError(
      'REGATTA_TOKEN_REQUEST',
      `the TokenRequest for ${namespace}/${serviceAccount} returned no token`,
    );
  }
  return token;
}

interface KubeconfigFile {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  contexts?: { name: string; context: { cluster: string } }[];
  'current-context'?: string;
}

/** A kubeconfig (YAML) for the cluster of `adminKubeconfig` (its current context's) as `user` with `token`. */
export function tokenKubeconfig(adminKubeconfig: string, user: string, token: string): string {
  const admin = parse(adminKubeconfig) as KubeconfigFile;
  const current = admin.contexts?.find((c) => c.name === admin['current-context']);
  const cluster = admin.clusters.find((c) => c.name === current?.context.cluster) ?? admin.clusters[0];
  if (!cluster)
    throw new LocalClusterError('REGATTA_KUBECONFIG_NO_CLUSTER', 'the kubeconfig names no cluster');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [cluster],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: cluster.name, user } }],
    'current-context': user,
  });
}

/**
 * Writes `file` (mode 0600): a kubeconfig for the cluster of the admin `kubeconfig`, authenticated by a fresh
 * TokenRequest token of `namespace/serviceAccount`. Returns `file`.
 */
export async function writeServiceAccountKubeconfig(o: {
  kubeconfig: string;
  namespace: string;
  serviceAccount: string;
  file: string;
  expirationSeconds?: number;
}): Promise<string> {
  const client = KubeClient.fromKubeconfigFile(o.kubeconfig);
  try {
    const token = await requestServiceAccountToken(
      client,
      o.namespace,
      o.serviceAccount,
      o.expirationSeconds,
    );
    mkdirSync(dirname(o.file), { recursive: true });
    await writePrivateFile(
      o.file,
      tokenKubeconfig(readFileSync(o.kubeconfig, 'utf8'), o.serviceAccount, token),
    );
    return o.file;
  } finally {
    await client.close();
  }
}
