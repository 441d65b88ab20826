// The chaos suite's randomness, all from one seed (docs/reliability.md): the fault schedule R1 injects while its
// rollouts run, and the rollouts themselves. Pure: the same seed gives the same schedule and the same plans, so a
// run that found a violation can be repeated with `--seed=<n>`.

/** A small seeded PRNG (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
export function randomInt(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

export const FAULT_KINDS = ['kill-watcher', 'kill-controller', 'kill-nats'] as const;
/**
 * `kill-controller`: the program under test; `kill-owner`: the program owning its pods when that is another one (a
 * UnitedDeployment's subsets: the CloneSet program; R1's SidecarSet rollouts: the CloneSet program), drawn only when a
 * schedule's `kinds` name it.
 */
export const OWNER_FAULT_KINDS = [...FAULT_KINDS, 'kill-owner'] as const;
export type FaultKind = (typeof OWNER_FAULT_KINDS)[number];

/** One fault: at `atMs` after the schedule starts, kill -9 the process; a supervisor starts it again `downMs` later. */
export interface Fault {
  atMs: number;
  kind: FaultKind;
  downMs: number;
}

export interface ScheduleOptions {
  /** The schedule covers [0, horizonMs). */
  horizonMs: number;
  /** Gap between two faults, uniform in [min, max] ms (the first fault comes one gap after the start). */
  gapMs: [number, number];
  /** How long a killed process stays down before it is started again, uniform in [min, max] ms. */
  downMs: [number, number];
  kinds?: readonly FaultKind[];
}

/** The faults of one run, in time order; a fault never starts before the previous one's process is back. */
export function faultSchedule(seed: number, o: ScheduleOptions): Fault[] {
  const rand = seededRandom(seed);
  const kinds = o.kinds ?? FAULT_KINDS;
  const out: Fault[] = [];
  let at = 0;
  for (;;) {
    const prevDown = out.at(-1)?.downMs ?? 0;
    at += Math.max(randomInt(rand, o.gapMs[0], o.gapMs[1]), prevDown + 1);
    if (at >= o.horizonMs) return out;
    out.push({ atMs: at, kind: pick(rand, kinds), downMs: randomInt(rand, o.downMs[0], o.downMs[1]) });
  }
}

/**
 * What one R1 rollout changes. `in-place`: the image (InPlaceIfPossible), every pod keeps its uid. `recreate`:
 * an env variable (not updatable in place), pods are replaced within maxUnavailable and maxSurge. `partition`: an
 * in-place change released in partition steps down to 0. `scale`: an in-place change together with a new replica
 * count.
 */
export const CHANGE_KINDS = ['in-place', 'recreate', 'partition', 'scale'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface RolloutPlan {
  index: number;
  change: ChangeKind;
  replicas: number;
  /** The replica count the change sets (`scale` only; otherwise `replicas`). */
  scaleTo: number;
  maxUnavailable: number | string;
  /** 0 for in-place kinds (a surge pod would be a create the checker forbids there). */
  maxSurge: number | string;
  /** `partition`: the partitions set one after the other, the last 0. */
  partitions: number[];
}

/**
 * `count` plans, every change kind of `o.changes` (all by default) equally often, in turn. `o.replicas`: every plan
 * has that many pods (a DaemonSet's: the nodes), else a count drawn from `pods`.
 */
export function rolloutPlans(
  seed: number,
  count: number,
  pods: [number, number],
  o: { changes?: readonly ChangeKind[]; replicas?: number } = {},
): RolloutPlan[] {
  const changes = o.changes ?? CHANGE_KINDS;
  const rand = seededRandom(seed ^ 0x5eed);
  const plans: RolloutPlan[] = [];
  for (let index = 0; index < count; index++) {
    const change = changes[index % changes.length]!; // every kind equally often, in turn
    const drawn = randomInt(rand, pods[0], pods[1]);
    const replicas = o.replicas ?? drawn;
    const maxUnavailable = pick(rand, ['10%', '20%', 5, '50%'] as const);
    const maxSurge = change === 'recreate' ? pick(rand, [0, 1, '10%'] as const) : 0;
    const scaleTo =
      change === 'scale'
        ? Math.max(1, replicas + pick(rand, [-1, 1] as const) * randomInt(rand, 1, Math.ceil(replicas / 3)))
        : replicas;
    const partitions =
      change === 'partition'
        ? [Math.ceil((replicas * 2) / 3), Math.ceil(replicas / 3), 0].filter((p, i, a) => a.indexOf(p) === i)
        : [];
    plans.push({ index, change, replicas, scaleTo, maxUnavailable, maxSurge, partitions });
  }
  return plans;
}

/** An int-or-percent of `replicas` as an absolute number: percent rounded down (`roundUp` for maxSurge), OpenKruise's way. */
export function absolute(v: number | string, replicas: number, roundUp = false): number {
  if (typeof v === 'number') return v;
  const x = (Number(v.replace(/%$/, '')) * replicas) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}
