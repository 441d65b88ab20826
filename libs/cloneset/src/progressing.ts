/**
 * The CloneSet's `Progressing` condition (`progressDeadlineSeconds`; docs/cloneset.md "Status"): the shared
 * {@link syncWorkloadProgressing} with CloneSet's reasons and messages.
 */
import { CloneSetProgressReasons } from '@regatta/api';
import { type WorkloadCondition, syncWorkloadProgressing } from '@regatta/workload';
import type { ComputedCloneSetStatus } from './status.js';

export type { WorkloadCondition };

export interface ProgressingInput {
  progressDeadlineSeconds: number | null | undefined;
  paused: boolean;
  specReplicas: number;
  status: ComputedCloneSetStatus;
  conditions: readonly WorkloadCondition[];
  now: Date;
}

/** The conditions with `Progressing` set as OpenKruise does for a CloneSet, and when to look again (ms; 0 = none). */
export function syncProgressing(input: ProgressingInput): {
  conditions: WorkloadCondition[];
  requeueAfterMs: number;
} {
  return syncWorkloadProgressing(input, { kind: 'CloneSet', reasons: CloneSetProgressReasons });
}
