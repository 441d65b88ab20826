// Who a scenario file's (or the chaos suite's) programs are on the API server: each its own ServiceAccount with the RBAC the chart gives it
// (deploy/helm/regatta), authenticated by a TokenRequest token, never the run's admin (docs/adr/0054). The tests'
// own client stays admin (CRDs, namespaces, the objects a user creates). REGATTA_TEST_PROGRAMS_ADMIN=1 runs every
// program as admin again, for debugging only (docs/operations.md).
import { join, dirname } from 'node:path';
import { isAlreadyExists, KubeClient } from '@regatta/kube';
import { chartCopy, parseManifests, templateChartAsync, type Manifest } from './chart.js';
import { LocalClusterError } from './errors.js';
import {
  applyManifests,
  movedToNamespace,
  rbacOf,
  withClusterNameSuffix,
  writeServiceAccountKubeconfig,
} from './program-rbac.js';

/** The namespace of the programs' ServiceAccounts (the chart's release namespace in the tests). */
export const PROGRAMS_NAMESPACE = 'regatta-test-programs';
/** Added to the chart's ClusterRole(Binding) names, so the deploy test's own install of the chart stays apart. */
export const PROGRAMS_CLUSTER_SUFFIX = '-scenario';
/** Set to 1: every program runs with the run's admin kubeconfig (debugging only; off by default). */
export const PROGRAMS_ADMIN_ENV = 'REGATTA_TEST_PROGRAMS_ADMIN';
/** The chart renders the Lease Roles here; each lease namespace gets a copy. */
const LEASE_PLACEHOLDER = 'regatta-test-lease-namespace';
/** Tokens are renewed after this long (they are requested for twice as long). */
const TOKEN_REUSE_MS = 60 * 60_000;

/** A program has no ServiceAccount in the chart (an app the chart does not install). */
export class ProgramIdentityError extends LocalClusterError {}

/** Whether REGATTA_TEST_PROGRAMS_ADMIN asks for every program to run as admin. */
export function programsRunAsAdmin(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[PROGRAMS_ADMIN_ENV] === '1' || env[PROGRAMS_ADMIN_ENV] === 'true';
}

/** The chart's ServiceAccount of an app: `regatta-<app>` (the watcher's, a controller's, the node agent's). */
export const serviceAccountOf = (app: string): string => `regatta-${app}`;

/** `system:serviceaccount:<ns>:<sa>`: the user a program of `app` is on the API server. */
export const programUser = (app: string): string =>
  `system:serviceaccount:${PROGRAMS_NAMESPACE}:${serviceAccountOf(app)}`;

/**
 * Where a program elects its leader and keeps its webhook certificates (libs/runtime process-config): the Lease
 * namespace its environment names, as the program itself reads it.
 */
export function leaseNamespaceOf(env: NodeJS.ProcessEnv): string {
  return env['REGATTA_LEASE_NAMESPACE'] || env['POD_NAMESPACE'] || 'kube-system';
}

interface Rendered {
  /** The Roles and RoleBindings of the Lease namespace (in LEASE_PLACEHOLDER). */
  leaseRbac: Manifest[];
  serviceAccounts: Set<string>;
}

const rendered = new Map<string, Promise<Rendered>>();
const leases = new Map<string, Promise<void>>();
const tokens = new Map<string, { file: Promise<string>; at: number }>();

/** Memoizes a promise under `key`, forgetting it when it fails (the next caller tries again). */
function once<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    p = make();
    map.set(key, p);
    p.catch(() => map.delete(key));
  }
  return p;
}

/**
 * Renders the chart (every controller on) and applies its ServiceAccounts, ClusterRoles and the Roles of its fixed
 * namespaces; once per process.
 */
function chartRbac(kubeconfig: string): Promise<Rendered> {
  return once(rendered, kubeconfig, async () => {
    const chart = chartCopy();
    let rbac: Manifest[];
    let namespaces: Manifest[];
    try {
      const text = await templateChartAsync(
        chart.dir,
        [
          'bus.url=nats://127.0.0.1:4222',
          `leaseNamespace=${LEASE_PLACEHOLDER}`,
          // each file's programs serve its own namespace scope, so their webhook configurations carry names the
          // chart, rendered once without a scope, cannot pin (deploy/helm/regatta values.yaml rbac)
          'rbac.pinWebhookConfigurationNames=false',
        ],
        PROGRAMS_NAMESPACE,
      );
      const manifests = parseManifests(text);
      // namespaces the chart installs for a program's RBAC (the imagepull program's kruise-daemon-config)
      namespaces = manifests.filter((m) => m.kind === 'Namespace');
      rbac = withClusterNameSuffix(rbacOf(manifests), PROGRAMS_CLUSTER_SUFFIX);
    } finally {
      chart.dispose();
    }
    const client = KubeClient.fromKubeconfigFile(kubeconfig);
    try {
      await client
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROGRAMS_NAMESPACE } })
        .catch((e: unknown) => {
          if (!isAlreadyExists(e)) throw e;
        });
    } finally {
      await client.close();
    }
    const serviceAccounts = rbac.filter((m) => m.kind === 'ServiceAccount');
    // all but the Lease Roles: the ServiceAccounts, the ClusterRoles, the Roles of the chart's fixed namespaces
    await applyManifests(kubeconfig, [
      ...namespaces,
      ...serviceAccounts,
      ...rbac.filter((m) => m.kind !== 'ServiceAccount' && m.metadata.namespace !== LEASE_PLACEHOLDER),
    ]);
    return {
      leaseRbac: rbac.filter((m) => m.metadata.namespace === LEASE_PLACEHOLDER),
      serviceAccounts: new Set(serviceAccounts.map((m) => m.metadata.name)),
    };
  });
}

/**
 * A kubeconfig for a program of `app`: a TokenRequest token of its chart ServiceAccount, whose chart RBAC is applied
 * (the ClusterRoles once, the Lease Roles in `leaseNamespace` once each). Tokens are shared by a process's programs
 * of one app and renewed after an hour. With REGATTA_TEST_PROGRAMS_ADMIN ({@link programsRunAsAdmin}): the admin
 * kubeconfig itself.
 */
export async function programKubeconfig(o: {
  app: string;
  adminKubeconfig: string;
  leaseNamespace: string;
}): Promise<string> {
  if (programsRunAsAdmin()) return o.adminKubeconfig;
  const { leaseRbac, serviceAccounts } = await chartRbac(o.adminKubeconfig);
  const sa = serviceAccountOf(o.app);
  if (!serviceAccounts.has(sa)) {
    throw new ProgramIdentityError(
      'REGATTA_PROGRAM_IDENTITY',
      `the chart has no ServiceAccount ${sa} for the program ${o.app}: start it with { admin: true } and say why`,
    );
  }
  await once(leases, `${o.adminKubeconfig}\u0000${o.leaseNamespace}`, () =>
    applyManifests(o.adminKubeconfig, movedToNamespace(leaseRbac, LEASE_PLACEHOLDER, o.leaseNamespace)),
  );
  const key = `${o.adminKubeconfig}\u0000${o.app}`;
  const held = tokens.get(key);
  if (held && Date.now() - held.at < TOKEN_REUSE_MS) return held.file;
  const file = writeServiceAccountKubeconfig({
    kubeconfig: o.adminKubeconfig,
    namespace: PROGRAMS_NAMESPACE,
    serviceAccount: sa,
    file: join(dirname(o.adminKubeconfig), 'program-identities', `${sa}-${process.pid}.kubeconfig`),
    expirationSeconds: (2 * TOKEN_REUSE_MS) / 1000,
  });
  tokens.set(key, { file, at: Date.now() });
  file.catch(() => tokens.delete(key));
  return file;
}
