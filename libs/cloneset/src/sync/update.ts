/**
 * Update step (OpenKruise `pkg/controller/cloneset/sync/cloneset_update.go`): first each pod's refresh (in-place
 * progress, lifecycle state, pod-template-hash label); when that wrote nothing, the pods this round updates, in
 * place where possible, else marked for the scale step to recreate.
 */
import { EventReasons } from '@regatta/kube';
import { checkPodUpdateCompleted, resizeInfeasible, resizeMessages } from '@regatta/inplace-update';
import {
  LifecycleState,
  type Pod,
  getPodLifecycleState,
  inPlaceUpdateStep,
  patchPod,
  refreshLifecycleState,
  setPodLifecycle,
} from '@regatta/lifecycle';
import {
  type ControllerRevision,
  isPodAtRevision,
  podTemplateHashPatch,
  revisionOfPod,
} from '@regatta/revision';
import { specifiedDeletePatch } from '@regatta/rollout';
import { forEachLimited } from '@regatta/runtime';
import { nameOf } from '../cloneset-object.js';
import { messages } from '../events.js';
import { waitedForBudget, waitsForBudget } from '@regatta/workload';
import { planUpdate } from '../planning/index.js';
import { type CloneSetSync, POD_WRITE_CONCURRENCY } from './context.js';

export interface UpdateInput {
  pods: Pod[];
  /** The owned revisions, oldest first. */
  revisions: ControllerRevision[];
  currentRevision: string;
  updateRevision: ControllerRevision;
}

export async function updateStep(s: CloneSetSync, input: UpdateInput): Promise<void> {
  const { spec } = s;
  const lifecycle = spec.lifecycle ?? null;
  const updateName = nameOf(input.updateRevision);
  const now = s.now();
  const writes = { client: s.d.client, onWritten: s.expectUpdated };

  // 1. per-pod refresh: in-place progress, lifecycle, pod-template-hash (pods in parallel, each pod's writes in order)
  let modified = false;
  // the lifecycle state is read from the cached pod, so it is known before the refresh: a move to Normal goes out
  // with the refresh's InPlaceUpdateReady=True write (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md)
  await forEachLimited(input.pods, POD_WRITE_CONCURRENCY, async (pod) => {
    const to = refreshLifecycleState(pod, lifecycle, {
      atUpdateRevision: isPodAtRevision(pod, updateName),
      inPlaceUpdateCompleted: checkPodUpdateCompleted(pod).completed,
    });
    const markPodNotReady = lifecycle?.inPlaceUpdate?.markPodNotReady === true;
    const refreshed = await s.inPlace.refresh(
      pod,
      now,
      to !== undefined ? { state: to, markPodNotReady } : undefined,
    );
    if (refreshed.delayMs > 0) s.delays.push(refreshed.delayMs);
    // a resize the node refused is reported (event here, condition in the status step), never sent again
    const infeasible = resizeInfeasible(pod);
    if (infeasible !== undefined)
      void s.d.recorder.warning(
        s.cs,
        EventReasons.ResizeInfeasible,
        resizeMessages.infeasible(nameOf(pod), infeasible),
      );
    if (to !== undefined) {
      if (refreshed.transitioned || (await s.lifecycle.transition(pod, to, { markPodNotReady }))) {
        modified = true;
        s.traces.podUpdated(s.record, pod, updateName, now);
      }
    }
    const hashPatch = podTemplateHashPatch(pod);
    if (hashPatch) {
      await patchPod(writes, pod, hashPatch);
      modified = true;
    }
  });
  if (modified) return;

  // 2–7. what to update this round
  const plan = planUpdate(spec, input.pods, input.currentRevision, updateName, {
    now,
    partitionRollback: s.gates.CloneSetPartitionRollback,
  });
  if (!plan) return;
  const target = input.revisions.find((r) => nameOf(r) === plan.targetRevision) ?? input.updateRevision;
  await forEachLimited(plan.pods, POD_WRITE_CONCURRENCY, (pod) => updatePod(s, pod, input.revisions, target));
}

async function updatePod(
  s: CloneSetSync,
  pod: Pod,
  revisions: ControllerRevision[],
  target: ControllerRevision,
): Promise<void> {
  const { recorder } = s.d;
  const { cs, spec } = s;
  const type = spec.updateStrategy?.type ?? 'ReCreate';
  const lifecycle = spec.lifecycle ?? null;
  const name = nameOf(pod);
  const targetName = nameOf(target);
  const now = s.now();
  if (type === 'InPlaceIfPossible' || type === 'InPlaceOnly') {
    const old = revisionOfPod(pod, revisions);
    const options = {
      now,
      gracePeriodSeconds: spec.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
      recreatePodWhenChangeVCT: s.gates.RecreatePodWhenChangeVCTInCloneSetGate,
      envFromMetadata: s.gates.InPlaceUpdateEnvFromMetadata,
      verticalScaling: s.gates.InPlaceWorkloadVerticalScaling && (await s.inPlace.resizeServed()),
      ...(type === 'InPlaceOnly' ? { ignoreVolumeClaimTemplatesHashDiff: true } : {}),
      additional: [(p: Pod) => setPodLifecycle(p, LifecycleState.Updating, now)],
    };
    const plan = s.inPlace.plan(pod, old, target, options);
    if (plan.inPlace) {
      const step = inPlaceUpdateStep(pod, lifecycle);
      if (step.action === 'wait') return;
      if (step.action === 'prepareUpdate') {
        await s.lifecycle.transition(pod, LifecycleState.PreparingUpdate, {
          markPodNotReady: step.markPodNotReady,
        });
        return;
      }
      if (step.action === 'rehook') {
        await s.lifecycle.transition(pod, LifecycleState.PreparingUpdate, {
          rehook: lifecycle?.inPlaceUpdate ?? null,
        });
        return;
      }
      // a PodUnavailableBudget that refuses now: wait for budget (docs/podunavailablebudget.md)
      if (await waitsForBudget(s, pod, plan.pod)) return;
      try {
        const result = await s.inPlace.update(pod, old, target, options);
        if (!result.updated) {
          // the API server refused the resize: reported (event, condition), not sent again this round
          if (result.notInPlace.reason === 'ResizeRefused') {
            s.resizeRefused.set(name, result.notInPlace.message);
            void recorder.warning(
              cs,
              EventReasons.ResizeInfeasible,
              resizeMessages.infeasible(name, result.notInPlace.message),
            );
          }
          return;
        }
        if (result.delayMs > 0) s.delays.push(result.delayMs);
      } catch (err) {
        if (waitedForBudget(s, err)) return;
        void recorder.warning(
          cs,
          EventReasons.FailedUpdatePodInPlace,
          messages.failedUpdateInPlace(name, targetName, err),
        );
        throw err;
      }
      void recorder.normal(
        cs,
        EventReasons.SuccessfulUpdatePodInPlace,
        messages.updatedInPlace(name, targetName),
      );
      if (getPodLifecycleState(pod) === LifecycleState.PreparingUpdate)
        s.traces.hookWait(s.record, pod, 'inPlaceUpdate');
      return;
    }
    if (plan.reason === 'QoSClassChanged')
      void recorder.normal(
        cs,
        EventReasons.QoSClassChangeRecreate,
        resizeMessages.qosRecreate(name, plan.message),
      );
    if (type === 'InPlaceOnly') throw new Error(messages.inPlaceOnlyImpossible(name));
    s.log.debug({ pod: name, reason: plan.reason }, 'cannot update in place; recreating');
  }
  // recreate: mark the pod; the scale step deletes it and creates the replacement
  const patch = specifiedDeletePatch(pod);
  if (!patch) return;
  try {
    await patchPod({ client: s.d.client, onWritten: (o) => s.expectUpdated(o) }, pod, patch);
  } catch (err) {
    void recorder.warning(
      cs,
      EventReasons.FailedUpdatePodReCreate,
      messages.failedRecreate(name, targetName, err),
    );
    throw err;
  }
  void recorder.normal(cs, EventReasons.SuccessfulUpdatePodReCreate, messages.recreated(name, targetName));
}
