/**
 * The `KruisePodReady` condition (Kruise `podreadiness`): several writers may hold a pod not-ready, each with a
 * `{userAgent, key}` message; the condition is `True` only when no key remains. Pure: each function returns the new
 * `status.conditions` to write through the pod status subresource, or `undefined` when nothing changes.
 */
import { toRfc3339 } from '@regatta/kube';
import { type Pod, type PodCondition, getPodCondition, hasReadinessGate, withReadinessGate } from './pod.js';
import { recomputePodReady, withPodConditions } from './pod-conditions.js';

/** Pod condition / readiness gate type shared by Kruise writers (CloneSet, Advanced StatefulSet/DaemonSet, CRR). */
export const KRUISE_POD_READY = 'KruisePodReady';

/** One reason a writer holds the pod not-ready. */
export interface NotReadyKey {
  userAgent: string;
  key: string;
}

function parseKeys(message: string | undefined): NotReadyKey[] {
  if (!message) return [];
  try {
    const parsed: unknown = JSON.parse(message);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((m: unknown) => {
      if (typeof m !== 'object' || m === null) return [];
      const { userAgent, key } = m as Record<string, unknown>;
      return [
        {
          userAgent: typeof userAgent === 'string' ? userAgent : '',
          key: typeof key === 'string' ? key : '',
        },
      ];
    });
  } catch {
    return [];
  }
}

/** The message Kruise writes: the keys sorted by (userAgent, key), as a JSON array `[{"userAgent":…,"key":…}]`. */
export function formatNotReadyKeys(keys: readonly NotReadyKey[]): string {
  const sorted = [...keys].sort((a, b) =>
    a.userAgent === b.userAgent
      ? a.key < b.key
        ? -1
        : a.key > b.key
          ? 1
          : 0
      : a.userAgent < b.userAgent
        ? -1
        : 1,
  );
  return JSON.stringify(sorted.map((k) => ({ userAgent: k.userAgent, key: k.key })));
}

/** The keys currently holding the pod not-ready. */
export function notReadyKeys(pod: Pod): NotReadyKey[] {
  return parseKeys(getPodCondition(pod, KRUISE_POD_READY)?.message);
}

const same = (a: NotReadyKey, b: NotReadyKey) => a.userAgent === b.userAgent && a.key === b.key;

/**
 * `AddNotReadyKey`: only for pods with the `KruisePodReady` readiness gate. A new key sets the condition `False`
 * (creating it without a status when absent, as upstream), updates message and lastTransitionTime, and recomputes
 * `Ready`. `undefined` when the key is already held or the pod has no gate.
 */
export function addNotReadyKey(pod: Pod, key: NotReadyKey, now: Date): PodCondition[] | undefined {
  if (!hasReadinessGate(pod, KRUISE_POD_READY)) return undefined;
  const existing = getPodCondition(pod, KRUISE_POD_READY);
  const keys = parseKeys(existing?.message);
  if (keys.some((k) => same(k, key))) return undefined;
  const next: PodCondition =
    existing === undefined
      ? {
          type: KRUISE_POD_READY,
          status: '',
          message: formatNotReadyKeys([key]),
          lastTransitionTime: toRfc3339(now),
        }
      : {
          ...existing,
          status: 'False',
          message: formatNotReadyKeys([...keys, key]),
          lastTransitionTime: toRfc3339(now),
        };
  const current = pod.status?.conditions ?? [];
  const placed =
    existing === undefined
      ? [...current, next]
      : current.map((c) => (c.type === KRUISE_POD_READY ? next : c));
  return recomputePodReady(withPodConditions(pod, placed), now);
}

/**
 * `RemoveNotReadyKey`: drops the key; with no key left the condition becomes `True`. `undefined` when the pod has no
 * gate, no condition, or does not hold that key. `Ready` is left to the kubelet, as upstream.
 */
export function removeNotReadyKey(pod: Pod, key: NotReadyKey, now: Date): PodCondition[] | undefined {
  if (!hasReadinessGate(pod, KRUISE_POD_READY)) return undefined;
  const existing = getPodCondition(pod, KRUISE_POD_READY);
  if (existing === undefined) return undefined;
  const keys = parseKeys(existing.message);
  const kept = keys.filter((k) => !same(k, key));
  if (kept.length === keys.length) return undefined;
  const next: PodCondition = {
    ...existing,
    ...(kept.length === 0 ? { status: 'True' } : {}),
    message: formatNotReadyKeys(kept),
    lastTransitionTime: toRfc3339(now),
  };
  return (pod.status?.conditions ?? []).map((c) => (c.type === KRUISE_POD_READY ? next : c));
}

/**
 * The pod with the `KruisePodReady` readiness gate appended once, as OpenKruise's pod webhook injects it at CREATE
 * into the pods whose controller is of the `apps.kruise.io` group (`pkg/webhook/pod/mutating/pod_readiness.go`,
 * `util.IsPodOwnedByKruise`, `util.InjectReadinessGateToPod`). Regatta's workloads build their pods themselves, so
 * each appends it when it builds a new pod.
 */
export function withKruisePodReadinessGate(pod: Pod): Pod {
  return withReadinessGate(pod, KRUISE_POD_READY);
}

/**
 * True when the pod waits for its first `KruisePodReady` condition: it has the gate, no such condition and is not
 * being deleted (OpenKruise `pkg/controller/podreadiness`, its watch predicate and `Reconcile`).
 */
export function needsInitialKruisePodReady(pod: Pod): boolean {
  return (
    !pod.metadata?.deletionTimestamp &&
    hasReadinessGate(pod, KRUISE_POD_READY) &&
    getPodCondition(pod, KRUISE_POD_READY) === undefined
  );
}

/**
 * The condition the podreadiness controller writes first: `KruisePodReady=True` (no key holds the pod), to be
 * merged by type into `status.conditions` (a strategic merge patch of pods/status, as upstream). `undefined` when the
 * pod does not need it ({@link needsInitialKruisePodReady}).
 */
export function initialKruisePodReady(pod: Pod, now: Date): PodCondition | undefined {
  if (!needsInitialKruisePodReady(pod)) return undefined;
  return { type: KRUISE_POD_READY, status: 'True', lastTransitionTime: toRfc3339(now) };
}
