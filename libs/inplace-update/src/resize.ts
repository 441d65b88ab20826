/**
 * In-place resource resize (gate `InPlaceWorkloadVerticalScaling`, docs/adr/0087-in-place-resource-resize.md): the
 * pure parts. Which template change is a resize (`UpdateInplaceUpdateMetadata` in upstream
 * `pkg/util/inplaceupdate/inplace_update_vertical.go`), the pod's QoS class before and after (Kubernetes
 * `pkg/apis/core/v1/helper/qos`), the `pods/resize` patch, whether the pod must leave service for it
 * (`defaultCheckPodNeedsBeUnready`), and whether the kubelet has actuated it (`IsUpdateCompleted`, plus the
 * `PodResizePending` / `PodResizeInProgress` conditions of Kubernetes 1.33+).
 */
import { compareQuantities, isPlainObject } from '@regatta/kube';
import type { Container, Pod } from '@regatta/lifecycle';

/** Requests and limits of one container, as written in a pod spec. */
export interface ContainerResources {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
}

function quantities(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, q] of Object.entries(v))
    if (typeof q === 'string' || typeof q === 'number') out[k] = String(q);
  return out;
}

/** Reads a `ResourceRequirements` JSON value (annotations written by Regatta or OpenKruise); junk reads as empty. */
export function readContainerResources(v: unknown): ContainerResources {
  if (!isPlainObject(v)) return {};
  const limits = quantities(v['limits']);
  const requests = quantities(v['requests']);
  return { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) };
}

/** The resources the kubelet can resize in place (upstream `allowedResizeResourceKey`). */
export const RESIZABLE_RESOURCES: ReadonlySet<string> = new Set(['cpu', 'memory']);

/** Pod conditions the kubelet reports while a resize is not actuated yet. */
export const POD_RESIZE_PENDING = 'PodResizePending';
export const POD_RESIZE_IN_PROGRESS = 'PodResizeInProgress';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** One template JSON-patch operation under `/spec/containers/<i>/resources/`, read as a resize. */
export type ResourceOp =
  | { ok: true; container: number; kind: 'limits' | 'requests'; resource: string; value: string }
  | { ok: false; message: string };

const RESOURCE_PATH = /^\/spec\/containers\/(\d+)\/resources(\/.*)?$/;

/** True for a pod-spec path under a container's `resources`. */
export function isContainerResourcesPath(path: string): boolean {
  return RESOURCE_PATH.test(path);
}

/**
 * Reads one operation of the template diff under a container's `resources`: only a `replace` of an existing cpu or
 * memory request/limit resizes in place (adding or removing one, as upstream, needs a new pod).
 */
export function readResourceOp(op: { op: string; path: string; value?: unknown }): ResourceOp {
  const m = RESOURCE_PATH.exec(op.path);
  if (!m) return { ok: false, message: `${op.path} is not a container resource` };
  const words = (m[2] ?? '').split('/').slice(1);
  if (words.length !== 2 || (words[0] !== 'limits' && words[0] !== 'requests'))
    return { ok: false, message: `${op.op} ${op.path} changes more than one request or limit` };
  const resource = words[1] ?? '';
  if (op.op !== 'replace')
    return { ok: false, message: `${op.op} ${op.path} adds or removes a request or limit` };
  if (!RESIZABLE_RESOURCES.has(resource))
    return { ok: false, message: `${op.path}: only cpu and memory are resized in place` };
  if (typeof op.value !== 'string' && typeof op.value !== 'number')
    return { ok: false, message: `${op.path} is not a quantity` };
  try {
    compareQuantities(op.value, 0);
  } catch {
    return { ok: false, message: `${op.path}: '${String(op.value)}' is not a quantity` };
  }
  return { ok: true, container: Number(m[1]), kind: words[0], resource, value: String(op.value) };
}

const QOS_RESOURCES = ['cpu', 'memory'] as const;

function isZero(v: string | number | undefined): boolean {
  if (v === undefined) return true;
  try {
    return compareQuantities(v, 0) === 0;
  } catch {
    return true;
  }
}

/**
 * The pod's QoS class (Kubernetes `GetPodQOS` over containers and init containers): BestEffort without any cpu or
 * memory request or limit; Guaranteed when every container limits both and each request equals its limit; else
 * Burstable. A request left out defaults to its limit, as the API server defaults it.
 */
export function podQosClass(
  spec: { containers?: Container[]; initContainers?: Container[] } | undefined,
): QosClass {
  const all = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const limits = c.resources?.limits ?? {};
    const requests = c.resources?.requests ?? {};
    for (const r of QOS_RESOURCES) {
      const limit = isZero(limits[r]) ? undefined : limits[r];
      const request = requests[r] !== undefined ? (isZero(requests[r]) ? undefined : requests[r]) : limit;
      if (limit !== undefined || request !== undefined) any = true;
      if (limit === undefined || request === undefined || compareQuantities(limit, request) !== 0)
        guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * The body of a strategic merge patch for `pods/resize`: per container of `wanted`, the requests and limits that
 * differ from the pod's (equal quantities in another spelling are not sent). Undefined when nothing differs. With
 * `resourceVersion`, the patch is refused with 409 Conflict if the pod changed since it was read.
 */
export function resizePatch(
  pod: Pod,
  wanted: Readonly<Record<string, ContainerResources>>,
  resourceVersion?: string,
): Record<string, unknown> | undefined {
  const containers: { name: string; resources: ContainerResources }[] = [];
  for (const c of pod.spec?.containers ?? []) {
    const w = wanted[c.name];
    if (!w) continue;
    const resources: ContainerResources = {};
    for (const kind of ['limits', 'requests'] as const) {
      for (const [r, q] of Object.entries(w[kind] ?? {})) {
        if (!RESIZABLE_RESOURCES.has(r)) continue;
        const have = c.resources?.[kind]?.[r];
        if (have !== undefined && compareQuantities(have, q) === 0) continue;
        (resources[kind] ??= {})[r] = q;
      }
    }
    if (resources.limits || resources.requests) containers.push({ name: c.name, resources });
  }
  if (containers.length === 0) return undefined;
  return {
    ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    spec: { containers },
  };
}

/**
 * Whether the pod must leave service (`InPlaceUpdateReady=False`) for an update whose only spec change is `resized`
 * (upstream `defaultCheckPodNeedsBeUnready`): only when a container's `resizePolicy` says `RestartContainer` for a
 * resource that changes, since the kubelet then restarts that container.
 */
export function resizeRestartsContainer(
  pod: Pod,
  resized: Readonly<Record<string, ContainerResources>>,
): boolean {
  for (const c of pod.spec?.containers ?? []) {
    const r = resized[c.name];
    if (!r) continue;
    const changed = new Set([...Object.keys(r.limits ?? {}), ...Object.keys(r.requests ?? {})]);
    const policies =
      (c['resizePolicy'] as { resourceName?: string; restartPolicy?: string }[] | undefined) ?? [];
    if (policies.some((p) => p.restartPolicy === 'RestartContainer' && changed.has(p.resourceName ?? '')))
      return true;
  }
  return false;
}

/** The pod's `PodResizePending` condition, when the kubelet has not accepted a resize (Deferred or Infeasible). */
export function resizePending(pod: Pod): { reason: string; message: string } | undefined {
  const c = (pod.status?.conditions ?? []).find((x) => x.type === POD_RESIZE_PENDING && x.status === 'True');
  return c ? { reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

/** The kubelet refused the pod's resize for good (`PodResizePending`, reason `Infeasible`): its message. */
export function resizeInfeasible(pod: Pod): string | undefined {
  const p = resizePending(pod);
  return p?.reason === 'Infeasible' ? p.message || 'the node cannot hold the new resources' : undefined;
}

function sameQuantities(
  want: Record<string, string | number> | undefined,
  have: Record<string, string> | undefined,
): boolean {
  for (const [r, q] of Object.entries(want ?? {})) {
    if (!RESIZABLE_RESOURCES.has(r)) continue;
    const h = have?.[r];
    if (h === undefined) return false;
    try {
      if (compareQuantities(q, h) !== 0) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Has the kubelet actuated the pod's resources (upstream `IsUpdateCompleted`, plus the resize conditions)? No
 * `PodResizePending` / `PodResizeInProgress` condition, and every container (of `only`, when given: a SidecarSet's
 * resized sidecars) reports in `status.resources` the cpu and memory requests and limits its spec asks for.
 */
export function checkResizeActuated(
  pod: Pod,
  only?: readonly string[],
): { completed: true } | { completed: false; reason: string } {
  const pending = resizePending(pod);
  if (pending) return { completed: false, reason: `resize pending (${pending.reason}): ${pending.message}` };
  const inProgress = (pod.status?.conditions ?? []).find(
    (x) => x.type === POD_RESIZE_IN_PROGRESS && x.status === 'True',
  );
  if (inProgress) return { completed: false, reason: 'resize in progress' };
  for (const c of pod.spec?.containers ?? []) {
    if (only && !only.includes(c.name)) continue;
    const want = c.resources;
    if (
      !want ||
      (Object.keys(want.limits ?? {}).length === 0 && Object.keys(want.requests ?? {}).length === 0)
    )
      continue;
    const status = (pod.status?.containerStatuses ?? []).find((s) => s.name === c.name);
    if (!status) return { completed: false, reason: `container ${c.name} has no status` };
    const have = (status as { resources?: ContainerResources }).resources;
    if (!sameQuantities(want.limits, have?.limits) || !sameQuantities(want.requests, have?.requests))
      return { completed: false, reason: `container ${c.name} resources not changed` };
  }
  return { completed: true };
}

/** The workload condition that reports pods whose node refused their resize (docs/adr/0087). */
export const RESIZE_INFEASIBLE_CONDITION = 'PodResizeInfeasible';

/**
 * The workload's `PodResizeInfeasible` condition for its pods: True naming each pod whose kubelet reports the resize
 * Infeasible (with the kubelet's message; the first five, then a count) or whose resize the API server refused this
 * round (`refused`, by pod name), undefined when none (the condition is
 * removed). Such a resize is not sent again: the pod keeps running with its old resources until the template
 * changes or the pod is deleted.
 */
export function resizeInfeasibleCondition(
  pods: readonly Pod[],
  refused: ReadonlyMap<string, string> = new Map(),
): { type: string; status: 'True'; reason: string; message: string } | undefined {
  const found = pods
    .map((p) => {
      const name = p.metadata?.name ?? '';
      return { name, message: resizeInfeasible(p) ?? refused.get(name) };
    })
    .filter((x): x is { name: string; message: string } => x.message !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (found.length === 0) return undefined;
  const shown = found.slice(0, 5).map((x) => `${x.name}: ${x.message}`);
  if (found.length > 5) shown.push(`and ${found.length - 5} more`);
  return {
    type: RESIZE_INFEASIBLE_CONDITION,
    status: 'True',
    reason: 'Infeasible',
    message: `the node refused to resize ${found.length === 1 ? 'pod' : `${found.length} pods`} in place (${shown.join('; ')})`,
  };
}

/** Sets or removes the {@link resizeInfeasibleCondition} in a workload's conditions (a pure helper for status steps). */
export function withResizeInfeasibleCondition<C extends { type: string }>(
  conditions: readonly C[],
  pods: readonly Pod[],
  set: (
    conditions: readonly C[],
    c: { type: string; status: 'True'; reason: string; message: string },
  ) => C[],
  refused?: ReadonlyMap<string, string>,
): C[] {
  const c = resizeInfeasibleCondition(pods, refused);
  if (c) return set(conditions, c);
  return conditions.filter((x) => x.type !== RESIZE_INFEASIBLE_CONDITION);
}

/**
 * The conditions a workload's status merge patch carries: `next`, or an empty list when `next` has none but the
 * stored status has some. A JSON merge patch (RFC 7386) that leaves `conditions` out keeps the stored list, so the
 * last condition removed (PodResizeInfeasible once no pod is refused any more) would stay on the workload.
 */
export function conditionsToWrite<C>(
  stored: readonly C[] | null | undefined,
  next: readonly C[] | null | undefined,
): C[] | undefined {
  if (next && next.length > 0) return [...next];
  return stored && stored.length > 0 ? [] : undefined;
}

type LooseCondition = { type?: string; status?: string; message?: string };

/**
 * Whether the {@link RESIZE_INFEASIBLE_CONDITION} differs between the stored and the next conditions (appears, goes,
 * or names other pods): a status write is due even where conditions alone do not make one (Advanced StatefulSet).
 */
export function resizeInfeasibleConditionChanged(
  stored: readonly LooseCondition[] | null | undefined,
  next: readonly LooseCondition[] | null | undefined,
): boolean {
  const find = (list: readonly LooseCondition[] | null | undefined) =>
    (list ?? []).find((c) => c.type === RESIZE_INFEASIBLE_CONDITION && c.status === 'True');
  const a = find(stored);
  const b = find(next);
  return a?.message !== b?.message || (a === undefined) !== (b === undefined);
}

/** Event messages shared by the workloads (reasons `QoSClassChangeRecreate`, `ResizeInfeasible`). */
export const resizeMessages = {
  qosRecreate: (pod: string, why: string) => `pod ${pod} is recreated, not resized in place: ${why}`,
  infeasible: (pod: string, why: string) => `pod ${pod} cannot be resized in place: ${why}`,
};
