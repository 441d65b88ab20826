/**
 * The two reasons a workload round does not act (docs/adr/0072-one-workload-round.md): a stored spec that fails the
 * kind's admission rules (docs/adr/0014-controller-kit.md; an event says what to fix), and pod writes of an earlier
 * round the cache does not show yet (OpenKruise's `SatisfiedExpectations` in `doReconcile` / `syncDaemonSet`).
 */
import { type EventRecorder, type KubeObject, refuseInvalidSpec, type SpecGuard } from '@regatta/kube';
import { type Expectations, type Request, type Result, waitForPendingWrites } from '@regatta/runtime';
import type { ObjectReader } from '../types.js';

export interface PendingWritesInput {
  expectations: Expectations;
  pods: ObjectReader<KubeObject>;
  key: string;
  req: Request;
  log: { debug(fields: object, msg: string): void };
}

/** A short requeue while the pods cache lacks this controller's earlier writes; undefined when it shows them all. */
export function pendingPodWrites({
  expectations,
  pods,
  key,
  req,
  log,
}: PendingWritesInput): Result | undefined {
  return waitForPendingWrites(
    expectations,
    key,
    (name) => pods.get(req.namespace, name)?.metadata?.resourceVersion ?? undefined,
    log,
  );
}

export interface InvalidSpecInput<Checked extends KubeObject> {
  guard: SpecGuard<Checked>;
  key: string;
  /** The workload as reconciled (events name it). */
  obj: KubeObject;
  /** The same object typed as the kind's rules take it. */
  checked: Checked;
  /** The kind's name in the log line and event ("CloneSet"). */
  kindName: string;
  recorder: Pick<EventRecorder, 'warning'>;
  log: { warn(fields: object, msg: string): void };
}

/** `{}` (and a warning event) when the stored spec fails the kind's rules; undefined when it passes. */
export function refusedSpec<Checked extends KubeObject>(
  input: InvalidSpecInput<Checked>,
): Result | undefined {
  const problem = input.guard.problem(input.key, input.checked);
  if (!problem) return undefined;
  return refuseInvalidSpec(input.obj, input.kindName, problem, input.recorder, input.log);
}
