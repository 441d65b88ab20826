// The API server's audit log read back: who wrote what during a rollout, by user agent (the rollout
// benchmark counts the controllers' writes from it, docs/benchmarks.md).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { summarize } from './common.js';

/** Wall-clock window whose audited writes belong to a rollout: the patch → done + the tail. */
export interface AuditWindow {
  fromMs: number;
  doneMs: number;
  toMs: number;
}

export interface WriteTally {
  /** `resource[/subresource] verb` → count. */
  byKind: Map<string, number>;
  /** Writes on pods (any subresource), and of those, answered with an error status (409 conflicts, …). */
  podWrites: number;
  podFailed: number;
  /** All writes (any resource). */
  all: number;
  /** Of `all`, answered with an error status (409 conflicts, …). */
  failed: number;
  /** Of `all`, made after the workload was done (within TAIL_MS). */
  afterDone: number;
  /** Writes on the most-written pod, and how many distinct pods were written (creates by generateName excluded). */
  maxPerPod: number;
  podsWritten: number;
  /** Pod writes before done: most in flight at once, API latency p50 (ms), and the share of patch → done
   * during which at least one was in flight (1 with strictly serial writes and nothing else to wait for). */
  podConcurrency: number;
  podLatencyP50: number;
  podBusyShare: number;
}

export interface AuditRecord {
  /** Request received, and response complete (wall clock, ms). */
  at: number;
  end: number;
  client: string;
  /** kube-controller-manager's controller (the last part of its user agent), '' for other clients. */
  part: string;
  verb: string;
  /** `resource[/subresource]`. */
  resource: string;
  /** The object's name ('' for a collection). */
  name: string;
  userAgent: string;
  pod?: string;
  failed: boolean;
}

/** Who made a write, from its User-Agent (client-go's is `<binary>/<version> (<os/arch>) kubernetes/<commit>/<controller>`). */
export function clientOf(userAgent: string): string {
  // a program on the kit: `regatta-<name>` (its Lease renewals: `regatta-<name>/leader-election`)
  const program =
    /^regatta-(cloneset|asts|ads|resourcedistribution|sidecarset|uniteddeployment|imagepull|watcher)\b/.exec(
      userAgent,
    );
  if (program) return program[0];
  if (userAgent.startsWith('kube-controller-manager/')) return 'kube-controller-manager';
  if (userAgent.startsWith('kube-scheduler/')) return 'kube-scheduler';
  if (userAgent === 'regatta-bench') return 'bench';
  // the node simulator's KubeClient sends the default `regatta`
  if (userAgent.startsWith('regatta')) return 'node simulator';
  return userAgent.split('/')[0] || '(none)';
}

export async function readAudit(path: string): Promise<AuditRecord[]> {
  const out: AuditRecord[] = [];
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const e = JSON.parse(line) as {
      stage?: string;
      verb: string;
      userAgent?: string;
      objectRef?: { resource?: string; subresource?: string; name?: string };
      responseStatus?: { code?: number };
      requestReceivedTimestamp: string;
      stageTimestamp: string;
    };
    // a watch (audited only under REQUEST_AUDIT_POLICY) is counted once, when its response starts
    if (e.stage !== (e.verb === 'watch' ? 'ResponseStarted' : 'ResponseComplete')) continue;
    const r = e.objectRef;
    const resource = `${r?.resource ?? '?'}${r?.subresource ? `/${r.subresource}` : ''}`;
    const ua = e.userAgent ?? '';
    const client = clientOf(ua);
    out.push({
      at: Date.parse(e.requestReceivedTimestamp),
      end: Date.parse(e.stageTimestamp),
      client,
      part: client === 'kube-controller-manager' ? ua.slice(ua.lastIndexOf('/') + 1) : '',
      verb: e.verb,
      resource,
      name: r?.name ?? '',
      userAgent: ua,
      ...(r?.resource === 'pods' && r.name ? { pod: r.name } : {}),
      failed: (e.responseStatus?.code ?? 200) >= 300,
    });
  }
  return out;
}

export function tally(records: AuditRecord[], window: AuditWindow): Map<string, WriteTally> {
  const byClient = new Map<
    string,
    WriteTally & { perPod: Map<string, number>; podSpans: [number, number][] }
  >();
  for (const r of records) {
    if (r.at < window.fromMs || r.at > window.toMs) continue;
    let t = byClient.get(r.client);
    if (!t) {
      t = {
        byKind: new Map(),
        podWrites: 0,
        podFailed: 0,
        all: 0,
        failed: 0,
        afterDone: 0,
        maxPerPod: 0,
        podsWritten: 0,
        podConcurrency: 0,
        podLatencyP50: NaN,
        podBusyShare: NaN,
        perPod: new Map(),
        podSpans: [],
      };
      byClient.set(r.client, t);
    }
    const k = `${r.resource} ${r.verb}${r.part ? ` (${r.part})` : ''}`;
    t.byKind.set(k, (t.byKind.get(k) ?? 0) + 1);
    t.all++;
    if (r.failed) t.failed++;
    if (r.at > window.doneMs) t.afterDone++;
    if (r.resource.startsWith('pods')) {
      t.podWrites++;
      if (r.failed) t.podFailed++;
      if (r.pod) t.perPod.set(r.pod, (t.perPod.get(r.pod) ?? 0) + 1);
      if (r.at <= window.doneMs) t.podSpans.push([r.at, Math.max(r.at, r.end)]);
    }
  }
  for (const t of byClient.values()) {
    t.podsWritten = t.perPod.size;
    t.maxPerPod = Math.max(0, ...t.perPod.values());
    const spans = t.podSpans.sort((a, b) => a[0] - b[0]);
    if (spans.length === 0) continue;
    t.podLatencyP50 = summarize(spans.map(([a, b]) => b - a)).p50;
    // most in flight at once (a sweep over starts and ends), and the union of the spans
    const edges = spans.flatMap(([a, b]) => [[a, 1] as const, [b, -1] as const]);
    edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let cur = 0;
    for (const [, d] of edges) t.podConcurrency = Math.max(t.podConcurrency, (cur += d));
    let busy = 0;
    let [from, to] = spans[0] ?? [0, 0];
    for (const [a, b] of spans.slice(1)) {
      if (a > to) {
        busy += to - from;
        [from, to] = [a, b];
      } else to = Math.max(to, b);
    }
    busy += to - from;
    t.podBusyShare = busy / Math.max(1, window.doneMs - window.fromMs);
  }
  return byClient;
}

/**
 * A client's writes of workload status (`<resource>/status` of anything but pods and nodes: clonesets/status,
 * statefulsets/status, deployments/status, replicasets/status, …), the figure issue 17 compares per rollout.
 */
export function workloadStatusWrites(t: WriteTally | undefined): number {
  let n = 0;
  for (const [k, count] of t?.byKind ?? []) {
    const resource = k.split(' ')[0] ?? '';
    if (resource.endsWith('/status') && !/^(pods|nodes)\//.test(resource)) n += count;
  }
  return n;
}
