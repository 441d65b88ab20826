/**
 * Planning an in-place update of one pod (`realControl.Update`): the status write that takes the pod out of service
 * (`InPlaceUpdateReady=False`), then the pod write (revision labels, caller additions such as the lifecycle state,
 * a fresh state annotation, and either the containers of the first batch or — with a grace period — the spec parked
 * in the grace annotation).
 */
import { toRfc3339 } from '@regatta/kube';
import {
  type Pod,
  type PodCondition,
  recomputePodReady,
  setPodCondition,
  withPodConditions,
} from '@regatta/lifecycle';
import { type ControllerRevision, withRevisionLabels } from '@regatta/revision';
import {
  type InPlaceUpdateOptions,
  type NotInPlaceReason,
  calculateInPlaceUpdateSpec,
} from './calculate-spec.js';
import {
  INPLACE_UPDATE_GRACE_KEY,
  INPLACE_UPDATE_GRACE_KEY_OLD,
  INPLACE_UPDATE_READY,
  INPLACE_UPDATE_STATE_KEY,
  INPLACE_UPDATE_STATE_KEY_OLD,
  START_INPLACE_UPDATE_REASON,
} from './keys.js';
import { applyUpdateSpecToPod } from './patch-spec.js';
import { hasInPlaceUpdateReadinessGate } from './readiness.js';
import { type ContainerResources, resizeRestartsContainer } from './resize.js';
import { type InPlaceUpdateState, formatInPlaceUpdateState } from './state.js';
import { type UpdateSpec, formatUpdateSpec } from './update-spec.js';

export interface PlanInPlaceUpdateOptions extends InPlaceUpdateOptions {
  /** The reconcile's clock. */
  now: Date;
  /**
   * Writes the revision labels (`WriteRevisionHash`). Default: CloneSet's — `controller-revision-hash` = revision and
   * `pod-template-hash` = its short hash.
   */
  writeRevision?: (pod: Pod, revision: string) => Pod;
  /** Further changes made in the same pod write (`AdditionalFuncs`; CloneSet sets the lifecycle state to `Updating`). */
  additional?: readonly ((pod: Pod) => Pod)[];
}

/** An in-place update to perform. */
export interface InPlaceUpdatePlan {
  inPlace: true;
  spec: UpdateSpec;
  /**
   * New `status.conditions` (`InPlaceUpdateReady=False/StartInPlaceUpdate`, `Ready` recomputed) to write FIRST through
   * the status subresource; absent for pods without the `InPlaceUpdateReady` readiness gate.
   */
  conditions?: PodCondition[];
  /** The pod to write with an UPDATE (its status part is what the status write produced). */
  pod: Pod;
  /** The state stored in the pod's annotation. */
  state: InPlaceUpdateState;
  /** New requests/limits per container to send through `pods/resize` with the pod write; absent when none. */
  resize?: Record<string, ContainerResources>;
  /** Requeue after this many seconds (the grace period), 0 for none. */
  delaySeconds: number;
}

/** An update that cannot be done in place: recreate the pod, or fail under `InPlaceOnly`. */
export interface NotInPlace {
  inPlace: false;
  reason: NotInPlaceReason;
  message: string;
}

function withoutAnnotations(pod: Pod, keys: readonly string[]): Pod {
  const annotations = { ...(pod.metadata?.annotations ?? {}) };
  for (const k of keys) delete annotations[k];
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

function withAnnotation(pod: Pod, key: string, value: string): Pod {
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...(pod.metadata?.annotations ?? {}), [key]: value } },
  };
}

/** Plans the in-place update of `pod` from `oldRevision` to `newRevision`; the inputs are not modified. */
export function planInPlaceUpdate(
  pod: Pod,
  oldRevision: ControllerRevision | null | undefined,
  newRevision: ControllerRevision | null | undefined,
  options: PlanInPlaceUpdateOptions,
): InPlaceUpdatePlan | NotInPlace {
  const decision = calculateInPlaceUpdateSpec(oldRevision, newRevision, options);
  if (!decision.inPlace) return decision;
  const { spec } = decision;
  const { now } = options;

  let conditions: PodCondition[] | undefined;
  let out: Pod = pod;
  // a resize alone keeps the pod in service unless a container restarts for it (`defaultCheckPodNeedsBeUnready`)
  const resizeOnly =
    Object.keys(spec.containerResources ?? {}).length > 0 &&
    Object.keys(spec.containerImages ?? {}).length === 0 &&
    !spec.updateEnvFromMetadata;
  const leavesService = !resizeOnly || resizeRestartsContainer(pod, spec.containerResources ?? {});
  if (leavesService && hasInPlaceUpdateReadinessGate(pod)) {
    const notReady: PodCondition = {
      type: INPLACE_UPDATE_READY,
      status: 'False',
      reason: START_INPLACE_UPDATE_REASON,
      lastTransitionTime: toRfc3339(now),
    };
    out = withPodConditions(pod, setPodCondition(pod.status?.conditions, notReady));
    conditions = recomputePodReady(out, now);
    out = withPodConditions(out, conditions);
  }

  out = (options.writeRevision ?? ((p: Pod, r: string) => withRevisionLabels(p, r)))(out, spec.revision);
  for (const f of options.additional ?? []) out = f(out);

  const fresh: InPlaceUpdateState = { revision: spec.revision, updateTimestamp: toRfc3339(now) };
  if (spec.updateEnvFromMetadata) fresh.updateEnvFromMetadata = true;
  if (Object.keys(spec.containerImages ?? {}).length > 0) fresh.updateImages = true;
  if (Object.keys(spec.containerResources ?? {}).length > 0) fresh.updateResources = true;
  out = withAnnotation(
    withoutAnnotations(out, [INPLACE_UPDATE_STATE_KEY_OLD]),
    INPLACE_UPDATE_STATE_KEY,
    formatInPlaceUpdateState(fresh),
  );

  let state = fresh;
  let resize: Record<string, ContainerResources> | undefined;
  if ((spec.graceSeconds ?? 0) <= 0) {
    const patched = applyUpdateSpecToPod(out, spec, fresh, now);
    out = withoutAnnotations(patched.pod, [INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_GRACE_KEY_OLD]);
    state = patched.state;
    resize = patched.resize;
  } else {
    out = withAnnotation(out, INPLACE_UPDATE_GRACE_KEY, formatUpdateSpec(spec));
  }
  const delaySeconds = (options.gracePeriodSeconds ?? 0) > 0 ? (options.gracePeriodSeconds ?? 0) : 0;
  return {
    inPlace: true,
    spec,
    ...(conditions ? { conditions } : {}),
    pod: out,
    state,
    ...(resize ? { resize } : {}),
    delaySeconds,
  };
}
