/**
 * Pod and claim writes of the Advanced StatefulSet (OpenKruise `pkg/controller/statefulset/stateful_pod_control.go`):
 * claims before the pod, events with upstream's reasons and messages, deletion through the preDelete hook, identity
 * and storage fixes, and claim owner references for the retention policy.
 */
import { EventReasons, isAlreadyExists, isConflict, isNotFound, writeUpdatePatch } from '@regatta/kube';
import { LifecycleState, type Pod, deleteStep, getPodLifecycleState } from '@regatta/lifecycle';
import { deletePodExpected, waitedForBudget } from '@regatta/workload';
import { ClaimRefsError, ClaimsError } from '../errors.js';
import { errText, messages } from '../events.js';
import {
  type PersistentVolumeClaim,
  claimMatchesPolicy,
  claimOwnerRefsFor,
  claimsForPod,
  hasStaleOwnerRef,
  ordinalOf,
  retentionPolicyOf,
  storageMatches,
  withIdentity,
  withIdentityAndStorage,
} from '../planning/index.js';
import { STATEFULSET_GVK, nameOf } from '../statefulset-object.js';
import { type AstsSync, POD, PVC } from './context.js';

function claimsOf(
  s: AstsSync,
  pod: Pod,
): { claim: PersistentVolumeClaim; found: PersistentVolumeClaim | undefined }[] {
  const ns = s.set.metadata?.namespace;
  return [...claimsForPod(s.set, ordinalOf(pod)).values()].map((claim) => ({
    claim,
    found: s.d.pvcs.get(ns, nameOf(claim)) as PersistentVolumeClaim | undefined,
  }));
}

/** `PodClaimIsStale`: with whenScaled Delete, a claim still refers to an earlier pod of this name. */
export function claimIsStale(s: AstsSync, pod: Pod): boolean {
  if (!s.gates.StatefulSetAutoDeletePVC || retentionPolicyOf(s.set).whenScaled === 'Retain') return false;
  return claimsOf(s, pod).some(
    ({ found }) =>
      found !== undefined && hasStaleOwnerRef(found, { name: nameOf(pod), uid: pod.metadata?.uid }),
  );
}

/** `createPersistentVolumeClaims`: the pod's missing claims; an error for claims that failed or are being deleted. */
export async function createMissingClaims(s: AstsSync, pod: Pod): Promise<void> {
  const errors: string[] = [];
  const setName = nameOf(s.set);
  for (const { claim, found } of claimsOf(s, pod)) {
    if (found) {
      if (found.metadata?.deletionTimestamp) errors.push(`pvc ${nameOf(claim)} is to be deleted`);
      continue;
    }
    const refs = s.gates.StatefulSetAutoDeletePVC
      ? claimOwnerRefsFor(claim, s.set, pod, false, STATEFULSET_GVK)
      : undefined;
    const body = refs ? { ...claim, metadata: { ...claim.metadata, ownerReferences: refs } } : claim;
    try {
      await s.d.client.create(body);
      void s.d.recorder.normal(
        s.set,
        EventReasons.SuccessfulCreate,
        messages.claim(nameOf(claim), nameOf(pod), setName),
      );
    } catch (err) {
      if (isAlreadyExists(err)) continue;
      errors.push(`failed to create PVC ${nameOf(claim)}: ${errText(err)}`);
      void s.d.recorder.warning(
        s.set,
        EventReasons.FailedCreate,
        messages.claimFailed(nameOf(claim), nameOf(pod), setName, err),
      );
    }
  }
  if (errors.length > 0) throw new ClaimsError(errors.join(', '));
}

/** `CreateStatefulPod`: claims first, then the pod. A pod already there (a stale cache) is not an error. */
export async function createPod(s: AstsSync, pod: Pod): Promise<void> {
  const setName = nameOf(s.set);
  const name = nameOf(pod);
  try {
    await createMissingClaims(s, pod);
  } catch (err) {
    void s.d.recorder.warning(
      s.set,
      EventReasons.FailedCreate,
      messages.podFailed('create', name, setName, err),
    );
    throw err;
  }
  s.d.expectations.expectScale(s.key, 'create', name);
  try {
    await s.d.client.create(pod);
  } catch (err) {
    s.d.expectations.observeScale(s.key, 'create', name);
    if (isAlreadyExists(err)) return;
    void s.d.recorder.warning(
      s.set,
      EventReasons.FailedCreate,
      messages.podFailed('create', name, setName, err),
    );
    throw err;
  }
  void s.d.recorder.normal(s.set, EventReasons.SuccessfulCreate, messages.pod('create', name, setName));
}

/**
 * `deletePod`: a pod the preDelete hook holds goes to PreparingDelete instead. `modified`: something was written;
 * `deleting`: the pod was deleted; `waitsForBudget`: a PodUnavailableBudget refused it (retried in 1 s).
 */
export async function deletePod(
  s: AstsSync,
  pod: Pod,
): Promise<{ modified: boolean; deleting: boolean; waitsForBudget?: true }> {
  const step = deleteStep(pod, s.spec.lifecycle ?? null);
  if (step.action === 'prepareDelete') {
    const wrote = await s.lifecycle.transition(pod, LifecycleState.PreparingDelete, {
      markPodNotReady: step.markPodNotReady,
    });
    return { modified: wrote, deleting: false };
  }
  const name = nameOf(pod);
  const setName = nameOf(s.set);
  const gone = (err: unknown) => isNotFound(err) || isConflict(err);
  try {
    const result = await deletePodExpected(
      { client: s.d.client, expectations: s.d.expectations, log: s.log },
      s.key,
      pod,
      gone,
    );
    if (result === 'gone') return { modified: false, deleting: false };
  } catch (err) {
    // a PodUnavailableBudget refusal: wait for budget (docs/podunavailablebudget.md)
    if (waitedForBudget(s, err)) return { modified: false, deleting: false, waitsForBudget: true };
    void s.d.recorder.warning(
      s.set,
      EventReasons.FailedDelete,
      messages.podFailed('delete', name, setName, err),
    );
    throw err;
  }
  void s.d.recorder.normal(s.set, EventReasons.SuccessfulDelete, messages.pod('delete', name, setName));
  if (getPodLifecycleState(pod) === LifecycleState.PreparingDelete)
    s.traces.hookWait(s.record, pod, 'preDelete');
  return { modified: true, deleting: true };
}

/** `ClaimsMatchRetentionPolicy` (claims not found count as matching). */
export function claimsMatchPolicy(s: AstsSync, pod: Pod, scaledDown: boolean): boolean {
  if (!s.gates.StatefulSetAutoDeletePVC) return true;
  return claimsOf(s, pod).every(({ found }) => !found || claimMatchesPolicy(found, s.set, pod, scaledDown));
}

/** `UpdatePodClaimForRetentionPolicy`: the owner references of the pod's claims made to match the policy. */
export async function fixClaimRefs(s: AstsSync, pod: Pod, scaledDown: boolean): Promise<void> {
  if (!s.gates.StatefulSetAutoDeletePVC) return;
  for (const { found } of claimsOf(s, pod)) {
    if (!found || found.metadata?.deletionTimestamp) continue;
    const refs = claimOwnerRefsFor(found, s.set, pod, scaledDown, STATEFULSET_GVK);
    if (!refs) continue;
    await s.d.client
      .patch(
        { ...PVC, namespace: found.metadata?.namespace, name: nameOf(found) },
        { metadata: { ownerReferences: refs, resourceVersion: found.metadata?.resourceVersion } },
        { type: 'merge' },
      )
      .catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err))
          throw new ClaimRefsError(
            `Could not update claim ${nameOf(found)} for delete policy ownerRefs: ${errText(err)}`,
            err,
          );
      });
  }
}

/**
 * `UpdateStatefulPod`: identity and storage made to match the set (missing claims created), claim owner references
 * fixed; the pod is written only when it changed, as one JSON patch from the pod read on its version (upstream PUTs
 * it; a patch cannot strip fields a cache's projection left out, docs/adr/0060-pod-projection.md).
 *
 * The volumes are rewritten only when the storage does not match (upstream's `updateStorage` runs only then), and
 * then from the pod read whole from the API server: the cache keeps of each volume only what `storageMatches` reads.
 * The API server refuses any change of an existing pod's volumes, so that write fails as upstream's Update does
 * (apps/asts asts-identity.int.test.ts); the claims are made before it all the same.
 */
export async function updatePodIdentity(s: AstsSync, pod: Pod): Promise<void> {
  const name = nameOf(pod);
  const setName = nameOf(s.set);
  try {
    const read = storageMatches(s.set, pod)
      ? pod
      : await s.d.client.get<Pod>({ ...POD, namespace: pod.metadata?.namespace, name });
    const fixed = storageMatches(s.set, read)
      ? withIdentity(s.set, read, s.gates.PodIndexLabel)
      : withIdentityAndStorage(s.set, read, s.gates.PodIndexLabel);
    await createMissingClaims(s, fixed);
    await fixClaimRefs(s, pod, false);
    if (JSON.stringify(fixed) !== JSON.stringify(read)) {
      s.expectUpdated(await writeUpdatePatch(s.d.client, POD, read, fixed));
      void s.d.recorder.normal(s.set, EventReasons.SuccessfulUpdate, messages.pod('update', name, setName));
    }
  } catch (err) {
    if (isConflict(err) || isNotFound(err)) return;
    void s.d.recorder.warning(
      s.set,
      EventReasons.FailedUpdate,
      messages.podFailed('update', name, setName, err),
    );
    throw err;
  }
}
