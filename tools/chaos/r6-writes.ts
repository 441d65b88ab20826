// R6's write count: a restart must not make the CloneSet program write a pod more than the in-place protocol does.
// Each pod of an in-place image rollout is written 3 times (docs/adr/0049: InPlaceUpdateReady=False, the pod update,
// then InPlaceUpdateReady=True with the lifecycle back to Normal in one pods/status write). A write in flight when the
// program is killed may be lost with it (the API server answers it "context canceled") or applied unanswered, and the
// restarted program does it again: one more write is allowed on such a pod. Any other extra write, a conflict from
// acting on a stale cache included, is the violation. Read from the API server's audit log (writes at Metadata
// level), the records the rollout benchmark counts (tools/bench/rollout-audit.ts).
import { readAudit, type AuditRecord } from '../bench/rollout-audit.js';
import type { Violation } from './checker.js';

/** The in-place protocol's pod writes per pod (the rollout benchmark's "controller pod writes / pod": 3.00). */
export const IN_PLACE_WRITES_PER_POD = 3;

/** The CloneSet program's client in the audit log (its user agent, tools/bench/rollout-audit.ts `clientOf`). */
const PROGRAM = 'regatta-cloneset';

/** A kill signal reaches the program this long after it is sent, at most: a write received by then was in flight. */
const KILL_SLACK_MS = 500;

/** One pod write of the program, as the audit log has it (wall clock, ms). */
export type PodWrite = Pick<AuditRecord, 'at' | 'end' | 'failed'> & { pod: string };

export interface PodWriteCount {
  writes: number;
  failed: number;
  /** Pods with a write in flight at the kill (each may be written once more). */
  inFlightAtKill: number;
  maxPerPod: number;
  /** Pods written more than allowed, with their count. */
  extra: { pod: string; writes: number }[];
}

/** The program's pod writes from `fromMs` to `toMs`, judged against the protocol and the kill at `killMs`. */
export function countPodWrites(writes: readonly PodWrite[], killMs: number): PodWriteCount {
  const byPod = new Map<string, PodWrite[]>();
  for (const w of writes) byPod.set(w.pod, [...(byPod.get(w.pod) ?? []), w]);
  const inFlight = (w: PodWrite) => w.at <= killMs + KILL_SLACK_MS && (w.failed || w.end >= killMs);
  const out: PodWriteCount = { writes: writes.length, failed: 0, inFlightAtKill: 0, maxPerPod: 0, extra: [] };
  for (const [pod, ws] of byPod) {
    const hit = ws.some(inFlight);
    if (hit) out.inFlightAtKill++;
    out.failed += ws.filter((w) => w.failed).length;
    out.maxPerPod = Math.max(out.maxPerPod, ws.length);
    if (ws.length > IN_PLACE_WRITES_PER_POD + (hit ? 1 : 0)) out.extra.push({ pod, writes: ws.length });
  }
  return out;
}

export async function podWritesOf(
  auditLog: string,
  o: { fromMs: number; toMs: number; killMs: number },
): Promise<PodWriteCount> {
  const writes = (await readAudit(auditLog))
    .filter((r) => r.client === PROGRAM && r.resource.startsWith('pods') && r.pod !== undefined)
    .filter((r) => r.at >= o.fromMs && r.at <= o.toMs)
    .map((r) => ({ pod: r.pod!, at: r.at, end: r.end, failed: r.failed }));
  return countPodWrites(writes, o.killMs);
}

/** A `writes` violation for the pods written more than allowed; `no-fault` when no write was seen (nothing tested). */
export function podWritesViolation(c: PodWriteCount, at: number): Violation | undefined {
  if (c.writes === 0)
    return {
      kind: 'no-fault',
      at,
      count: 1,
      detail: 'no pod write of the CloneSet program in the audit log: the write count tested nothing',
    };
  if (c.extra.length === 0) return undefined;
  const shown = c.extra
    .slice(0, 10)
    .map((x) => `${x.pod} ×${x.writes}`)
    .join(', ');
  return {
    kind: 'writes',
    at,
    count: c.extra.length,
    detail:
      `${c.extra.length} pods written more than the in-place protocol's ${IN_PLACE_WRITES_PER_POD} times (+1 for a ` +
      `write in flight at the kill) by the restarted CloneSet program: ${shown}`,
  };
}
