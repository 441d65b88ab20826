/** What a kind's mirror knows about its own progress (ms since epoch). */
export interface MirrorProgress {
  startedAt: number;
  /** The last complete list written. */
  listedAt?: number;
  /** The list or watch has failed since then, without a complete list after it. */
  failingSince?: number;
  /** The oldest write (put or delete) still failing and waiting for a retry. */
  pendingSince?: number;
  /** How many writes wait for a retry. */
  pending: number;
}

/** How long a mirror may be behind before readiness fails. */
export const DEFAULT_STALE_AFTER_MS = 30_000;

/**
 * Why a mirror is not keeping up, or undefined when it is. Objects set aside for good (too large for the bus)
 * do not count: they are reported per object (metric, log, event) and never block readiness.
 */
export function mirrorLagReason(p: MirrorProgress, now: number, staleAfterMs = DEFAULT_STALE_AFTER_MS): string | undefined {
  const s = (since: number) => `${Math.round((now - since) / 1000)} s`;
  if (p.listedAt === undefined && now - p.startedAt >= staleAfterMs) return `not listed yet after ${s(p.startedAt)}`;
  if (p.failingSince !== undefined && now - p.failingSince >= staleAfterMs)
    return `list/watch failing for ${s(p.failingSince)}`;
  if (p.pendingSince !== undefined && now - p.pendingSince >= staleAfterMs)
    return `${p.pending} writes failing for ${s(p.pendingSince)}`;
  return undefined;
}
