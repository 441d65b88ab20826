/**
 * Deletion protection, decided: pure functions from the object being deleted (the DELETE request's old object) and
 * what it still holds to the reason the deletion is refused, or undefined when it may go on. The behaviour is
 * OpenKruise v1.9.1's `pkg/webhook/util/deletionprotection` (label `policy.kruise.io/delete-protection`, values
 * `Always` and `Cascading`), the messages its e2e specs match (`forbidden by ResourcesProtectionDeletion`); who calls
 * which decision, and which run without Regatta at all, is docs/deletion-protection.md.
 */
import { Labels } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

/** The label: `policy.kruise.io/delete-protection`. */
export const DELETION_PROTECTION_KEY = Labels.DeleteProtection;
export const PROTECTION_ALWAYS = 'Always';
export const PROTECTION_CASCADING = 'Cascading';
export type Protection = typeof PROTECTION_ALWAYS | typeof PROTECTION_CASCADING;

/** The start of every refusal, as upstream words it (its e2e specs match this text). */
export const FORBIDDEN = 'forbidden by ResourcesProtectionDeletion';

/**
 * The protection an object asks for: the label's value when it is `Always` or `Cascading`; undefined for any other
 * value, no label, or an object already being deleted (a repeated DELETE of it is never refused, as upstream).
 */
export function protectionOf(obj: KubeObject | null | undefined): Protection | undefined {
  if (!obj || obj.metadata?.deletionTimestamp) return undefined;
  const value = obj.metadata?.labels?.[DELETION_PROTECTION_KEY];
  return value === PROTECTION_ALWAYS || value === PROTECTION_CASCADING ? value : undefined;
}

const label = (p: Protection) => `${FORBIDDEN} for ${DELETION_PROTECTION_KEY}=${p}`;

/** A pod still counts: not Succeeded, not Failed, not being deleted (kube-controller-manager's `IsPodActive`). */
export function isPodActive(pod: KubeObject): boolean {
  const phase = (pod as { status?: { phase?: string } } | null)?.status?.phase;
  return !!pod && phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** A claim still holds a volume: Bound and not being deleted. */
export function isClaimBound(pvc: KubeObject): boolean {
  return (
    !pvc?.metadata?.deletionTimestamp &&
    (pvc as { status?: { phase?: string } } | null)?.status?.phase === 'Bound'
  );
}

/** Any workload with `spec.replicas`: `Always` refuses; `Cascading` refuses while replicas > 0. */
export function workloadDeletionProblem(
  obj: KubeObject | null | undefined,
  replicas: number | undefined,
): string | undefined {
  const p = protectionOf(obj);
  if (p === PROTECTION_ALWAYS) return label(p);
  if (p === PROTECTION_CASCADING && replicas !== undefined && replicas > 0)
    return `${label(p)} and replicas ${replicas}>0`;
  return undefined;
}

/** `spec.replicas` of a workload's JSON, when it is a number. */
export function replicasOf(obj: KubeObject | null | undefined): number | undefined {
  const r = (obj as { spec?: { replicas?: unknown } } | null | undefined)?.spec?.replicas;
  return typeof r === 'number' ? r : undefined;
}

/**
 * A workload without `spec.replicas` (Advanced DaemonSet, BroadcastJob): `Always` refuses; `Cascading` refuses while
 * it controls active pods (Regatta's extension of upstream's list, docs/deletion-protection.md).
 */
export function podOwnerDeletionProblem(
  obj: KubeObject | null | undefined,
  ownedPods: readonly KubeObject[],
): string | undefined {
  const p = protectionOf(obj);
  if (p === PROTECTION_ALWAYS) return label(p);
  if (p !== PROTECTION_CASCADING) return undefined;
  const active = ownedPods.filter(isPodActive).length;
  return active > 0 ? `${label(p)} and active pods ${active}>0` : undefined;
}

/** A Namespace: `Always` refuses; `Cascading` refuses while it holds active pods, then while it holds Bound claims. */
export function namespaceDeletionProblem(
  ns: KubeObject | null | undefined,
  pods: readonly KubeObject[],
  claims: readonly KubeObject[],
): string | undefined {
  const p = protectionOf(ns);
  if (p === PROTECTION_ALWAYS) return label(p);
  if (p !== PROTECTION_CASCADING) return undefined;
  const active = pods.filter(isPodActive).length;
  if (active > 0) return `${label(p)} and active pods ${active}>0`;
  const bound = claims.filter(isClaimBound).length;
  if (bound > 0) return `${label(p)} and "Bound" status pvc ${bound}>0`;
  return undefined;
}

/**
 * A CustomResourceDefinition: `Always` refuses; `Cascading` needs gate `DeletionProtectionForCRDCascadingGate` (off:
 * refused, as upstream) and refuses while objects of it exist that are not being deleted. `objects` is read only for
 * `Cascading` with the gate on: see {@link crdNeedsObjects}.
 */
export function crdDeletionProblem(
  crd: KubeObject | null | undefined,
  objects: readonly KubeObject[],
  gates: { crdCascading: boolean },
): string | undefined {
  const p = protectionOf(crd);
  if (p === PROTECTION_ALWAYS) return label(p);
  if (p !== PROTECTION_CASCADING) return undefined;
  if (!gates.crdCascading) return 'feature-gate DeletionProtectionForCRDCascadingGate is not enabled';
  const active = objects.filter((o) => !!o && !o.metadata?.deletionTimestamp).length;
  return active > 0 ? `${label(p)} and active CRs ${active}>0` : undefined;
}

/** Whether {@link crdDeletionProblem} reads the CRD's objects (the one lookup that goes to the API server). */
export function crdNeedsObjects(
  crd: KubeObject | null | undefined,
  gates: { crdCascading: boolean },
): boolean {
  return gates.crdCascading && protectionOf(crd) === PROTECTION_CASCADING;
}

/** The version to list a CRD's objects with: its storage version, else its first served one. */
export function crdListVersion(crd: KubeObject | null | undefined): string | undefined {
  const raw = (crd as { spec?: { versions?: unknown } } | null | undefined)?.spec?.versions;
  const versions = (Array.isArray(raw) ? raw : []) as ({
    name?: unknown;
    served?: boolean;
    storage?: boolean;
  } | null)[];
  const found = versions.find((v) => v?.storage && v.served) ?? versions.find((v) => v?.served);
  return typeof found?.name === 'string' ? found.name : undefined;
}

/** What the Regatta webhook answers with: upstream's reason, then who refused it and how to go on. */
export function refusalMessage(problem: string): string {
  return `${problem} (refused by Regatta's deletionprotection webhook; remove the label ${DELETION_PROTECTION_KEY} or what the object still holds first)`;
}
