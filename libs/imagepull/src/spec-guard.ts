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
import type { ImagePullJob, NodeImage } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';
import { defaultImagePullJob, defaultNodeImage, validateImagePullJob, validateNodeImage } from './admission.js';

export { INVALID_SPEC_REASON } from '@regatta/kube';

/** A user-facing reason not to act on the job, or undefined when it passes the admission rules. */
export function specProblem(job: ImagePullJob): string | undefined {
  // as the validating webhook sees it: after the mutating one
  return specProblemOf('ImagePullJob', () => validateImagePullJob(defaultImagePullJob(job, { create: false })));
}

/**
 * The NodeImage rules (docs/imagepull.md "Admission"), for a NodeImage stored without the webhooks: more than 256
 * images, an empty or duplicated tag, a tag without `pullPolicy` or its TTL (never dropped after completion), a
 * negative version. Checked as the validating webhook sees it, after the defaulting (a tag without `createdAt` is
 * not a problem here: the webhook would give it one, and the controller's spec maintenance drops it).
 */
export function nodeImageSpecProblem(ni: NodeImage): string | undefined {
  return specProblemOf('NodeImage', () => validateNodeImage(defaultNodeImage(ni, new Date(0))));
}
