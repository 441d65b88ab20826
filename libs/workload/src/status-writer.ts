/**
 * Writing a workload's status (OpenKruise `pkg/controller/cloneset/cloneset_status.go` `UpdateCloneSetStatus`):
 * nothing is written when nothing the controller owns changed; the write is a merge patch of the status
 * subresource, retried on a conflict; a workload deleted meanwhile is not an error.
 */
import { type KubeObject, isNotFound, retryOnConflict } from '@regatta/kube';
import type { OwnWrites } from './own-writes.js';
import type { KubeWriter, WorkloadKind } from './types.js';

export interface StatusWrite<S> {
  workload: KubeObject & { status?: unknown };
  kind: WorkloadKind;
  status: S;
  /** True when `status` differs from the stored one in a field the controller owns. */
  changed: (stored: unknown, next: S) => boolean;
  /** Keeps the written object, for reconciles that run before the cache shows it ({@link OwnWrites}). */
  ownWrites?: OwnWrites;
}

/** Writes the status when it changed; returns whether it wrote. */
export async function writeStatus<S>(
  client: Pick<KubeWriter, 'patchStatus'>,
  w: StatusWrite<S>,
): Promise<boolean> {
  if (!w.changed(w.workload.status, w.status)) return false;
  const ref = { ...w.kind, namespace: w.workload.metadata?.namespace, name: w.workload.metadata?.name ?? '' };
  try {
    const written = await retryOnConflict(() => client.patchStatus(ref, { status: w.status }, { type: 'merge' }));
    w.ownWrites?.record(written);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return false;
  }
  return true;
}
