/**
 * Which revision a missing pod is created at (OpenKruise `pkg/controller/statefulset/stateful_set_utils.go`
 * `isCurrentRevisionNeeded`): pods kept back by the partition are recreated at the current revision.
 */
import type { Pod } from '@regatta/lifecycle';
import { isPodUpdate } from '@regatta/rollout';
import { ordinalOf } from './ordinals.js';

export interface RevisionChoiceInput {
  updateType: 'RollingUpdate' | 'OnDelete';
  /** `updateStrategy.rollingUpdate` is set. */
  hasRollingUpdate: boolean;
  unordered: boolean;
  partition: number;
  start: number;
  /** `status.currentReplicas`. */
  currentReplicas: number;
  updateRevision: string;
  preparingUpdateAsUpdate: boolean;
}

/**
 * True when the pod of `ordinal` is to be created at the current revision. `slots` are the set's pods by slot
 * (ordinal - start), including pods this round has planned for lower slots; reserved or missing = undefined.
 */
export function isCurrentRevisionNeeded(
  input: RevisionChoiceInput,
  ordinal: number,
  slots: readonly (Pod | undefined)[],
): boolean {
  if (input.updateType !== 'RollingUpdate') return false;
  if (!input.hasRollingUpdate) return ordinal < input.start + input.currentReplicas;
  if (!input.unordered) {
    let before = 0;
    for (let i = 0; i < ordinal - input.start; i++) if (slots[i] !== undefined) before++;
    return before + 1 <= input.partition;
  }
  let notUpdated = 0;
  for (const p of slots) {
    if (p === undefined || ordinalOf(p) === ordinal) continue;
    if (!isPodUpdate(p, input.updateRevision, { preparingUpdateAsUpdate: input.preparingUpdateAsUpdate }))
      notUpdated++;
  }
  return notUpdated < input.partition;
}
