/**
 * PVC retention (`persistentVolumeClaimRetentionPolicy`, gate `StatefulSetAutoDeletePVC`; OpenKruise
 * `pkg/controller/statefulset/stateful_set_utils.go` `claimOwnerMatchesSetAndPod`, `updateClaimOwnerRefForSetAndPod`,
 * `hasStaleOwnerRef`): the owner references a claim carries so the garbage collector deletes it with the set
 * (whenDeleted: Delete) or with its scaled-down pod (whenScaled: Delete).
 */
import type { KubeObject, OwnerReference } from '@regatta/kube';
import type { StatefulSetObject } from '../statefulset-object.js';

export interface RetentionPolicy {
  whenDeleted: 'Retain' | 'Delete';
  whenScaled: 'Retain' | 'Delete';
}

export function retentionPolicyOf(set: StatefulSetObject): RetentionPolicy {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return {
    whenDeleted: p?.whenDeleted === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: p?.whenScaled === 'Delete' ? 'Delete' : 'Retain',
  };
}

function hasRef(target: KubeObject, owner: KubeObject): boolean {
  const uid = owner.metadata?.uid;
  return (target.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
}

/** `hasStaleOwnerRef`: a reference by the owner's name to another uid (an earlier pod of that name). */
export function hasStaleOwnerRef(
  target: KubeObject,
  owner: { name: string; uid?: string | undefined },
): boolean {
  return (target.metadata?.ownerReferences ?? []).some((r) => r.name === owner.name && r.uid !== owner.uid);
}

/** The references a claim should carry to the set and to its pod (true = a reference). */
export function wantedRefs(policy: RetentionPolicy, podScaledDown: boolean): { set: boolean; pod: boolean } {
  if (policy.whenScaled === 'Retain') return { set: policy.whenDeleted === 'Delete', pod: false };
  if (policy.whenDeleted === 'Retain') return { set: false, pod: podScaledDown };
  return { set: !podScaledDown, pod: podScaledDown };
}

/** `claimOwnerMatchesSetAndPod`. */
export function claimMatchesPolicy(
  claim: KubeObject,
  set: StatefulSetObject,
  pod: KubeObject,
  podScaledDown: boolean,
): boolean {
  const want = wantedRefs(retentionPolicyOf(set), podScaledDown);
  return hasRef(claim, set) === want.set && hasRef(claim, pod) === want.pod;
}

/**
 * `updateClaimOwnerRefForSetAndPod`: the claim's owner references made to match the policy (non-controller
 * references, as upstream), or undefined when they already do.
 */
export function claimOwnerRefsFor(
  claim: KubeObject,
  set: StatefulSetObject,
  pod: KubeObject,
  podScaledDown: boolean,
  setKind: { apiVersion: string; kind: string },
): OwnerReference[] | undefined {
  const want = wantedRefs(retentionPolicyOf(set), podScaledDown);
  let refs = [...(claim.metadata?.ownerReferences ?? [])];
  let changed = false;
  const apply = (owner: KubeObject, wanted: boolean, kind: { apiVersion: string; kind: string }) => {
    const has = hasRef({ metadata: { ownerReferences: refs } }, owner);
    if (wanted && !has) {
      refs = [
        ...refs,
        {
          apiVersion: kind.apiVersion,
          kind: kind.kind,
          name: owner.metadata?.name ?? '',
          uid: owner.metadata?.uid ?? '',
        },
      ];
      changed = true;
    } else if (!wanted && has) {
      refs = refs.filter((r) => r.uid !== owner.metadata?.uid);
      changed = true;
    }
  };
  apply(set, want.set, setKind);
  apply(pod, want.pod, { apiVersion: 'v1', kind: 'Pod' });
  return changed ? refs : undefined;
}
