// Benchmark 2, writer process: merge patches of ConfigMaps in one namespace at a target rate, each
// carrying its send time (data.t, monotonic-clock ms taken just before the request is written) and its
// phase. Open loop with a cap on requests in flight: when the machine cannot keep up, the achieved
// rate drops below the target and is reported as such.
//
// The writer is load generation, not the system under test, so it uses the leanest client available:
// node:https with one keep-alive agent built once from the kubeconfig (client-node's
// applyToHTTPSOptions). @regatta/kube's KubeClient also keeps one connection (HTTP/2 through
// undici), but its fetch path costs about 1.5× the client CPU per request (docs/benchmarks.md,
// section 2), CPU that on two cores would be taken from the API server and the caches measured.
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { nowMs, serve, sleep, summarize } from './common.js';

let conn: { agent: https.Agent; host: string; port: string; headers: Record<string, string> } | undefined;

async function connection(kubeconfig: string) {
  if (conn) return conn;
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const url = new URL(kc.getCurrentCluster()!.server);
  conn = {
    agent: new https.Agent({ keepAlive: true, maxSockets: 256, ca: opts.ca, cert: opts.cert, key: opts.key }),
    host: url.hostname,
    port: url.port,
    headers: Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)])),
  };
  return conn;
}

function patch(c: NonNullable<typeof conn>, path: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        agent: c.agent,
        host: c.host,
        port: c.port,
        method: 'PATCH',
        path,
        timeout: 30_000,
        headers: {
          ...c.headers,
          accept: 'application/json',
          'content-type': 'application/merge-patch+json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          if (res.statusCode === 200) resolve();
          else reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

serve({
  async run(p: {
    kubeconfig: string;
    namespace: string;
    names: string[];
    rate: number;
    durationMs: number;
    phase: string;
    maxInFlight: number;
  }) {
    const c = await connection(p.kubeconfig);
    const requestMs: number[] = [];
    let issued = 0;
    let completed = 0;
    let errors = 0;
    let lastError = '';
    let inFlight = 0;
    let slot: (() => void) | undefined;
    const send = async (i: number) => {
      const path = `/api/v1/namespaces/${p.namespace}/configmaps/${p.names[i % p.names.length]!}`;
      inFlight++;
      const t = nowMs();
      try {
        await patch(c, path, JSON.stringify({ data: { t: t.toFixed(3), phase: p.phase } }));
        completed++;
        requestMs.push(nowMs() - t);
      } catch (err) {
        errors++;
        lastError = String((err as Error).message ?? err);
      } finally {
        inFlight--;
        slot?.();
      }
    };
    const start = nowMs();
    const pending = new Set<Promise<void>>();
    for (;;) {
      const elapsed = nowMs() - start;
      if (elapsed >= p.durationMs) break;
      const due = Math.floor((elapsed / 1000) * p.rate) + 1;
      while (issued < due && inFlight < p.maxInFlight) {
        const pr = send(issued++);
        pending.add(pr);
        void pr.finally(() => pending.delete(pr));
      }
      if (issued < due) {
        // every slot busy: wait for one to free up
        await new Promise<void>((r) => (slot = r));
        slot = undefined;
      } else {
        await sleep(Math.max(1, Math.min(10, ((issued / p.rate) * 1000 - elapsed) | 0)));
      }
    }
    await Promise.all(pending);
    const elapsedMs = nowMs() - start;
    return {
      phase: p.phase,
      target: p.rate,
      issued,
      completed,
      errors,
      lastError,
      // writes completed per second, from the first send to the last completion
      achievedRate: completed / (elapsedMs / 1000),
      request: summarize(requestMs),
    };
  },
});
