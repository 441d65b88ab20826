/**
 * Pod labels the CloneSet controller sets itself, with a meaning, that a pod template must not carry. OpenKruise's
 * webhook accepts them (`pkg/webhook/cloneset/validating/validation.go` has no such rule); Regatta rejects them
 * because each one makes the controller act wrongly (docs/cloneset.md, "Validation"):
 *
 * - `apps.kruise.io/specified-delete`: any value asks the controller to delete the pod; every pod created from the
 *   template is deleted and replaced, without end;
 * - `controller-revision-hash`, `pod-template-hash`: the pod's revision; new pods get the right value, but an
 *   in-place update applies template label changes after writing the revision, so the pod then claims a revision
 *   it is not at and is updated again and again;
 * - `apps.kruise.io/cloneset-instance-id`: ties a pod to its PVCs; an in-place update would rewrite it and detach
 *   the pod from its claims;
 * - `lifecycle.apps.kruise.io/state`: the lifecycle state machine; an in-place update would overwrite the state the
 *   controller just set (e.g. skip the PreparingUpdate hook, or mark a serving pod PreparingDelete).
 */
import { type FieldError, type FieldPath, fieldErrors } from '@regatta/kube';
import { Labels } from '../well-known-keys.js';

export const CLONESET_RESERVED_TEMPLATE_LABELS: readonly string[] = [
  Labels.SpecifiedDelete,
  Labels.ControllerRevisionHash,
  Labels.PodTemplateHash,
  Labels.CloneSetInstanceId,
  Labels.LifecycleState,
];

/**
 * One Forbidden error per reserved key in the template labels. `oldLabels` (UPDATE) exempts a key the old template
 * already had with the same value, so an object stored before this rule can still be edited (e.g. its finalizers
 * removed); the reconciler still refuses to act on it.
 */
export function reservedTemplateLabelErrors(
  labels: Readonly<Record<string, unknown>> | undefined,
  oldLabels: Readonly<Record<string, unknown>> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of CLONESET_RESERVED_TEMPLATE_LABELS) {
    if (!labels || !Object.hasOwn(labels, key)) continue;
    if (oldLabels && Object.hasOwn(oldLabels, key) && oldLabels[key] === labels[key]) continue;
    errs.push(
      fieldErrors.forbidden(path.key(key), 'is set by the CloneSet controller on its pods; remove it from the template'),
    );
  }
  return errs;
}
