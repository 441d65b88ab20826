/**
 * What the BroadcastJob program maps by hand on top of the kit's generic handlers (OpenKruise
 * `pkg/controller/broadcastjob/broadcastjob_event_handler.go`): which pods the cache keeps, and a node change to the
 * jobs it may concern.
 */
import type { BroadcastJob } from '@regatta/api';
import { type Change, type KubeObject, jsonEqual } from '@regatta/kube';
import { type OwnerKind, type Request, controllerRequest, requestForObject } from '@regatta/runtime';
import { isJobFinished } from './plan.js';

export const BROADCAST_JOB_OWNER: OwnerKind = { group: 'apps.kruise.io', kind: 'BroadcastJob' };

/** Pods the program keeps in its cache: the BroadcastJobs' pods only. */
export function isBroadcastJobPod(pod: KubeObject): boolean {
  return controllerRequest(BROADCAST_JOB_OWNER, pod) !== undefined;
}

type NodeLike = KubeObject & { spec?: { taints?: unknown; unschedulable?: unknown } };

/** `shouldIgnoreNodeUpdate`-like: only labels, taints and unschedulable move a job's eligible nodes. */
export function nodeChangeMatters(change: Change): boolean {
  if (change.type !== 'update' || !change.old) return true;
  const a = change.old as NodeLike;
  const b = change.object as NodeLike;
  return (
    !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
    !jsonEqual(a.spec?.taints ?? [], b.spec?.taints ?? []) ||
    (a.spec?.unschedulable ?? false) !== (b.spec?.unschedulable ?? false)
  );
}

/** A node was added, removed or changed in a way that matters: every job not finished. */
export function jobsForNodeChange(change: Change, readers: { jobs: { list(): KubeObject[] } }): Request[] {
  if (!nodeChangeMatters(change)) return [];
  return readers.jobs
    .list()
    .filter((j) => !isJobFinished(j as BroadcastJob))
    .map((j) => requestForObject(j));
}
