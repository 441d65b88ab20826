// In-place pod resize as a kubelet does it (Kubernetes 1.35+, `pods/resize`; upstream kubernetes
// pkg/kubelet/allocation and kuberuntime's doPodResizeAction): the pod's cpu/memory requests and limits in the spec
// are what is asked; what the node has allocated to its containers is what `status.containerStatuses[].resources`
// reports. A resize is
//   - actuated at the pod's next sync when the node has room (containers whose `resizePolicy` says
//     `RestartContainer` for a changed resource restart, as on an image change),
//   - Deferred (condition PodResizePending, reason Deferred) while the other pods of the node leave too little room,
//     tried again on later syncs,
//   - Infeasible (PodResizePending, reason Infeasible) when the pod alone asks for more than the node allocates.
// Pure; pods.ts calls it before `advance`.
import type { Container, Pod, PodCondition } from './types.js';

export const POD_RESIZE_PENDING = 'PodResizePending';
export const POD_RESIZE_IN_PROGRESS = 'PodResizeInProgress';

/** Requests and limits of one container (cpu/memory only: the resources a kubelet resizes). */
export interface Allocated {
  requests: Record<string, string>;
  limits: Record<string, string>;
}

/** What the node has allocated to a pod's regular containers, and why a resize waits (none: nothing waits). */
export interface ResizeState {
  allocated: Record<string, Allocated>;
  pending?: { reason: 'Deferred' | 'Infeasible'; message: string };
}

const RESIZABLE = ['cpu', 'memory'] as const;

/** A quantity in base units (cpu in millicores, memory in bytes), for the few suffixes pod specs use. */
export function quantityValue(q: string | number | undefined, resource: string): number {
  if (q === undefined) return 0;
  const s = String(q).trim();
  const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti|e\d+)?$/.exec(s);
  if (!m) return 0;
  const n = Number(m[1]);
  const unit = m[2] ?? '';
  const mult: Record<string, number> = {
    '': 1,
    m: 0.001,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  const base = unit.startsWith('e') ? n * 10 ** Number(unit.slice(1)) : n * (mult[unit] ?? 1);
  return resource === 'cpu' ? Math.round(base * 1000) : Math.round(base);
}

function pick(map: Record<string, string | number> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of RESIZABLE) if (map?.[r] !== undefined) out[r] = String(map[r]);
  return out;
}

/** What a container asks for in the spec (a request left out is its limit, as the API server defaults it). */
export function wanted(c: Container): Allocated {
  const limits = pick(c.resources?.limits);
  const requests = { ...limits, ...pick(c.resources?.requests) };
  return { requests, limits };
}

const same = (a: Allocated, b: Allocated, resource: string) =>
  quantityValue(a.requests[resource], resource) === quantityValue(b.requests[resource], resource) &&
  quantityValue(a.limits[resource], resource) === quantityValue(b.limits[resource], resource) &&
  (a.requests[resource] === undefined) === (b.requests[resource] === undefined) &&
  (a.limits[resource] === undefined) === (b.limits[resource] === undefined);

/** The allocation of a pod seen for the first time: what its status reports (a restarted simulator), else its spec. */
export function initialResizeState(pod: Pod): ResizeState {
  const allocated: Record<string, Allocated> = {};
  for (const c of pod.spec?.containers ?? []) {
    const reported = pod.status?.containerStatuses?.find((s) => s.name === c.name)?.resources as
      | { requests?: Record<string, string>; limits?: Record<string, string> }
      | undefined;
    allocated[c.name] = reported
      ? { requests: pick(reported.requests), limits: pick(reported.limits) }
      : wanted(c);
  }
  return { allocated };
}

/** The sum of a pod's allocated requests per resource (base units). */
export function allocatedRequests(state: ResizeState): Record<string, number> {
  const sum: Record<string, number> = { cpu: 0, memory: 0 };
  for (const a of Object.values(state.allocated))
    for (const r of RESIZABLE) sum[r] = (sum[r] ?? 0) + quantityValue(a.requests[r], r);
  return sum;
}

export interface ResizeStep {
  state: ResizeState;
  /** Containers the kubelet restarts for the resize (their `resizePolicy` says `RestartContainer`). */
  restart: string[];
  /** Whether the allocation changed now (actuated). */
  actuated: boolean;
}

/**
 * One sync of the pod's resize: compares the spec with what is allocated and actuates, defers or refuses.
 * `allocatable` is the node's (base units per resource); `othersRequested` the requests allocated to the node's
 * other running pods.
 */
export function resizeStep(
  pod: Pod,
  current: ResizeState,
  allocatable: Readonly<Record<string, number>>,
  othersRequested: () => Readonly<Record<string, number>>,
): ResizeStep {
  const containers = pod.spec?.containers ?? [];
  const desired: Record<string, Allocated> = {};
  const changed: Record<string, Set<string>> = {};
  for (const c of containers) {
    const want = wanted(c);
    desired[c.name] = want;
    const have = current.allocated[c.name] ?? want;
    for (const r of RESIZABLE) if (!same(want, have, r)) (changed[c.name] ??= new Set()).add(r);
  }
  if (Object.keys(changed).length === 0) {
    const { pending: _pending, ...rest } = current;
    return { state: rest, restart: [], actuated: false };
  }
  const next: ResizeState = { allocated: desired };
  const requested = allocatedRequests(next);
  const others = othersRequested();
  for (const r of RESIZABLE) {
    const capacity = allocatable[r];
    if (capacity === undefined) continue;
    const want = requested[r] ?? 0;
    if (want > capacity)
      return {
        state: {
          ...current,
          pending: {
            reason: 'Infeasible',
            message: `Node didn't have enough capacity: ${r}, requested: ${want}, capacity: ${capacity}`,
          },
        },
        restart: [],
        actuated: false,
      };
    const used = others[r] ?? 0;
    if (want + used > capacity)
      return {
        state: {
          ...current,
          pending: {
            reason: 'Deferred',
            message: `Node didn't have enough resource: ${r}, requested: ${want}, used: ${used}, capacity: ${capacity}`,
          },
        },
        restart: [],
        actuated: false,
      };
  }
  const restart = containers
    .filter((c) => {
      const policies =
        (c['resizePolicy'] as { resourceName?: string; restartPolicy?: string }[] | undefined) ?? [];
      return policies.some(
        (p) =>
          p.restartPolicy === 'RestartContainer' && (changed[c.name]?.has(p.resourceName ?? '') ?? false),
      );
    })
    .map((c) => c.name);
  return { state: next, restart, actuated: true };
}

/** The container's spec as the node runs it: resources replaced by what is allocated (for its status). */
export function withAllocated(
  c: Container | undefined,
  state: ResizeState | undefined,
): Container | undefined {
  const a = c && state?.allocated[c.name];
  if (!c || !a) return c;
  const resources = {
    ...(Object.keys(a.limits).length ? { limits: a.limits } : {}),
    ...(Object.keys(a.requests).length ? { requests: a.requests } : {}),
  };
  return { ...c, resources };
}

/** The resize condition the pod reports (PodResizePending while deferred or infeasible), if any. */
export function resizeConditions(
  state: ResizeState | undefined,
): { type: string; status: string; reason?: string; message?: string }[] {
  if (!state?.pending) return [];
  return [
    {
      type: POD_RESIZE_PENDING,
      status: 'True',
      reason: state.pending.reason,
      message: state.pending.message,
    },
  ];
}

/** The pod's conditions without the resize ones (a kubelet removes them once the resize is done). */
export function withoutResizeConditions(conditions: PodCondition[]): PodCondition[] {
  return conditions.filter((c) => c.type !== POD_RESIZE_PENDING && c.type !== POD_RESIZE_IN_PROGRESS);
}
