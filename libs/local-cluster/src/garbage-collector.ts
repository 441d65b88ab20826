import { isAlreadyExists, KubeClient, type KubeObject } from '@regatta/kube';
import { waitFor } from './wait.js';

const PROBE = 'regatta-gc-probe';

/**
 * Waits until kube-controller-manager's garbage collector watches the custom resources just installed.
 *
 * The collector looks for new resources in discovery only every 30 s. Until then an object of a new kind deleted
 * with `propagationPolicy: Orphan` keeps its `orphan` finalizer, and when the collector then lists the new kinds
 * it can handle the owner before it has seen the dependents (different kinds are listed independently): the owner
 * goes without orphaning them and the dependents, owned by an object that no longer exists, are deleted. This
 * happened to a UnitedDeployment's subset CloneSets in a test run that started right after the CRDs were installed.
 *
 * The probe: a cluster-scoped object of `owner`'s kind (created with an empty spec) with a ConfigMap it owns,
 * deleted with Orphan; the owner is gone once the collector watches its kind, and the kinds installed with it were
 * added to the collector's watches in the same pass. Installed CRDs should be served (installCrds) before this.
 */
export async function waitForGarbageCollector(
  kubeconfig: string,
  owner: { apiVersion: string; kind: string },
  timeoutMs = 90_000,
): Promise<void> {
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    await client
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROBE } })
      .catch((e: unknown) => {
        if (!isAlreadyExists(e)) throw e;
      });
    const created = await client.create<KubeObject>({
      ...owner,
      metadata: { generateName: `${PROBE}-` },
      spec: {},
    } as KubeObject);
    const name = created.metadata?.name ?? '';
    await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        generateName: `${PROBE}-`,
        namespace: PROBE,
        ownerReferences: [{ ...owner, name, uid: created.metadata?.uid ?? '' }],
      },
    } as KubeObject);
    await client.delete({ ...owner, name }, { propagationPolicy: 'Orphan' });
    await waitFor(
      `the garbage collector to watch ${owner.kind} (an Orphan delete to finish)`,
      async () => !(await client.getOrUndefined({ ...owner, name })),
      { timeoutMs, intervalMs: 500 },
    );
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: PROBE });
  } finally {
    await client.close();
  }
}
