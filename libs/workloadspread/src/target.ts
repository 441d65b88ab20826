/**
 * A WorkloadSpread's target as the caches show it: the workload, its replicas (`targetFilter.replicasPathList` summed
 * when given), its pods (those it controls — a Deployment's through its ReplicaSets — that `targetFilter.selector`
 * selects) and its latest version (`pkg/util/workloadspread/workloadspread.go` getWorkloadReplicas,
 * GetWorkloadVersion; `pkg/controller/workloadspread` getPodsForWorkloadSpread).
 */
import type { Pod, WorkloadSpread, WorkloadSpreadTargetReference } from '@regatta/api';
import { groupOf } from '@regatta/api';
import { labelSelectorMatches, type KubeObject } from '@regatta/kube';
import { VERSION_IGNORED } from './matched.js';

/** The caches the target is read from. */
export interface TargetReaders {
  pods: { list(opts?: { namespace?: string; filter?: (o: Pod) => boolean }): Pod[] };
  clonesets: ObjectReader;
  statefulsets: ObjectReader;
  appsstatefulsets: ObjectReader;
  deployments: ObjectReader;
  replicasets: ObjectReader;
  jobs: ObjectReader;
}

interface ObjectReader {
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(opts?: { namespace?: string; filter?: (o: KubeObject) => boolean }): KubeObject[];
}

/** The reader of the target's kind, or undefined for a kind not served. */
function readerOf(r: TargetReaders, ref: WorkloadSpreadTargetReference): ObjectReader | undefined {
  const group = groupOf(ref.apiVersion);
  switch (ref.kind) {
    case 'CloneSet':
      return r.clonesets;
    case 'Deployment':
      return r.deployments;
    case 'ReplicaSet':
      return r.replicasets;
    case 'Job':
      return r.jobs;
    case 'StatefulSet':
      return group === 'apps' ? r.appsstatefulsets : r.statefulsets;
    default:
      return undefined;
  }
}

export const controllerOf = (o: KubeObject) => (o.metadata?.ownerReferences ?? []).find((r) => r.controller);

export function workloadOf(r: TargetReaders, ws: WorkloadSpread): KubeObject | undefined {
  const ref = ws.spec.targetRef;
  return ref ? readerOf(r, ref)?.get(ws.metadata?.namespace, ref.name) : undefined;
}

function numberAt(obj: unknown, path: string): number {
  let v: unknown = obj;
  for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === 'number' ? v : 0;
}

/** The replicas the spread's percentages are of. */
export function targetReplicas(ws: WorkloadSpread, workload: KubeObject | undefined): number {
  if (!workload) return 0;
  const paths = ws.spec.targetFilter?.replicasPathList ?? [];
  if (paths.length > 0) return paths.reduce((sum, p) => sum + numberAt(workload, p), 0);
  const spec = (workload as { spec?: { replicas?: number; parallelism?: number } }).spec ?? {};
  return ws.spec.targetRef.kind === 'Job' ? (spec.parallelism ?? 1) : (spec.replicas ?? 1);
}

/** The target's pods, the target filter applied. */
export function targetPods(r: TargetReaders, ws: WorkloadSpread, workload: KubeObject | undefined): Pod[] {
  const uid = workload?.metadata?.uid;
  if (!uid) return [];
  const namespace = ws.metadata?.namespace;
  const owners = new Set([uid]);
  if (ws.spec.targetRef.kind === 'Deployment') {
    for (const rs of r.replicasets.list({ namespace, filter: (o) => controllerOf(o)?.uid === uid })) owners.add(rs.metadata?.uid ?? '');
  }
  const selector = ws.spec.targetFilter?.selector;
  return r.pods.list({
    namespace,
    filter: (p) => owners.has(controllerOf(p)?.uid ?? '') && (!selector || labelSelectorMatches(selector, p.metadata?.labels ?? {})),
  });
}

/**
 * The workload's latest version: a ReplicaSet's `pod-template-hash`; a Deployment's newest ReplicaSet's (the highest
 * `deployment.kubernetes.io/revision`); every other kind keeps no versions.
 */
export function latestVersion(r: TargetReaders, ws: WorkloadSpread, workload: KubeObject | undefined): string {
  if (!workload) return VERSION_IGNORED;
  const hash = (o: KubeObject) => o.metadata?.labels?.['pod-template-hash'] ?? VERSION_IGNORED;
  if (ws.spec.targetRef.kind === 'ReplicaSet') return hash(workload);
  if (ws.spec.targetRef.kind !== 'Deployment') return VERSION_IGNORED;
  const uid = workload.metadata?.uid;
  const revision = (o: KubeObject) => Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  const sets = r.replicasets
    .list({ namespace: ws.metadata?.namespace, filter: (o) => controllerOf(o)?.uid === uid && !o.metadata?.deletionTimestamp })
    .sort((a, b) => revision(b) - revision(a));
  return sets[0] ? hash(sets[0]) : VERSION_IGNORED;
}

/**
 * The WorkloadSpread (of those given, in the pod's namespace) whose target controls the pod — directly, or through
 * the ReplicaSet of a Deployment — and whose target filter selects it.
 */
export function spreadForPod(
  pod: Pod,
  namespace: string,
  spreads: readonly WorkloadSpread[],
  replicaSet: (name: string) => KubeObject | undefined,
): WorkloadSpread | undefined {
  const owner = controllerOf(pod);
  if (!owner) return undefined;
  const owners: { group: string; kind: string; name: string }[] = [{ group: groupOf(owner.apiVersion), kind: owner.kind, name: owner.name }];
  if (owner.kind === 'ReplicaSet') {
    const rsOwner = controllerOf(replicaSet(owner.name) ?? {});
    if (rsOwner) owners.push({ group: groupOf(rsOwner.apiVersion), kind: rsOwner.kind, name: rsOwner.name });
    else {
      // not cached yet: a Deployment's ReplicaSet is named `<deployment>-<pod-template-hash>`
      const hash = pod.metadata?.labels?.['pod-template-hash'];
      if (hash && owner.name.endsWith(`-${hash}`)) owners.push({ group: 'apps', kind: 'Deployment', name: owner.name.slice(0, -hash.length - 1) });
    }
  }
  return spreads.find((ws) => {
    if (ws.metadata?.namespace !== namespace || ws.metadata?.deletionTimestamp || !ws.spec?.targetRef) return false;
    const ref = ws.spec.targetRef;
    const hit = owners.some((o) => o.kind === ref.kind && o.name === ref.name && o.group === groupOf(ref.apiVersion));
    const selector = ws.spec.targetFilter?.selector;
    return hit && (!selector || labelSelectorMatches(selector, pod.metadata?.labels ?? {}));
  });
}
