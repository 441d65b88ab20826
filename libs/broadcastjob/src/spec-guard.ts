/**
 * The admission rules, checked again by the reconciler (as the other controllers', docs/cloneset.md "Validation"):
 * with the webhooks off or bypassed the API server stores whatever the CRD schema allows — a template with
 * `restartPolicy: Always` (its pods would never finish), a `parallelism` of `"ten"`. The reconciler does not act on
 * such a job (no pod, no status) and says why (an `InvalidSpec` event, docs/broadcastjob.md "Admission").
 * A finished job's ttl is still honoured.
 */
import { defaultBroadcastJob, validateBroadcastJob, type BroadcastJob } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';

/** A user-facing reason not to act on the job, or undefined when it passes the admission rules. */
export function specProblem(job: BroadcastJob): string | undefined {
  // as the validating webhook sees it: after the mutating one
  return specProblemOf('BroadcastJob', () => validateBroadcastJob(defaultBroadcastJob(job)));
}
