/**
 * Claim resize on rolling update (gate `StatefulSetAutoResizePVCGate`, `volumeClaimUpdateStrategy.type:
 * OnPodRollingUpdate`; OpenKruise `pkg/controller/statefulset/statefulset_resize_pvc.go`,
 * `pkg/util/pvc/pvc_compare_utils.go`): how a pod's claim compares with its volumeClaimTemplate, whether its
 * resize is done, and the pod's claims taken together (a missing claim or one being deleted is skipped, as upstream).
 */
import { compareQuantities } from '@regatta/kube';
import type { PersistentVolumeClaim } from './identity.js';

/** The claim annotation naming the set whose resize touched it; a change of such a claim wakes that set. */
export const OWNED_BY_ASTS_ANNOTATION = 'apps.kruise.io/owned-by-asts';

interface ClaimSpec {
  storageClassName?: string | null;
  accessModes?: string[] | null;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> } | null;
}

const specOf = (c: PersistentVolumeClaim): ClaimSpec => (c.spec ?? {}) as ClaimSpec;

/** Quantity comparison where an unset or unparsable size counts as missing (undefined). */
function cmp(a: string | undefined, b: string | undefined): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  try {
    return compareQuantities(a, b);
  } catch {
    return undefined;
  }
}

/**
 * `IsClaimCompatibleWithoutSize`: same storage class when both name one (a template without a class matches the
 * class the default gave the claim) and the same access modes in the same order.
 */
export function claimMatchesWithoutSize(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): boolean {
  const c = specOf(claim);
  const t = specOf(template);
  if (t.storageClassName != null && c.storageClassName != null && c.storageClassName !== t.storageClassName)
    return false;
  const cm = c.accessModes ?? [];
  const tm = t.accessModes ?? [];
  return cm.length === tm.length && cm.every((m, i) => tm[i] === m);
}

/** `IsPVCNeedExpand`: the claim requests less storage than the template. */
export function claimNeedsExpand(claim: PersistentVolumeClaim, template: PersistentVolumeClaim): boolean {
  const r = cmp(
    specOf(claim).resources?.requests?.['storage'],
    specOf(template).resources?.requests?.['storage'],
  );
  return r !== undefined && r < 0;
}

/** What a claim needs against its template: nothing, a larger request, or a change a resize cannot make. */
export type ClaimResizeState = 'matched' | 'expand' | 'mismatch';

/** `CompareWithCheckFn(claim, template, IsPVCNeedExpand)`. */
export function claimResizeState(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): ClaimResizeState {
  if (!claimMatchesWithoutSize(claim, template)) return 'mismatch';
  return claimNeedsExpand(claim, template) ? 'expand' : 'matched';
}

/**
 * `IsPVCCompatibleAndReady`: compatible = same class and modes, request ≥ template's; ready = same class and modes,
 * capacity ≥ its own request.
 */
export function claimCompatibleAndReady(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): { compatible: boolean; ready: boolean } {
  if (!claimMatchesWithoutSize(claim, template)) return { compatible: false, ready: false };
  const request = specOf(claim).resources?.requests?.['storage'];
  const compatible = (cmp(request, specOf(template).resources?.requests?.['storage']) ?? -1) >= 0;
  const ready = (cmp(claim.status?.capacity?.['storage'], request) ?? -1) >= 0;
  return { compatible, ready };
}

/** `IsPatchPVCCompleted`: compatible and ready, or compatible with the file system resize pending on the node. */
export function claimResizeCompleted(claim: PersistentVolumeClaim, template: PersistentVolumeClaim): boolean {
  const { compatible, ready } = claimCompatibleAndReady(claim, template);
  if (!compatible) return false;
  if (ready) return true;
  const conditions = (claim.status?.['conditions'] ?? []) as { type?: string; status?: string }[];
  return conditions.some((c) => c.type === 'FileSystemResizePending' && c.status === 'True');
}

/** A pod's claims paired with their templates (missing claims and claims being deleted left out). */
export type PodClaims = readonly { claim: PersistentVolumeClaim; template: PersistentVolumeClaim }[];

export function livePodClaims(
  templates: readonly PersistentVolumeClaim[],
  claimOf: (templateName: string) => PersistentVolumeClaim | undefined,
): PodClaims {
  const out: { claim: PersistentVolumeClaim; template: PersistentVolumeClaim }[] = [];
  for (const template of templates) {
    const claim = claimOf(template.metadata?.name ?? '');
    if (!claim || claim.metadata?.deletionTimestamp) continue;
    out.push({ claim, template });
  }
  return out;
}

/** The pod's claims taken together: the first that is not matched decides (`handlePVCWithCustomFn` fails fast). */
export function podClaimsState(claims: PodClaims): ClaimResizeState {
  for (const { claim, template } of claims) {
    const s = claimResizeState(claim, template);
    if (s !== 'matched') return s;
  }
  return 'matched';
}

/** `IsOwnedPVCsReady`: every claim's capacity reached its request (and class and modes match). */
export function podClaimsReady(claims: PodClaims): boolean {
  return claims.every(({ claim, template }) => claimCompatibleAndReady(claim, template).ready);
}

/** `IsOwnedPVCsCompleted`. */
export function podClaimsResizeCompleted(claims: PodClaims): boolean {
  return claims.every(({ claim, template }) => claimResizeCompleted(claim, template));
}
