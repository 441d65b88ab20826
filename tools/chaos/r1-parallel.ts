// R1's rollouts N at a time (--r1-parallel, docs/reliability.md "Running it"): how a kind's plans are grouped, and
// which rollouts are in their checked phase while a fault comes. Pure.

/** What both R1 rows (r1.ts, r1-sidecarset.ts) are run with (main.ts from the arguments, args.ts). */
export interface R1Options {
  rollouts: number;
  pods: [number, number];
  seed: number;
  gapMs: [number, number];
  /** Rollouts at once (--r1-parallel; 1: one after the other). */
  parallel: number;
}

/** `plans` in order, cut into groups of `n` (the last one shorter); n = 1: one group per plan. */
export function inGroups<T>(plans: readonly T[], n: number): T[][] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a group holds at least one rollout, not ${n}`);
  const groups: T[][] = [];
  for (let i = 0; i < plans.length; i += n) groups.push(plans.slice(i, i + n));
  return groups;
}

/** How a group's rollouts are named in the log and the mirror check's label: `rollout 3`, `rollouts 3, 4, 5`. */
export function rolloutsLabel(indices: readonly number[]): string {
  return `${indices.length === 1 ? 'rollout' : 'rollouts'} ${indices.join(', ')}`;
}

/**
 * The rollouts in their checked phase (the fault injector's `rollouts`): each enters at its change and all of a group
 * leave together once the group's mirror check and removal are over — with one at a time, the same window as before.
 */
export class InFlight {
  private readonly open = new Set<number>();
  enter(index: number): void {
    this.open.add(index);
  }
  leave(indices: readonly number[]): void {
    for (const i of indices) this.open.delete(i);
  }
  /** In order, a copy. */
  now(): number[] {
    return [...this.open].sort((a, b) => a - b);
  }
}

/** The table's row for rollouts run at once; none with one at a time (the table as it was). */
export function parallelFigure(n: number): [string, string][] {
  return n > 1
    ? [['rollouts at once', `${n} (each its own namespace and workload, one fault schedule)`]]
    : [];
}

/**
 * `run` for each of a group's plans at once, each result with its plan; when one throws, the others are still waited
 * for (none goes on behind the check's back, its faults stopped), then the first error is thrown.
 */
export async function runGroup<P, R>(
  group: readonly P[],
  run: (plan: P) => Promise<R>,
): Promise<{ plan: P; r: R }[]> {
  const settled = await Promise.allSettled(group.map(async (plan) => ({ plan, r: await run(plan) })));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
}
