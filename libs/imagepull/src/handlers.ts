/**
 * The event mappings of the two controllers (OpenKruise `imagepulljob_event_handler.go`,
 * `nodeimage_event_handler.go`), pure over the readers: which ImagePullJobs a NodeImage or Pod change concerns, which
 * NodeImage a Node or ImagePullJob change concerns.
 */
import type { ImagePullJob, NodeImage } from '@regatta/api';
import type { Change, KubeObject } from '@regatta/kube';
import { jsonEqual } from '@regatta/kube';
import type { Request } from '@regatta/runtime';
import { jobsForNodeImageUpdate } from './changes.js';
import type { Reader } from './job-reconciler.js';
import { isVirtualKubelet } from './nodeimage-reconciler.js';
import { isActivePod, jobMayTarget, type PodLike } from './targets.js';

const activeJob = (j: ImagePullJob) => !j.status?.completionTime && !j.metadata?.deletionTimestamp;
const requestOf = (key: string): Request => {
  const [namespace, name] = key.split('/') as [string, string];
  return { namespace, name };
};
const jobRequest = (j: KubeObject): Request => ({ namespace: j.metadata?.namespace ?? '', name: j.metadata?.name ?? '' });

/** NodeImage change → ImagePullJobs: new/removed NodeImages to every active job that selects them; updates as #2483. */
export function jobsForNodeImageChange(
  change: Change,
  r: { imagepulljobs: Reader<KubeObject>; pods: Reader<KubeObject> },
): Request[] {
  const ni = change.object as NodeImage;
  const jobs = r.imagepulljobs.list() as ImagePullJob[];
  const podsOf = (j: ImagePullJob) =>
    j.spec.podSelector ? (r.pods.list({ namespace: j.metadata?.namespace ?? '' }) as PodLike[]) : [];
  const out = new Map<string, Request>();
  const add = (req: Request) => out.set(`${req.namespace}/${req.name}`, req);
  if (change.type === 'add' || change.type === 'delete') {
    for (const j of jobs) if (activeJob(j) && jobMayTarget(j, ni, podsOf(j))) add(jobRequest(j));
    if (change.type === 'delete') jobsForNodeImageUpdate(ni, { metadata: ni.metadata }).forEach((k) => add(requestOf(k)));
    return [...out.values()];
  }
  const old = change.old as NodeImage | undefined;
  if (!old) return [];
  jobsForNodeImageUpdate(old, ni).forEach((k) => add(requestOf(k)));
  if (!jsonEqual((old.metadata?.labels ?? {}) as never, (ni.metadata?.labels ?? {}) as never)) {
    for (const j of jobs) {
      if (activeJob(j) && !j.spec.podSelector && jobMayTarget(j, old) !== jobMayTarget(j, ni)) add(jobRequest(j));
    }
  }
  return [...out.values()];
}

/** Pod change → the active podSelector jobs of its namespace that select it (before or after), when its placement moved. */
export function jobsForPodChange(change: Change, r: { imagepulljobs: Reader<KubeObject> }): Request[] {
  const pod = change.object as PodLike;
  const old = change.old as PodLike | undefined;
  if (change.type === 'update' && old) {
    const same =
      old.spec?.nodeName === pod.spec?.nodeName &&
      isActivePod(old) === isActivePod(pod) &&
      jsonEqual((old.metadata?.labels ?? {}) as never, (pod.metadata?.labels ?? {}) as never);
    if (same) return [];
  }
  const ns = pod.metadata?.namespace ?? '';
  const jobs = (r.imagepulljobs.list({ namespace: ns }) as ImagePullJob[]).filter((j) => j.spec.podSelector && activeJob(j));
  if (jobs.length === 0) return [];
  const fake = (p: PodLike | undefined): NodeImage[] =>
    p?.spec?.nodeName ? [{ metadata: { name: p.spec.nodeName } }] : [];
  return jobs
    .filter((j) => [pod, old].some((p) => p && fake(p).some((ni) => jobMayTarget(j, ni, [p]))))
    .map(jobRequest);
}

/** Node change → its NodeImage, when it has none yet (the reconcile waits for readiness), its labels moved, or it went. */
export function nodeImageForNodeChange(change: Change, r: { nodeimages: Reader<KubeObject> }): Request[] {
  const node = change.object;
  const name = node.metadata?.name ?? '';
  if (isVirtualKubelet(node)) return [];
  const ni = r.nodeimages.get(undefined, name);
  if (change.type === 'delete' || node.metadata?.deletionTimestamp) return ni ? [{ name }] : [];
  if (!ni) return [{ name }];
  if (jsonEqual((ni.metadata?.labels ?? {}) as never, (node.metadata?.labels ?? {}) as never)) return [];
  return [{ name }];
}

/** ImagePullJob deleted → the NodeImages holding its tags (their owner references are cleaned). */
export function nodeImagesForJobDelete(change: Change, r: { nodeimages: Reader<KubeObject> }): Request[] {
  if (change.type !== 'delete' && !(change.type === 'update' && change.object.metadata?.deletionTimestamp)) return [];
  const uid = change.object.metadata?.uid;
  return (r.nodeimages.list() as NodeImage[])
    .filter((ni) =>
      Object.values(ni.spec?.images ?? {}).some((img) =>
        (img.tags ?? []).some((t) => (t.ownerReferences ?? []).some((o) => o.uid === uid)),
      ),
    )
    .map((ni) => ({ name: ni.metadata?.name ?? '' }));
}
