/**
 * The admission rules, checked again by the ImagePullJob reconciler (as CloneSet's, docs/cloneset.md "Validation"):
 * with the webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a job
 * is harmful or silently stuck (an empty image written into NodeImages, both names and a label selector, a
 * parallelism that is not an integer, a deadline below the pull timeout). The reconciler does not act on a job that
 * fails validation (no finalizer, no NodeImage written, no status) and says why instead (an `InvalidSpec` event;
 * docs/imagepull.md "Validation"). A job being deleted or finished is still finalized.
 *
 * The validator never throws for any JSON; the defaulting may (a spec that is not an object): the error is then
 * the problem reported, so a bad object is never retried hot.
 */
import type { ImagePullJob } from '@regatta/api';
import { formatFieldError, type EventRecorder } from '@regatta/kube';
import { defaultImagePullJob, validateImagePullJob } from './admission.js';

/** The reason of the Warning event an ImagePullJob that fails validation gets. */
export const INVALID_SPEC_REASON = 'InvalidSpec';

/** A user-facing reason not to act on the job, or undefined when it passes the admission rules. */
export function specProblem(job: ImagePullJob): string | undefined {
  let errors;
  try {
    // as the validating webhook sees it: after the mutating one
    errors = validateImagePullJob(defaultImagePullJob(job, { create: false }));
  } catch (err) {
    return `the ImagePullJob could not be validated (${err instanceof Error ? err.message : String(err)}); check its spec against the ImagePullJob schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/** Remembers the verdict per job generation (a reconcile runs on every NodeImage and pod change). */
export class SpecGuard {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  problem(key: string, job: ImagePullJob): string | undefined {
    const uid = job.metadata?.uid ?? '';
    const generation = job.metadata?.generation ?? 0;
    const known = this.#verdicts.get(key);
    if (known && known.uid === uid && known.generation === generation) return known.problem;
    const problem = specProblem(job);
    this.#verdicts.set(key, { uid, generation, problem });
    return problem;
  }

  forget(key: string): void {
    this.#verdicts.delete(key);
  }
}

/** The reconciler's answer to a job that fails validation: the event, a log line, nothing to retry until it changes. */
export function refuseInvalidSpec(
  job: ImagePullJob,
  problem: string,
  recorder: Pick<EventRecorder, 'warning'> | undefined,
  log: { warn(obj: object, msg: string): void },
): Record<string, never> {
  log.warn({ problem }, 'not reconciling this ImagePullJob: it fails validation');
  void recorder?.warning(
    job,
    INVALID_SPEC_REASON,
    `not acting on this ImagePullJob until it is fixed: ${problem}`,
  );
  return {};
}
