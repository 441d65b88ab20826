/**
 * Scale step (OpenKruise `pkg/controller/cloneset/sync/cloneset_scale.go`): create the missing pods (and their
 * PVCs) in slow-start batches, delete the surplus (through PreparingDelete when a preDelete hook is set), or bring
 * PreparingDelete pods back. Returns true when it changed something (the update step then waits for the next round).
 */
import { EventReasons, createdOnRead, isAlreadyExists, isNotFound, settleWrite } from '@regatta/kube';
import { LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { type ControllerRevision, templateFromRevision } from '@regatta/revision';
import { slowStartBatches } from '@regatta/rollout';
import { forEachLimited } from '@regatta/runtime';
import { deletePodExpected, waitedForBudget } from '@regatta/workload';
import { nameOf } from '../cloneset-object.js';
import { messages } from '../events.js';
import {
  type PersistentVolumeClaim,
  claimsToCreate,
  newCloneSetClaims,
  newCloneSetPod,
  planScale,
} from '../planning/index.js';
import { type CloneSetSync, POD, POD_WRITE_CONCURRENCY, PVC } from './context.js';

export interface ScaleInput {
  pods: Pod[];
  pvcs: PersistentVolumeClaim[];
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
}

export async function scaleStep(s: CloneSetSync, input: ScaleInput): Promise<boolean> {
  const { spec, cs } = s;
  const plan = planScale(
    {
      spec,
      pods: input.pods,
      pvcs: input.pvcs,
      currentRevision: nameOf(input.currentRevision),
      updateRevision: nameOf(input.updateRevision),
    },
    {
      now: s.now(),
      random: s.random,
      excludePreparingDelete: spec.scaleStrategy?.excludePreparingDelete ?? false,
      preparingUpdateAsUpdate: s.gates.PreparingUpdateAsUpdate,
      partitionRollback: s.gates.CloneSetPartitionRollback,
    },
  );
  if (plan.action !== 'cancelPreparingDelete' && plan.scaleUpLimited) {
    void s.d.recorder.warning(cs, 'ScaleUpLimited', messages.scaleUpLimited(plan.diffs?.scaleUpLimit ?? 0));
  }
  switch (plan.action) {
    case 'none':
      return false;
    case 'cancelPreparingDelete': {
      for (const p of plan.pods) await s.lifecycle.transition(p, LifecycleState.PreparingNormal, {});
      return true;
    }
    case 'create': {
      s.log.info({ count: plan.creations.length }, 'creating pods');
      const { created, errors } = await createPods(s, plan.creations, input);
      for (const err of errors) s.log.warn({ err }, 'pod creation failed');
      if (created === 0 && errors.length > 0) throw errors[0];
      return created > 0;
    }
    case 'delete': {
      let modified = false;
      await forEachLimited(plan.deletions, POD_WRITE_CONCURRENCY, async (d) => {
        if (d.step.action === 'prepareDelete') {
          const wrote = await s.lifecycle.transition(d.pod, LifecycleState.PreparingDelete, {
            markPodNotReady: d.step.markPodNotReady,
          });
          if (wrote) modified = true;
          return;
        }
        if (await deletePod(s, d.pod, d.pvcs)) {
          modified = true;
          if (getPodLifecycleState(d.pod) === LifecycleState.PreparingDelete)
            s.traces.hookWait(s.record, d.pod, 'preDelete');
        }
      });
      return modified;
    }
  }
}

type Creation = { id: string; revision: 'current' | 'update' };

async function createPods(
  s: CloneSetSync,
  creations: Creation[],
  input: ScaleInput,
): Promise<{ created: number; errors: unknown[] }> {
  const now = s.now();
  const { expectations, client, recorder } = s.d;
  const { cs, key } = s;
  const vcts = cs.spec?.volumeClaimTemplates ?? null;
  let created = 0;
  const errors: unknown[] = [];
  let index = 0;
  const create = async (c: Creation): Promise<boolean> => {
    const rev = c.revision === 'current' ? input.currentRevision : input.updateRevision;
    const pod = newCloneSetPod({
      cloneSet: cs,
      template: templateFromRevision(rev),
      revision: nameOf(rev),
      volumeClaimTemplates: vcts,
      id: c.id,
      now,
    });
    for (const claim of claimsToCreate(newCloneSetClaims(cs, vcts, c.id), input.pvcs)) {
      expectations.expectScale(key, 'create', nameOf(claim));
      try {
        await client.create(claim);
      } catch (err) {
        expectations.observeScale(key, 'create', nameOf(claim));
        if (!isAlreadyExists(err)) {
          void recorder.warning(cs, EventReasons.FailedCreate, messages.failedCreatePvc(err));
          errors.push(err);
          return false;
        }
      }
    }
    expectations.expectScale(key, 'create', nameOf(pod));
    try {
      await client.create(pod);
    } catch (err) {
      // a create without an answer may have gone through (docs/adr/0061-writes-without-an-answer.md): read back under
      // the name chosen here, else the next round would create another pod under a new instance id
      const ref = { ...POD, namespace: pod.metadata?.namespace, name: nameOf(pod) };
      const outcome = await settleWrite(err, () => createdOnRead(client, ref, cs.metadata?.uid));
      if (outcome !== 'applied') {
        // unknown: the expectation stays until the cache shows the pod, or times out
        if (outcome === 'not-applied') expectations.observeScale(key, 'create', nameOf(pod));
        void recorder.warning(cs, EventReasons.FailedCreate, messages.failedCreatePod(err));
        errors.push(err);
        return false;
      }
    }
    void recorder.normal(cs, EventReasons.SuccessfulCreate, messages.createdPod(nameOf(pod)));
    return true;
  };
  for (const size of slowStartBatches(creations.length)) {
    const batch = creations.slice(index, index + size);
    index += size;
    const results: boolean[] = [];
    // a slow-start batch, at most POD_WRITE_CONCURRENCY creates in flight
    await forEachLimited(batch, POD_WRITE_CONCURRENCY, async (c) => {
      results.push(await create(c));
    });
    created += results.filter(Boolean).length;
    if (results.some((ok) => !ok)) break;
  }
  return { created, errors };
}

/** Deletes a pod (on its UID) and the PVCs that go with it; false when it was already gone. */
async function deletePod(s: CloneSetSync, pod: Pod, pvcs: PersistentVolumeClaim[]): Promise<boolean> {
  const { expectations, client, recorder } = s.d;
  const { cs, key } = s;
  const name = nameOf(pod);
  try {
    if ((await deletePodExpected({ client, expectations, log: s.log }, key, pod)) === 'gone') return false;
  } catch (err) {
    // a PodUnavailableBudget refusal: wait for budget (docs/podunavailablebudget.md)
    if (waitedForBudget(s, err)) return false;
    void recorder.warning(cs, EventReasons.FailedDelete, messages.failedDeletePod(name, err));
    throw err;
  }
  void recorder.normal(cs, EventReasons.SuccessfulDelete, messages.deletedPod(name));
  for (const pvc of pvcs) {
    expectations.expectScale(key, 'delete', nameOf(pvc));
    await client
      .delete({ ...PVC, namespace: pvc.metadata?.namespace, name: nameOf(pvc) })
      .catch((err: unknown) => {
        expectations.observeScale(key, 'delete', nameOf(pvc));
        if (!isNotFound(err)) throw err;
      });
  }
  return true;
}
