/**
 * Writing a workload's status (OpenKruise `pkg/controller/cloneset/cloneset_status.go` `UpdateCloneSetStatus`):
 * nothing is written when nothing the controller owns changed; the write is a merge patch of the status
 * subresource, retried on a conflict; a workload deleted meanwhile is not an error. `writeStatusOnCadence` also
 * spaces counter-only changes out ({@link StatusCadence}, docs/adr/0050-workload-status-write-cadence.md; the prompt
 * ones less, docs/adr/0070-prompt-status-changes.md).
 */
import { type KubeObject, type OwnWrites, isNotFound, retryOnConflict } from '@regatta/kube';
import { StatusCadence, type StatusCadenceRules, decideStatusWrite } from './status-cadence.js';
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
  return patchStatus(client, w);
}

export interface StatusCadenceWrite<S> extends StatusWrite<S> {
  cadence: StatusCadence;
  rules: StatusCadenceRules<S>;
  now: Date;
  /**
   * Write any change at once (e.g. after a failed step: the reconcile ends in an error, whose back-off, not a
   * requeue after the interval, brings the next one).
   */
  urgent?: boolean;
}

export interface StatusWriteResult {
  written: boolean;
  /** > 0 when a change was deferred: reconcile again after this long (ms) to write it. */
  requeueAfterMs: number;
}

/** Writes the status when it changed and the workload's cadence allows it; else says when to look again. */
export async function writeStatusOnCadence<S>(
  client: Pick<KubeWriter, 'patchStatus'>,
  w: StatusCadenceWrite<S>,
): Promise<StatusWriteResult> {
  const key = StatusCadence.keyOf(w.workload.metadata?.namespace, w.workload.metadata?.name);
  const nowMs = w.now.getTime();
  const decision = decideStatusWrite(
    {
      stored: w.workload.status,
      next: w.status,
      changed: w.changed(w.workload.status, w.status),
      lastWriteMs: w.urgent ? undefined : w.cadence.lastWrite(key, nowMs),
      nowMs,
      intervalMs: w.cadence.intervalMs,
      promptIntervalMs: w.cadence.promptIntervalMs,
    },
    w.urgent ? { ...w.rules, settled: () => true } : w.rules,
  );
  if (decision.action === 'unchanged') return { written: false, requeueAfterMs: 0 };
  if (decision.action === 'defer') return { written: false, requeueAfterMs: decision.afterMs };
  const written = await patchStatus(client, w);
  if (written) w.cadence.wrote(key, nowMs);
  return { written, requeueAfterMs: 0 };
}

async function patchStatus<S>(client: Pick<KubeWriter, 'patchStatus'>, w: StatusWrite<S>): Promise<boolean> {
  const ref = { ...w.kind, namespace: w.workload.metadata?.namespace, name: w.workload.metadata?.name ?? '' };
  try {
    const written = await retryOnConflict(() =>
      client.patchStatus(ref, { status: w.status }, { type: 'merge' }),
    );
    w.ownWrites?.record(written);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return false;
  }
  return true;
}
