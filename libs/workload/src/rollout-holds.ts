/**
 * What holds a rollout back, as spans of its trace: a pause (`updateStrategy.paused`) and a partition hold (every
 * pod the partition allows is updated and ready, the rest wait for a lower partition). Each hold's start is kept in
 * the rollout record on the workload, so the span survives a controller restart; the span is emitted when the hold
 * ends (or the rollout ends or is superseded).
 */

export type RolloutHold = 'paused' | 'partition';

/** Open holds by kind: the RFC 3339 time each began. */
export type HoldStarts = Partial<Record<RolloutHold, string>>;

export interface HoldFacts {
  /** The update revision differs from the current one. */
  rolling: boolean;
  paused: boolean;
  replicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  /** `status.expectedUpdatedReplicas`: replicas minus the resolved partition. */
  expectedUpdatedReplicas: number;
}

/** The holds in force now. */
export function activeHolds(f: HoldFacts): Set<RolloutHold> {
  const holds = new Set<RolloutHold>();
  if (!f.rolling) return holds;
  if (f.paused) holds.add('paused');
  else if (
    f.expectedUpdatedReplicas < f.replicas &&
    f.updatedReplicas >= f.expectedUpdatedReplicas &&
    f.updatedReadyReplicas >= f.expectedUpdatedReplicas
  )
    holds.add('partition');
  return holds;
}

export interface HoldChanges {
  /** The open holds after this round. */
  open: HoldStarts;
  /** Holds that ended this round, with their start: one span each. */
  ended: { hold: RolloutHold; start: string }[];
  changed: boolean;
}

/** Compares the recorded holds with the ones in force: which begin (at `now`) and which end. */
export function syncHolds(
  recorded: HoldStarts | undefined,
  active: ReadonlySet<RolloutHold>,
  now: Date,
): HoldChanges {
  const open: HoldStarts = {};
  const ended: HoldChanges['ended'] = [];
  let changed = false;
  for (const hold of ['paused', 'partition'] as const) {
    const since = recorded?.[hold];
    if (active.has(hold)) {
      open[hold] = since ?? now.toISOString();
      if (since === undefined) changed = true;
    } else if (since !== undefined) {
      ended.push({ hold, start: since });
      changed = true;
    }
  }
  return { open, ended, changed };
}
