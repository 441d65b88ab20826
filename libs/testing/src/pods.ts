// Pods as a scenario reads them (`kubectl get pod -o yaml`), through `@regatta/api`'s one Pod type.
import type { Pod, PodSpec } from '@regatta/api';
import type { KubeClient } from '@regatta/kube';

export type { Container, ContainerStatus, Pod } from '@regatta/api';

export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
/** The lifecycle state label OpenKruise's workloads set on a pod (`apis/apps/pub/lifecycle.go`). */
export const LIFECYCLE_STATE = 'lifecycle.apps.kruise.io/state';

export const uidOf = (o: { metadata?: { uid?: string } }): string => o.metadata?.uid ?? '';
export const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata?.name ?? '';
export const stateOf = (p: Pod): string | undefined => p.metadata?.labels?.[LIFECYCLE_STATE];
export const conditionOf = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);
export const containerStatus = (p: Pod, name: string) =>
  p.status?.containerStatuses?.find((c) => c.name === name);
export const isReady = (p: Pod): boolean => conditionOf(p, 'Ready')?.status === 'True';

/** A pod's spec as the API server returns it (always with `containers`); a pod read without one fails here. */
export function specOf(p: Pod): PodSpec {
  const spec = p.spec;
  if (!spec?.containers) throw new Error(`pod ${nameOf(p)} has no spec.containers`);
  return { ...spec, containers: spec.containers };
}

/** The image of a pod's first container, as `kubectl get pod -o jsonpath='{.spec.containers[0].image}'`. */
export const imageOf = (p: Pod): string | undefined => specOf(p).containers[0]?.image;

/** The live (not terminating) pods of a namespace. */
export async function livePods(client: KubeClient, ns: string): Promise<Pod[]> {
  return (await client.list<Pod>({ ...POD, namespace: ns })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
}

/** What `kubectl set image` does to a workload: replace the first container's image of its pod template. */
export async function setTemplateImage(
  client: KubeClient,
  ref: { apiVersion: string; kind: string; namespace: string; name: string },
  image: string,
): Promise<void> {
  await client.patch(ref, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }], {
    type: 'json',
  });
}
