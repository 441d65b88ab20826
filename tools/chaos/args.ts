// `npm run chaos` arguments. Pure.
import { RegattaError } from '@regatta/errors';
import { WORKLOAD_IDS, type WorkloadId } from './workloads/kind.js';

/** R1's kinds: the workloads (workloads/*.ts) and SidecarSet sidecar upgrades (r1-sidecarset.ts). */
export const R1_KINDS = [...WORKLOAD_IDS, 'sidecarset'] as const;
export type R1Kind = (typeof R1_KINDS)[number];
export const isWorkloadId = (k: R1Kind): k is WorkloadId => k !== 'sidecarset';

export const CHECKS = ['R0', 'R5', 'R2', 'R4', 'R6', 'R7', 'R8', 'R9', 'R1', 'R3'] as const;
export type Check = (typeof CHECKS)[number];

/** The programs R2 fuzzes the kinds of, in its order (tools/chaos/r2.ts R2_KINDS). */
export const R2_APPS = [
  'cloneset',
  'asts',
  'ads',
  'uniteddeployment',
  'sidecarset',
  'resourcedistribution',
  'imagepull',
] as const;

/**
 * Kinds R2 can be asked for alone, where their program has more than one (lower case → the program). The imagepull
 * program's two kinds at 10 000 objects each take longer than one session (docs/reliability-runs-r2-10000.md runs BT and BU).
 */
export const R2_SINGLE_KINDS: Readonly<Record<string, (typeof R2_APPS)[number]>> = {
  imagepulljob: 'imagepull',
  nodeimage: 'imagepull',
};

/** Whether R2 runs a kind (its program and kind, tools/chaos/r2.ts R2_KINDS) when asked for `chosen`. */
export function r2KindChosen(k: { app: string; fuzz: { kind: string } }, chosen: readonly string[]): boolean {
  return chosen.includes(k.app) || chosen.includes(k.fuzz.kind.toLowerCase());
}

/** The programs R2 needs for `chosen` (programs, or kinds of R2_SINGLE_KINDS), in R2's order. */
export function r2AppsOf(chosen: readonly string[]): string[] {
  return R2_APPS.filter((app) => chosen.some((c) => c === app || R2_SINGLE_KINDS[c] === app));
}

/** R2's creates in flight at once by default: one (8 made no difference at load 13–19, docs/reliability-runs-n-z.md run Y). */
export const R2_CONCURRENCY = 1;

export interface ChaosArgs {
  only: Check[];
  /** R1: rollouts, pods per rollout, the seed of its plans and faults, the gap between two faults (s). */
  rollouts: number;
  pods: [number, number];
  seed: number;
  gapS: [number, number];
  /** R6's to R9's pods; R4's scale-up target. */
  r6Pods: number;
  r4Pods: number;
  /** R3's pods per measurement. */
  r3Pods: number;
  /** R1: the probability that the API proxy breaks a request of a controller program (0: no proxy). */
  apiFaults: number;
  /** R1: the kinds rolled out, one after the other (all by default). */
  r1Kinds: R1Kind[];
  /** R1: a kind's rollouts at once, each its own workload, under one fault schedule (1: one after the other). */
  r1Parallel: number;
  /** R2: objects generated per kind; the kinds, by their program (all by default) or by R2_SINGLE_KINDS' names. */
  fuzz: number;
  r2Kinds: string[];
  /** R2: creates in flight at once (results judged and reported in the seeded order). */
  r2Concurrency: number;
  keep: boolean;
}

export const USAGE =
  'usage: npm run chaos [-- --only=R0,R5,R2,R4,R6,R7,R8,R9,R1,R3] [-- --rollouts=10] [-- --pods=30-100] [-- --seed=1] ' +
  `[-- --fault-gap=15-40] [-- --r1-kinds=${R1_KINDS.join(',')}] [-- --r1-parallel=1] [-- --r6-pods=60] [-- --r4-pods=64] [-- --r3-pods=30] [-- --api-faults=0.02] [-- --fuzz=50] ` +
  `[-- --r2-kinds=${R2_APPS.join(',')}] [-- --r2-concurrency=${R2_CONCURRENCY}] [-- --keep]`;

/**
 * Why --r1-parallel above 1 is refused for Advanced DaemonSets: each rollout puts one pod on every node, so rollouts
 * at once would share every node (no node sets of their own).
 */
export const PER_NODE_SERIAL =
  "an Advanced DaemonSet's rollout puts one pod on every node, so its rollouts run one at a time: " +
  '--r1-parallel above 1 is refused for ads (leave ads out of --r1-kinds, or run it with --r1-parallel=1)';

/** An argument `npm run chaos` does not take; the message says which and why. */
export class ChaosArgsError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_CHAOS_ARGS', `${message}; ${USAGE}`);
  }
}

function range(v: string, what: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(v) ?? /^(\d+)$/.exec(v);
  const a = Number(m?.[1]);
  const b = Number(m?.[2] ?? m?.[1]);
  if (!m || !(a > 0) || b < a) throw new ChaosArgsError(`${what} takes N or MIN-MAX (positive), not ${v}`);
  return [a, b];
}

function positive(v: string, what: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ChaosArgsError(`${what} takes a positive integer, not ${v}`);
  return n;
}

export function parseArgs(argv: string[]): ChaosArgs {
  const a: ChaosArgs = {
    only: [...CHECKS],
    rollouts: 10,
    pods: [30, 100],
    seed: 1,
    gapS: [15, 40],
    r6Pods: 60,
    r4Pods: 64,
    r3Pods: 30,
    apiFaults: 0,
    r1Kinds: [...R1_KINDS],
    r1Parallel: 1,
    fuzz: 50,
    r2Kinds: [...R2_APPS],
    r2Concurrency: R2_CONCURRENCY,
    keep: false,
  };
  for (const arg of argv) {
    const [k, v = ''] = arg.split(/=(.*)/s, 2) as [string, string?];
    switch (k) {
      case '--keep':
        a.keep = true;
        break;
      case '--only': {
        const ids = v
          .split(',')
          .filter(Boolean)
          .map((x) => x.toUpperCase());
        const bad = ids.filter((x) => !(CHECKS as readonly string[]).includes(x));
        if (ids.length === 0 || bad.length > 0)
          throw new ChaosArgsError(
            `unknown check ${bad.join(',') || '(none)'}; checks: ${CHECKS.join(', ')}`,
          );
        a.only = CHECKS.filter((c) => ids.includes(c));
        break;
      }
      case '--rollouts':
        a.rollouts = positive(v, k);
        break;
      case '--pods':
        a.pods = range(v, k);
        break;
      case '--seed':
        a.seed = positive(v, k);
        break;
      case '--fault-gap':
        a.gapS = range(v, k);
        break;
      case '--r6-pods':
        a.r6Pods = positive(v, k);
        break;
      case '--r4-pods':
        a.r4Pods = positive(v, k);
        break;
      case '--api-faults': {
        const x = Number(v);
        if (!(x >= 0 && x <= 1)) throw new ChaosArgsError(`${k} takes a probability (0…1), not ${v}`);
        a.apiFaults = x;
        break;
      }
      case '--fuzz':
        a.fuzz = positive(v, k);
        break;
      case '--r1-kinds': {
        const ids = v.split(',').filter(Boolean);
        const bad = ids.filter((x) => !(R1_KINDS as readonly string[]).includes(x));
        if (ids.length === 0 || bad.length > 0)
          throw new ChaosArgsError(
            `unknown R1 kind ${bad.join(',') || '(none)'}; R1's kinds: ${R1_KINDS.join(', ')}`,
          );
        a.r1Kinds = R1_KINDS.filter((x) => ids.includes(x));
        break;
      }
      case '--r1-parallel':
        a.r1Parallel = positive(v, k);
        break;
      case '--r2-kinds': {
        const names = v.split(',').filter(Boolean);
        const known: string[] = [...R2_APPS, ...Object.keys(R2_SINGLE_KINDS)];
        const bad = names.filter((x) => !known.includes(x));
        if (names.length === 0 || bad.length > 0)
          throw new ChaosArgsError(
            `unknown R2 kind ${bad.join(',') || '(none)'}; R2's programs: ${R2_APPS.join(', ')}; ` +
              `single kinds: ${Object.keys(R2_SINGLE_KINDS).join(', ')}`,
          );
        a.r2Kinds = known.filter((x) => names.includes(x));
        break;
      }
      case '--r2-concurrency':
        a.r2Concurrency = positive(v, k);
        break;
      case '--r3-pods':
        a.r3Pods = positive(v, k);
        break;
      default:
        throw new ChaosArgsError(`unknown argument ${arg}`);
    }
  }
  if (a.r1Parallel > 1 && a.only.includes('R1') && a.r1Kinds.includes('ads'))
    throw new ChaosArgsError(`--r1-parallel=${a.r1Parallel} with ads: ${PER_NODE_SERIAL}`);
  return a;
}
