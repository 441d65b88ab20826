/**
 * The rolling update plan (docs/ads.md "Rolling update"; OpenKruise `pkg/controller/daemonset/daemonset_update.go`
 * `rollingUpdate`, `filterDaemonPodsToUpdate`, `updatedDesiredNodeCounts`): which nodes may be updated (partition,
 * rollingUpdate.selector), how many may be unavailable or surged at once, and which old pods go or which nodes get a
 * surge pod this round.
 */
import {
  type IntOrString,
  type LabelSelector,
  compileLabelSelector,
  isSelectorEmpty,
  scaleK8s,
  scaleKruise,
} from '@regatta/kube';
import { LifecycleState, type Pod, getPodCondition, getPodLifecycleState } from '@regatta/lifecycle';
import { isInPlaceUpdateReady } from '@regatta/inplace-update';
import { isPodAvailable } from '@regatta/rollout';
import { isTerminating } from './node-pods.js';
import { isPodAtHash } from './revision-hash.js';

/** `updatedDesiredNodeCounts`: maxSurge and maxUnavailable scaled on the desired node count (rounding up). */
export function unavailableNumbers(
  maxUnavailable: IntOrString | null | undefined,
  maxSurge: IntOrString | null | undefined,
  desired: number,
): { maxSurge: number; maxUnavailable: number } {
  const mu = maxUnavailable == null ? 0 : scaleK8s(maxUnavailable, desired, true);
  const ms = maxSurge == null ? 0 : scaleK8s(maxSurge, desired, true);
  if (mu === 0 && ms === 0 && desired > 0) return { maxSurge: 0, maxUnavailable: 1 };
  return { maxSurge: ms, maxUnavailable: mu };
}

/** The partition as a node count: int, or a percentage of `status.desiredNumberScheduled` rounded down. */
export function partitionNodes(
  partition: IntOrString | null | undefined,
  desiredNumberScheduled: number,
): number {
  if (partition == null) return 0;
  return Math.max(scaleKruise(partition, desiredNumberScheduled, false), 0);
}

/** `burstReplicas` as a count: int, or a percentage of `status.desiredNumberScheduled` rounded down. */
export function burstReplicas(burst: IntOrString | null | undefined, desiredNumberScheduled: number): number {
  if (burst == null) return 0;
  return Math.max(scaleKruise(burst, desiredNumberScheduled, false), 0);
}

/** `NodeShouldUpdateBySelector`: a non-empty rollingUpdate.selector matches the node's labels. */
export function nodeMatchesUpdateSelector(
  selector: LabelSelector | null | undefined,
  nodeLabels: Record<string, string> | undefined,
): boolean {
  if (!selector || isSelectorEmpty(selector)) return false;
  try {
    return compileLabelSelector(selector).matches(nodeLabels);
  } catch {
    return false;
  }
}

/** `findUpdatedPodsOnNode`: the node's live new and old pod; `ok` false when it has more than one of either. */
export function updatedPodsOnNode(
  pods: readonly Pod[],
  hash: string,
  templateGeneration?: string,
): { ok: boolean; newPod?: Pod; oldPod?: Pod } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (isTerminating(p)) continue;
    if (isPodAtHash(p, hash, templateGeneration)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { ok: true, ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}) };
}

function isPreparingDelete(pod: Pod | undefined): boolean {
  return pod !== undefined && getPodLifecycleState(pod) === LifecycleState.PreparingDelete;
}

export interface FilterInput {
  /** The should-run nodes and their pods (nodes without pods have an empty list). */
  nodeToPods: ReadonlyMap<string, readonly Pod[]>;
  /** Labels of every existing node (a node not here is dropped). */
  nodeLabels: ReadonlyMap<string, Record<string, string>>;
  hash: string;
  templateGeneration?: string;
  selector: LabelSelector | null | undefined;
  /** The partition as a node count. */
  partition: number;
}

/**
 * `filterDaemonPodsToUpdate`: the nodes the rollout may touch, in OpenKruise's order — updated (a new pod, or more
 * than one pod), updating (no live old pod, or it is PreparingDelete), then nodes with an old pod (only those the
 * rollingUpdate.selector matches, when one is set); node names in reverse order within each bucket; the first
 * `nodes - partition` of them.
 */
export function nodesToUpdate(input: FilterInput): string[] {
  const updated: string[] = [];
  const updating: string[] = [];
  const selected: string[] = [];
  const rest: string[] = [];
  const names = [...input.nodeToPods.keys()]
    .filter((n) => input.nodeLabels.has(n))
    .sort()
    .reverse();
  const hasSelector = !!input.selector && !isSelectorEmpty(input.selector);
  for (const name of names) {
    const pods = input.nodeToPods.get(name) ?? [];
    const { ok, newPod, oldPod } = updatedPodsOnNode(pods, input.hash, input.templateGeneration);
    if (!ok || newPod) updated.push(name);
    else if (!oldPod || isPreparingDelete(oldPod)) updating.push(name);
    else if (hasSelector && nodeMatchesUpdateSelector(input.selector, input.nodeLabels.get(name)))
      selected.push(name);
    else rest.push(name);
  }
  const ordered = [...updated, ...updating, ...(hasSelector ? selected : rest)];
  const keep = Math.max(names.length - input.partition, 0);
  return ordered.slice(0, keep);
}

export interface RollingUpdateInput {
  candidates: readonly string[];
  nodeToPods: ReadonlyMap<string, readonly Pod[]>;
  hash: string;
  templateGeneration?: string;
  maxSurge: number;
  maxUnavailable: number;
  minReadySeconds: number;
  now: Date;
}

export interface RollingUpdatePlan {
  /** Old pods to replace: deleted (the manage step recreates them) or updated in place. */
  oldPodsToUpdate: Pod[];
  /** Nodes to create a new (surge) pod on. */
  nodesToCreate: string[];
}

/**
 * An old pod kept unready by the in-place update's readiness gate, not by its containers: `InPlaceUpdateReady` False
 * (an update begun: its status write went out, its pod write did not, or did not yet), or `Ready` False for a
 * readiness gate (reason `ReadinessGatesNotReady`) — also after the refresh put the gate back to True for an update
 * that never went out, until the kubelet turns Ready True again (Kruise's in-place update writes Ready only to False).
 */
function heldByReadinessGate(pod: Pod): boolean {
  return !isInPlaceUpdateReady(pod) || getPodCondition(pod, 'Ready')?.reason === 'ReadinessGatesNotReady';
}

/**
 * The rollout without surge: at most maxUnavailable nodes without an available pod. As upstream, an old pod already
 * unavailable is replaced without taking a slot — unless a readiness gate holds it ({@link heldByReadinessGate}):
 * that is this controller's own update under way, so the pod holds a slot until it is available again, as a new pod
 * not yet ready does; else a refused or lost pod write would let the next round take one node more than
 * maxUnavailable allows (docs/ads.md "Rolling update"; found by the reliability suite, docs/reliability-runs-r1-ao-bq.md run AQ).
 */
export function planRollingUpdate(input: RollingUpdateInput): RollingUpdatePlan {
  if (input.maxSurge > 0) return planSurge(input);
  const available = (p: Pod) => isPodAvailable(p, input.minReadySeconds, input.now);
  let numUnavailable = 0;
  const allowed: Pod[] = [];
  const candidates: Pod[] = [];
  for (const node of input.candidates) {
    const { ok, newPod, oldPod } = updatedPodsOnNode(
      input.nodeToPods.get(node) ?? [],
      input.hash,
      input.templateGeneration,
    );
    if (!ok) {
      numUnavailable++;
      continue;
    }
    if ((!oldPod && !newPod) || (oldPod && newPod) || (oldPod && isPreparingDelete(oldPod))) numUnavailable++;
    else if (newPod) {
      if (!available(newPod) || !isInPlaceUpdateReady(newPod) || isPreparingDelete(newPod)) numUnavailable++;
    } else if (oldPod) {
      if (heldByReadinessGate(oldPod)) {
        numUnavailable++;
        allowed.push(oldPod);
      } else if (!available(oldPod)) allowed.push(oldPod);
      else if (numUnavailable < input.maxUnavailable) candidates.push(oldPod);
    }
  }
  const remaining = Math.max(input.maxUnavailable - numUnavailable, 0);
  return { oldPodsToUpdate: [...allowed, ...candidates.slice(0, remaining)], nodesToCreate: [] };
}

/** The rollout with surge: a new pod beside the old one on at most maxSurge nodes; the old goes once it is available. */
export function planSurge(input: RollingUpdateInput): RollingUpdatePlan {
  const available = (p: Pod) => isPodAvailable(p, input.minReadySeconds, input.now);
  let numSurge = 0;
  const allowedNodes: string[] = [];
  const candidateNodes: string[] = [];
  const oldPodsToUpdate: Pod[] = [];
  for (const node of input.candidates) {
    const { ok, newPod, oldPod } = updatedPodsOnNode(
      input.nodeToPods.get(node) ?? [],
      input.hash,
      input.templateGeneration,
    );
    if (!ok) {
      numSurge++;
      continue;
    }
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) allowedNodes.push(node);
      else if (numSurge < input.maxSurge) candidateNodes.push(node);
    } else if (!available(newPod) || isPreparingDelete(newPod)) numSurge++;
    else oldPodsToUpdate.push(oldPod);
  }
  const remaining = Math.min(Math.max(input.maxSurge - numSurge, 0), candidateNodes.length);
  return { oldPodsToUpdate, nodesToCreate: [...allowedNodes, ...candidateNodes.slice(0, remaining)] };
}
