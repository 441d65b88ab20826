/**
 * The per-reconcile in-place refresh of a pod (`realControl.Refresh`): finish a grace period, start the next
 * container batch once the previous one is ready, and put `InPlaceUpdateReady` back to `True` when all is done.
 */
import { toRfc3339 } from '@regatta/kube';
import {
  type Pod,
  type PodCondition,
  getContainerStatus,
  isPodScheduled,
  setPodCondition,
} from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';
import { checkContainersUpdateCompleted } from './completion.js';
import { InPlaceUpdateStateError } from './errors.js';
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_GRACE_KEY_OLD, INPLACE_UPDATE_READY } from './keys.js';
import { type PatchedPod, applyUpdateSpecToPod } from './patch-spec.js';
import type { ContainerResources } from './resize.js';
import { hasInPlaceUpdateReadinessGate, inPlaceUpdateCondition } from './readiness.js';
import { type InPlaceUpdateState, inPlaceUpdateStateAnnotation, parseInPlaceUpdateState } from './state.js';
import { type UpdateSpec, inPlaceUpdateGraceAnnotation, parseUpdateSpec } from './update-spec.js';

/** What the refresh of a pod asks for. */
export type InPlaceRefresh =
  /** Nothing to write. */
  | { action: 'none'; reason?: string }
  /** The grace period is still running: requeue after `delaySeconds` (whole seconds, rounded up). */
  | { action: 'wait'; delaySeconds: number }
  /**
   * UPDATE the pod: the grace period ended and the first batch is written (`graceExpired`), the pod's revision moved
   * on so the parked spec is dropped (`graceDropped`), or the next container batch starts (`nextBatch`).
   */
  | {
      action: 'update';
      reason: 'graceExpired' | 'graceDropped' | 'nextBatch';
      pod: Pod;
      /** New requests/limits to send through `pods/resize` with the write (docs/adr/0087). */
      resize?: Record<string, ContainerResources>;
    }
  /** Write `InPlaceUpdateReady=True` through the status subresource, on this pod version, without conflict retry. */
  | { action: 'setReady'; conditions: PodCondition[] };

export interface RefreshOptions {
  now: Date;
  /** `EqualToRevisionHash` of the workload (default: CloneSet's full-name-or-short-hash comparison). */
  isAtRevision?: (pod: Pod, revision: string) => boolean;
}

function withoutGrace(pod: Pod): Pod {
  const annotations = { ...(pod.metadata?.annotations ?? {}) };
  delete annotations[INPLACE_UPDATE_GRACE_KEY];
  delete annotations[INPLACE_UPDATE_GRACE_KEY_OLD];
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

function finishGracePeriod(
  pod: Pod,
  graceJson: { key: string; value: string },
  options: RefreshOptions,
): InPlaceRefresh {
  const spec = parseUpdateSpec(graceJson.value, graceJson.key);
  const stateAnnotation = inPlaceUpdateStateAnnotation(pod);
  if (stateAnnotation === undefined) {
    throw new InPlaceUpdateStateError(
      `pod ${pod.metadata?.name ?? ''} has ${graceJson.key} but no in-place update state annotation`,
    );
  }
  let state: InPlaceUpdateState;
  try {
    state = parseInPlaceUpdateState(stateAnnotation.value, stateAnnotation.key);
  } catch {
    return { action: 'none', reason: 'the in-place update state annotation does not parse' };
  }
  const isAt = options.isAtRevision ?? isPodAtRevision;
  if (!isAt(pod, spec.revision)) return { action: 'update', reason: 'graceDropped', pod: withoutGrace(pod) };
  const graceMs = (spec.graceSeconds ?? 0) * 1000;
  const started = Date.parse(state.updateTimestamp);
  const elapsed = options.now.getTime() - (Number.isNaN(started) ? 0 : started);
  if (elapsed < graceMs) return { action: 'wait', delaySeconds: Math.ceil((graceMs - elapsed) / 1000) };
  const patched = applyUpdateSpecToPod(pod, spec, state, options.now);
  return {
    action: 'update',
    reason: 'graceExpired',
    pod: withoutGrace(patched.pod),
    ...(patched.resize ? { resize: patched.resize } : {}),
  };
}

function nextBatch(pod: Pod, state: InPlaceUpdateState, now: Date): PatchedPod | undefined {
  if (
    Object.keys(state.nextContainerImages ?? {}).length === 0 &&
    Object.keys(state.nextContainerRefMetadata ?? {}).length === 0 &&
    Object.keys(state.nextContainerResources ?? {}).length === 0
  )
    return undefined;
  const spec: UpdateSpec = { revision: state.revision };
  if (state.nextContainerImages) spec.containerImages = state.nextContainerImages;
  if (state.nextContainerRefMetadata) spec.containerRefMetadata = state.nextContainerRefMetadata;
  if (state.nextContainerResources) spec.containerResources = state.nextContainerResources;
  if (state.updateEnvFromMetadata) spec.updateEnvFromMetadata = true;
  return applyUpdateSpecToPod(pod, spec, state, now);
}

/**
 * What to do for `pod` this reconcile. Throws `InPlaceUpdateAnnotationError` / `InPlaceUpdateStateError` for
 * annotations it cannot read (upstream returns them as the refresh error).
 */
export function refreshInPlaceUpdate(pod: Pod, options: RefreshOptions): InPlaceRefresh {
  const grace = inPlaceUpdateGraceAnnotation(pod);
  if (grace !== undefined && grace.value !== '') return finishGracePeriod(pod, grace, options);

  const stateAnnotation = inPlaceUpdateStateAnnotation(pod);
  if (stateAnnotation !== undefined) {
    const state = parseInPlaceUpdateState(stateAnnotation.value, stateAnnotation.key);
    const check = checkContainersUpdateCompleted(pod, state);
    if (!check.completed) return { action: 'none', reason: check.reason };
    const hasNext =
      Object.keys(state.nextContainerImages ?? {}).length > 0 ||
      Object.keys(state.nextContainerRefMetadata ?? {}).length > 0 ||
      Object.keys(state.nextContainerResources ?? {}).length > 0;
    if (hasNext) {
      for (const name of state.preCheckBeforeNext?.containersRequiredReady ?? []) {
        const status = getContainerStatus(pod, name);
        if (!status) return { action: 'none', reason: `not found container ${name} in pod status` };
        if (!status.ready) return { action: 'none', reason: `waiting container ${name} to be ready` };
      }
      const updated = nextBatch(pod, state, options.now);
      if (updated)
        return {
          action: 'update',
          reason: 'nextBatch',
          pod: updated.pod,
          ...(updated.resize ? { resize: updated.resize } : {}),
        };
    }
  }

  if (!hasInPlaceUpdateReadinessGate(pod)) return { action: 'none' };
  // upstream also writes when a True condition carries a reason or message, a write that changes nothing (same
  // status is never replaced); Regatta skips it
  const condition = inPlaceUpdateCondition(pod);
  if (condition?.status === 'True') return { action: 'none' };
  // a new pod's first True waits for its node: it cannot be ready before, and once bound, the lifecycle move to
  // Normal rides on the same write (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md, amendment); upstream
  // writes it at once, a write of its own for every pod the scheduler had not bound yet
  if (condition === undefined && !isPodScheduled(pod))
    return { action: 'none', reason: 'waiting for the pod to be scheduled' };
  const ready: PodCondition = {
    type: INPLACE_UPDATE_READY,
    status: 'True',
    lastTransitionTime: toRfc3339(options.now),
  };
  return { action: 'setReady', conditions: setPodCondition(pod.status?.conditions, ready) };
}
