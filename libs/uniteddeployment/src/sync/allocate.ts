/**
 * Stand-in for the replica allocation (OpenKruise `pkg/controller/uniteddeployment/allocator.go`) until
 * `allocation/` lands: the specific allocator (fixed and percentage replicas, the rest split evenly, largest subsets
 * first) and the min/max allocator, with the default-adaptive bounds from ready replicas.
 */
import { RegattaError } from '@regatta/errors';
import type { IntOrString } from '@regatta/kube';
import type { UnitedDeployment } from '../types.js';

export interface SubsetFacts {
  /** `spec.replicas` of the existing workload; undefined when not created yet. */
  current: number | undefined;
  readyReplicas: number;
  unschedulable: boolean;
}

export class SubsetReplicasError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_UD_SUBSET_REPLICAS', message);
  }
}

const MAX_INT32 = 2147483647;

function parse(udReplicas: number | null | undefined, v: IntOrString | null | undefined): number | undefined {
  if (v == null) return undefined;
  if (typeof v === 'number') return v;
  if (udReplicas == null || !v.endsWith('%')) return undefined;
  const p = Number(v.slice(0, -1));
  if (!Number.isInteger(p) || p < 0 || p > 100) return undefined;
  return Math.floor((udReplicas * p) / 100 + 0.5);
}

export function allocateReplicas(ud: UnitedDeployment, facts: ReadonlyMap<string, SubsetFacts>): Record<string, number> {
  const subsets = ud.spec.topology?.subsets ?? [];
  const replicas = ud.spec.replicas;
  const adaptive = ud.spec.topology?.scheduleStrategy?.type === 'Adaptive';
  const minMax = subsets.some((s) => s.minReplicas != null || s.maxReplicas != null);
  if (adaptive || minMax) {
    let rest = replicas ?? 0;
    const bounds = subsets.map((s) => {
      let min = parse(replicas, s.minReplicas) ?? 0;
      let max = parse(replicas, s.maxReplicas) ?? MAX_INT32;
      const f = facts.get(s.name);
      if (adaptive && f?.current !== undefined) {
        if (f.unschedulable) {
          min = Math.max(f.readyReplicas, min);
          max = Math.min(f.readyReplicas, max);
        } else if (f.readyReplicas > min) {
          min = Math.min(f.readyReplicas, max);
        }
      }
      return { name: s.name, min, max };
    });
    const out: Record<string, number> = {};
    for (const b of bounds) {
      const add = Math.max(0, Math.min(b.min, rest));
      out[b.name] = add;
      rest -= add;
    }
    for (const b of bounds) {
      if (rest <= 0) break;
      const add = Math.max(0, Math.min(b.max - b.min, rest));
      out[b.name] = (out[b.name] ?? 0) + add;
      rest -= add;
    }
    return out;
  }
  const sorted = subsets
    .map((s) => ({ name: s.name, current: facts.get(s.name)?.current ?? 0, specified: parse(replicas, s.replicas) }))
    .sort((a, b) => a.current - b.current || a.name.localeCompare(b.name));
  const specifiedSum = sorted.reduce((n, s) => n + (s.specified ?? 0), 0);
  const unspecified = sorted.filter((s) => s.specified === undefined);
  if (replicas == null) {
    if (unspecified.length > 0) throw new SubsetReplicasError('all subsets must be specified when UnitedDeployment replica is unspecified');
  } else if (specifiedSum > replicas) {
    throw new SubsetReplicasError(`specified subsets' replica (${specifiedSum}) is greater than UnitedDeployment replica (${replicas})`);
  } else if (specifiedSum < replicas && unspecified.length === 0) {
    throw new SubsetReplicasError(`specified subsets' replica (${specifiedSum}) is less than UnitedDeployment replica (${replicas})`);
  }
  const out: Record<string, number> = {};
  for (const s of sorted) if (s.specified !== undefined) out[s.name] = s.specified;
  if (unspecified.length > 0) {
    const rest = (replicas ?? 0) - specifiedSum;
    const avg = Math.trunc(rest / unspecified.length);
    let rem = rest % unspecified.length;
    for (let i = unspecified.length - 1; i >= 0; i--) {
      const s = unspecified[i] as (typeof unspecified)[number];
      out[s.name] = avg + (rem > 0 ? 1 : 0);
      if (rem > 0) rem--;
    }
  }
  return out;
}
