// The cold start benchmark's arithmetic (coldstart.ts, docs/benchmarks-coldstart.md section 10): when a CloneSet's status is
// current, the CloneSets of a size, and the API requests each client made during the start, read from the audit log.
import type { AuditRecord } from './rollout-audit.js';

/** The part of a CloneSet the benchmark reads. */
export interface CloneSetView {
  metadata?: { name?: string; generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
  };
}

/**
 * The status is current: the controller has seen the latest spec (`observedGeneration` = `generation`) and counts
 * every replica the spec asks for as existing, ready and updated.
 */
export function cloneSetCurrent(cs: CloneSetView): boolean {
  const want = cs.spec?.replicas ?? 1;
  const s = cs.status;
  return (
    s !== undefined &&
    s.observedGeneration === (cs.metadata?.generation ?? 0) &&
    s.replicas === want &&
    s.readyReplicas === want &&
    s.updatedReplicas === want
  );
}

/** `pods` spread over `sets` CloneSets as evenly as possible: the replicas of each, largest first. */
export function replicasPerSet(pods: number, sets: number): number[] {
  const n = Math.max(1, Math.min(sets, pods));
  const base = Math.floor(pods / n);
  return Array.from({ length: n }, (_, i) => base + (i < pods % n ? 1 : 0));
}

/** What one client asked of the API server in a window. */
export interface RequestTally {
  /** get, list and watch requests (a watch counted when it starts). */
  reads: number;
  /** Of `reads`, the watches. */
  watches: number;
  /** create, update, patch, delete, deletecollection. */
  writes: number;
  /** Of all, answered with an error status. */
  failed: number;
  /** `resource[/subresource] verb` → count. */
  byKind: Map<string, number>;
}

const READS = new Set(['get', 'list', 'watch']);

/** Requests per client (rollout-audit.ts `clientOf`) received in [fromMs, toMs]. */
export function requestsByClient(
  records: AuditRecord[],
  fromMs: number,
  toMs: number,
): Map<string, RequestTally> {
  const out = new Map<string, RequestTally>();
  for (const r of records) {
    if (r.at < fromMs || r.at > toMs) continue;
    let t = out.get(r.client);
    if (!t) out.set(r.client, (t = { reads: 0, watches: 0, writes: 0, failed: 0, byKind: new Map() }));
    const k = `${r.resource} ${r.verb}`;
    t.byKind.set(k, (t.byKind.get(k) ?? 0) + 1);
    if (READS.has(r.verb)) t.reads++;
    else t.writes++;
    if (r.verb === 'watch') t.watches++;
    if (r.failed) t.failed++;
  }
  return out;
}
