import { toRfc3339Micro } from '@regatta/kube';
/** coordination.k8s.io/v1 `Lease`, as far as leader election reads and writes it. */
export interface Lease {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    /** Set by the API server; sent back on update for optimistic concurrency. */
    resourceVersion?: string;
    [field: string]: unknown;
  };
  spec?: LeaseSpec;
}

export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  /** MicroTime, RFC 3339 with microseconds: `2026-01-02T03:04:05.678000Z`. */
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number | null;
  [field: string]: unknown;
}

/**
 * Where leases live — the API server in production (the lead backs it with the Kubernetes
 * client). Errors carry the HTTP status: `status: 404` from `get` when the lease does not exist,
 * `status: 409` from `create`/`update` when someone else wrote first.
 */
export interface LeaseStore {
  get(namespace: string, name: string): Promise<Lease>;
  create(lease: Lease): Promise<Lease>;
  /** Replaces the lease; must fail with 409 unless `metadata.resourceVersion` is current. */
  update(lease: Lease): Promise<Lease>;
}

/** A lease as this candidate saw it, with the local time its record last changed. */
export interface ObservedLease {
  lease: Lease;
  /** Local clock time (ms) when this holder/renew record was first seen. */
  observedAtMs: number;
}

export type LeaseDecision = 'acquire' | 'renew' | 'wait';

export interface LeaseTimings {
  /** How long a non-leader waits after the last observed renewal before taking over. */
  leaseDurationMs: number;
}

/** The HTTP status on an error thrown by a {@link LeaseStore}, if any. */
export function errorStatus(err: unknown): number | undefined {
  const status = (err as { status?: unknown; statusCode?: unknown; code?: unknown } | null | undefined) ?? {};
  for (const v of [status.status, status.statusCode, status.code]) if (typeof v === 'number') return v;
  return undefined;
}

/** Formats a Kubernetes MicroTime (`toRfc3339Micro` of `@regatta/kube`, the one formatter). */
export function formatMicroTime(ms: number): string {
  return toRfc3339Micro(ms);
}

function record(lease: Lease): string {
  const s = lease.spec ?? {};
  return JSON.stringify([
    s.holderIdentity ?? '',
    s.renewTime ?? '',
    s.acquireTime ?? '',
    s.leaseTransitions ?? 0,
  ]);
}

/**
 * Tracks when the lease record last changed, by this process's clock. Expiry is judged from that
 * local time rather than from `renewTime` (as client-go does), so clock skew between candidates
 * does not matter.
 */
export function observeLease(
  previous: ObservedLease | undefined,
  lease: Lease,
  nowMs: number,
): ObservedLease {
  if (previous && record(previous.lease) === record(lease))
    return { lease, observedAtMs: previous.observedAtMs };
  return { lease, observedAtMs: nowMs };
}

/**
 * What a candidate should do with the lease it observed (`undefined`: there is none).
 * - `renew`: it is ours;
 * - `acquire`: there is none, it is released (no holder), or the holder has not renewed it
 *   for a lease duration (the holder's advertised `leaseDurationSeconds`, else ours);
 * - `wait`: someone else holds a live lease.
 */
export function decide(
  observed: ObservedLease | undefined,
  identity: string,
  nowMs: number,
  timings: LeaseTimings,
): LeaseDecision {
  if (!observed) return 'acquire';
  const holder = observed.lease.spec?.holderIdentity ?? '';
  if (holder === identity) return 'renew';
  if (holder === '') return 'acquire';
  const advertised = observed.lease.spec?.leaseDurationSeconds;
  const durationMs =
    typeof advertised === 'number' && advertised > 0 ? advertised * 1000 : timings.leaseDurationMs;
  return observed.observedAtMs + durationMs > nowMs ? 'wait' : 'acquire';
}

/** The lease to write for `decision` (`acquire` or `renew`); `current` undefined means create. */
export function nextLease(
  current: Lease | undefined,
  target: { namespace: string; name: string },
  identity: string,
  decision: 'acquire' | 'renew',
  nowMs: number,
  timings: LeaseTimings,
): Lease {
  const now = formatMicroTime(nowMs);
  const leaseDurationSeconds = Math.ceil(timings.leaseDurationMs / 1000);
  if (!current) {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: target.name, namespace: target.namespace },
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      },
    };
  }
  const old = current.spec ?? {};
  const spec: LeaseSpec =
    decision === 'renew'
      ? {
          ...old,
          holderIdentity: identity,
          leaseDurationSeconds,
          renewTime: now,
          acquireTime: old.acquireTime ?? now,
        }
      : {
          ...old,
          holderIdentity: identity,
          leaseDurationSeconds,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: (old.leaseTransitions ?? 0) + 1,
        };
  return { ...current, metadata: { ...current.metadata }, spec };
}

/** The lease that gives it up: no holder, so the next candidate acquires at once. */
export function releasedLease(current: Lease, nowMs: number): Lease {
  const now = formatMicroTime(nowMs);
  return {
    ...current,
    metadata: { ...current.metadata },
    spec: { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
  };
}
