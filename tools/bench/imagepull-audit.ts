// Benchmark 9: the image pull agents' and the imagepull program's writes during the job, from the API server's audit
// log (writes only, Metadata level: libs/local-cluster WRITE_AUDIT_POLICY). The agents send the user agent
// `regatta-imagepull-agent/<node>` (libs/image-puller program.ts); the program `regatta-imagepull`.
import { readAudit } from './rollout-audit.js';

export interface AgentWrites {
  /** Writes by the agents: `resource[/subresource] verb` → count. */
  byKind: Map<string, number>;
  all: number;
  failed: number;
  /** Distinct agents that wrote, and the most writes one of them made. */
  agents: number;
  maxPerAgent: number;
  /** Most agent writes received in one wall-clock second. */
  maxPerSecond: number;
  /** Writes by the imagepull program (ImagePullJob and NodeImage controllers) in the same window. */
  program: number;
  /** Of `program`, ImagePullJob status updates. */
  jobStatusWrites: number;
  /**
   * Per node, seconds from the program's NodeImage write that gave it the job's tag to its agent's last status write
   * (the one that reports the pull's end): t plus the wait for the agent's next sync (ADR 0041).
   */
  specToLastStatusS: number[];
  windowS: number;
}

const AGENT_UA = 'regatta-imagepull-agent/';

export async function readAgentWrites(
  path: string,
  w: { fromMs: number; toMs: number },
): Promise<AgentWrites> {
  const out: AgentWrites = {
    byKind: new Map(),
    all: 0,
    failed: 0,
    agents: 0,
    maxPerAgent: 0,
    maxPerSecond: 0,
    program: 0,
    jobStatusWrites: 0,
    specToLastStatusS: [],
    windowS: (w.toMs - w.fromMs) / 1000,
  };
  const perAgent = new Map<string, number>();
  const perSecond = new Map<number, number>();
  const specAt = new Map<string, number>();
  const lastStatusAt = new Map<string, number>();
  for (const e of await readAudit(path)) {
    const { at, userAgent: ua, name } = e;
    if (at < w.fromMs || at > w.toMs) continue;
    if (ua === 'regatta-imagepull') {
      out.program++;
      if (e.resource === 'imagepulljobs/status') out.jobStatusWrites++;
      if (e.resource === 'nodeimages' && e.verb === 'update' && !specAt.has(name)) specAt.set(name, at);
    }
    if (!ua.startsWith(AGENT_UA)) continue;
    if (e.resource === 'nodeimages/status') lastStatusAt.set(name, at);
    const kind = `${e.resource} ${e.verb}`;
    out.byKind.set(kind, (out.byKind.get(kind) ?? 0) + 1);
    out.all++;
    if (e.failed) out.failed++;
    const agent = ua.slice(AGENT_UA.length).split(' ')[0] ?? '';
    perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
    const sec = Math.floor(at / 1000);
    perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
  }
  for (const [node, at] of specAt) {
    const last = lastStatusAt.get(node);
    if (last !== undefined && last >= at) out.specToLastStatusS.push((last - at) / 1000);
  }
  out.agents = perAgent.size;
  out.maxPerAgent = Math.max(0, ...perAgent.values());
  out.maxPerSecond = Math.max(0, ...perSecond.values());
  return out;
}
