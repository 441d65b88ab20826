/**
 * The order pods are updated in (OpenKruise `pkg/controller/statefulset/stateful_update_utils.go`
 * `sortPodsToUpdate`): ordered — from the highest slot down to the partition; unordered — pods already updated (or
 * terminating) first, then the others by `priorityStrategy` (stable), at most `replicas - partition` of them.
 */
import type { Pod } from '@regatta/lifecycle';
import { type UpdatePriorityStrategy, comparePriority, isPodUpdate } from '@regatta/rollout';
import { isTerminating } from './pod-state.js';

export interface UpdateOrderInput {
  partition: number;
  replicas: number;
  /** `rollingUpdate.unorderedUpdate` is set (its priorityStrategy may be null). */
  unordered: boolean;
  priorityStrategy?: UpdatePriorityStrategy | null;
  updateRevision: string;
  preparingUpdateAsUpdate: boolean;
}

export function sortPodsToUpdate(input: UpdateOrderInput, slots: readonly (Pod | undefined)[]): number[] {
  const maxUpdate = input.replicas - input.partition;
  if (maxUpdate <= 0) return [];
  if (!input.unordered) {
    const out: number[] = [];
    for (let i = slots.length - 1; i >= input.partition && out.length < maxUpdate; i--) {
      if (slots[i] !== undefined) out.push(i);
    }
    return out;
  }
  const updated: number[] = [];
  let waiting: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) {
    const p = slots[i];
    if (p === undefined) continue;
    if (
      isTerminating(p) ||
      isPodUpdate(p, input.updateRevision, { preparingUpdateAsUpdate: input.preparingUpdateAsUpdate })
    )
      updated.push(i);
    else waiting.push(i);
  }
  const strategy = input.priorityStrategy;
  if (strategy) {
    // Array.prototype.sort is stable: equal priorities keep the descending slot order
    waiting = [...waiting].sort((a, b) => comparePriority(slots[a] as Pod, slots[b] as Pod, strategy));
  }
  return [...updated, ...waiting].slice(0, maxUpdate);
}
