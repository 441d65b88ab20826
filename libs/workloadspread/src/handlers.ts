/**
 * Which WorkloadSpreads a change concerns, filtered as upstream's event handlers
 * (`pkg/controller/workloadspread/workloadspread_event_handler.go`): a pod that carries the matched-workloadspread
 * annotation, when it is created or deleted, stops being active, or changes version → the spread it names (and,
 * Regatta, when the scheduler marks it unschedulable: the Adaptive clock starts then); a workload (CloneSet,
 * Deployment, ReplicaSet, Job, StatefulSet) created or deleted, or whose replicas or revision change → the spread
 * that targets it (a ReplicaSet also → its Deployment's). Other changes — a pod scheduled, a pod without the
 * annotation — do not start a round, as upstream: a pod created outside every subset is adopted at the next round.
 */
import { groupOf, type Pod, type WorkloadSpread } from '@regatta/api';
import type { Change, KubeObject } from '@regatta/kube';
import { isPodActive } from '@regatta/lifecycle';
import type { Request } from '@regatta/runtime';
import { matchedOf, podVersion } from './matched.js';
import { controllerOf } from './target.js';

interface SpreadReaders {
  workloadspreads: { list(opts?: { namespace?: string }): WorkloadSpread[] };
}

const req = (ws: WorkloadSpread): Request => ({ namespace: ws.metadata?.namespace ?? '', name: ws.metadata?.name ?? '' });

const unschedulable = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');

/** Whether a pod change starts a round (upstream podEventHandler). */
export function podChangeMatters(change: Change<Pod>): boolean {
  if (change.type !== 'update' || !change.old) return true;
  const [was, now] = [change.old, change.object];
  return (isPodActive(was) && !isPodActive(now)) || podVersion(was) !== podVersion(now) || (!unschedulable(was) && unschedulable(now));
}

/** The spread a pod change concerns: the one its annotation names. */
export function spreadsForPodChange(change: Change<Pod>): Request[] {
  if (!podChangeMatters(change)) return [];
  const m = matchedOf(change.object) ?? (change.old ? matchedOf(change.old) : undefined);
  return m ? [{ namespace: change.object.metadata?.namespace ?? '', name: m.name }] : [];
}

const replicasOf = (o: KubeObject | undefined) => {
  const spec = (o as { spec?: { replicas?: number; parallelism?: number } } | undefined)?.spec;
  return spec?.replicas ?? spec?.parallelism;
};

/** Whether a workload change starts a round (upstream workloadEventHandler). */
export function workloadChangeMatters(change: Change<KubeObject>): boolean {
  if (change.type !== 'update' || !change.old) return true;
  const [was, now] = [change.old, change.object];
  if (replicasOf(was) !== replicasOf(now)) return true;
  const revision = (o: KubeObject) => o.metadata?.annotations?.['deployment.kubernetes.io/revision'];
  const status = (o: KubeObject) => (o as { status?: { updateRevision?: string; currentRevision?: string } }).status ?? {};
  return revision(was) !== revision(now) || (status(now).updateRevision ?? '') !== (status(was).currentRevision ?? '');
}

/** Spreads for a workload change of `kind`. */
export function spreadsForWorkloadChange(kind: string) {
  return <T extends KubeObject>(change: Change<T>, readers: SpreadReaders): Request[] => {
    if (!workloadChangeMatters(change)) return [];
    const obj = change.object;
    const namespace = obj.metadata?.namespace ?? '';
    const targets = [{ kind, group: groupOf(obj.apiVersion ?? ''), name: obj.metadata?.name ?? '' }];
    const owner = kind === 'ReplicaSet' ? controllerOf(obj) : undefined;
    if (owner) targets.push({ kind: owner.kind, group: groupOf(owner.apiVersion), name: owner.name });
    return readers.workloadspreads
      .list({ namespace })
      .filter((ws) => targets.some((t) => t.kind === ws.spec?.targetRef?.kind && t.name === ws.spec.targetRef.name))
      .map(req);
  };
}

/** The pods the program keeps: those some workload controls (only those can be targeted). */
export function isWorkloadPod(pod: KubeObject): boolean {
  const owner = controllerOf(pod);
  return !!owner && ['CloneSet', 'ReplicaSet', 'Job', 'StatefulSet'].includes(owner.kind);
}
