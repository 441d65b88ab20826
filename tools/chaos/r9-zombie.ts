// R9's judgement: the writes a paused leader made after it resumed. A program's client sends
// `regatta-<name>/<identity>` as its user agent (its Lease renewals `…/<identity>/leader-election`), so the audit log
// tells the replicas apart. Lease writes are the elector's own business (a zombie's failed renewal is how it learns
// it lost); any other write by the paused replica from its resume on, until it is started again, is the violation.
import type { AuditRecord } from '../bench/rollout-audit.js';
import type { Violation } from './checker.js';

/** The replica a user agent names (`regatta-cloneset/chaos-cloneset-2/leader-election` → `chaos-cloneset-2`). */
export function identityOf(userAgent: string): string | undefined {
  const parts = userAgent.split('/');
  return parts[0]?.startsWith('regatta-') && parts.length >= 2 ? parts[1] : undefined;
}

/** The writes of `identity` received in [fromMs, toMs], Lease writes left out. */
export function writesAfterResume(
  records: readonly Pick<AuditRecord, 'at' | 'userAgent' | 'resource' | 'verb' | 'name'>[],
  o: { identity: string; fromMs: number; toMs: number },
): { at: number; what: string }[] {
  return records
    .filter((r) => identityOf(r.userAgent) === o.identity && r.at >= o.fromMs && r.at <= o.toMs)
    .filter((r) => !r.resource.startsWith('leases'))
    .map((r) => ({ at: r.at, what: `${r.verb} ${r.resource} ${r.name}`.trim() }));
}

/** A `zombie` violation for those writes, at `at` (the suite's clock). */
export function zombieViolation(writes: readonly { at: number; what: string }[], at: number): Violation | undefined {
  if (writes.length === 0) return undefined;
  const shown = writes
    .slice(0, 5)
    .map((w) => w.what)
    .join('; ');
  return {
    kind: 'zombie',
    at,
    count: writes.length,
    detail: `the paused leader wrote ${writes.length} time(s) after it resumed: ${shown}${writes.length > 5 ? '; …' : ''}`,
  };
}
