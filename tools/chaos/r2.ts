// R2, fuzzed admission (CloneSet): seeded fast-check objects (tools/chaos/fuzz.ts), valid, invalid and hostile, sent
// one after the other through the real API server with the CloneSet program serving its webhooks (from its bundle,
// in place of the world's one, which serves none). Counted: requests, accepted, rejected (by the webhook or the API
// server), rejections without a field path, hung requests (> 10 s), failed calls, crashes, and whether each accepted
// object was reconciled (status.observedGeneration) without a crash. Its namespace has a pod quota of 10, so an
// accepted absurd replica count costs refused creates, not a loaded machine. A failing object is saved to
// `<temp folder>/r2-failures/` with its seed, index and response.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeApiError, type KubeObject } from '@regatta/kube';
import { fmt, nowMs, summarize } from '../bench/common.js';
import type { Violation } from './checker.js';
import {
  sampleCloneSets,
  SHAPES,
  verdictOf,
  violationOf,
  type Fuzzed,
  type Response,
  type Verdict,
} from './fuzz.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';

const NS = 'chaos-r2';
const ADMISSION = 'admissionregistration.k8s.io/v1';
const CONFIG = 'regatta-cloneset';
const RECONCILE_WAIT_MS = 120_000;

async function send(w: World, obj: KubeObject): Promise<Response> {
  const t = nowMs();
  try {
    await w.client.create(obj);
    return { ms: nowMs() - t, accepted: true };
  } catch (err) {
    const ms = nowMs() - t;
    if (err instanceof KubeApiError)
      return {
        ms,
        accepted: false,
        status: err.status,
        message: err.serverMessage || err.message,
        causes: err.details?.causes ?? [],
      };
    return { ms, accepted: false, message: err instanceof Error ? err.message : String(err) };
  }
}

async function webhookEntries(w: World): Promise<string[]> {
  const names: string[] = [];
  for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
    const c = await w.client.getOrUndefined<KubeObject & { webhooks?: { name: string }[] }>({
      apiVersion: ADMISSION,
      kind,
      name: CONFIG,
    });
    names.push(...(c?.webhooks?.map((h) => h.name) ?? []));
  }
  return names;
}

export async function checkFuzzedAdmission(
  w: World,
  o: { perKind: number; seed: number; dir: string },
): Promise<CheckResult> {
  const violations: Violation[] = [];
  const notes: string[] = [];
  const failDir = join(o.dir, 'r2-failures');
  await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await w.client.create({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'pods', namespace: NS },
    spec: { hard: { pods: '10' } },
  } as KubeObject);

  // the CloneSet program with its webhooks in place of the world's (same name, same lease identity)
  const main = w.controllers.get('cloneset');
  await main?.kill();
  const logFile = join(w.cluster.dir, 'logs', 'cloneset.log');
  const logFrom = (await stat(logFile).catch(() => ({ size: 0 }))).size;
  const hook = w.program('cloneset', { webhook: true });
  await hook.start();
  const deadline = Date.now() + 120_000;
  while (!(await webhookEntries(w)).includes('vcloneset.kb.io')) {
    if (Date.now() > deadline)
      throw new Error('R2: the CloneSet webhook configurations did not appear in 2 min');
    await sleep(500);
  }
  w.log(`R2: ${o.perKind} CloneSets, seed ${o.seed}`);
  const objects = sampleCloneSets(NS, o.perKind, o.seed);
  const results: { f: Fuzzed; r: Response; v: Verdict; at: number }[] = [];
  const save = async (f: Fuzzed, r: Response, why: string, i: number) => {
    await mkdir(failDir, { recursive: true });
    const file = join(failDir, `cloneset-${i}.json`);
    await writeFile(
      file,
      JSON.stringify(
        {
          seed: o.seed,
          index: i,
          why,
          shape: f.shape,
          mutations: f.mutations,
          response: r,
          object: f.object,
        },
        null,
        1,
      ),
    );
    return file;
  };
  for (const [i, f] of objects.entries()) {
    const r = await send(w, f.object as unknown as KubeObject);
    const v = verdictOf(r);
    results.push({ f, r, v, at: w.now() });
    const bad = violationOf(v);
    if (bad) {
      const file = await save(f, r, bad, i);
      violations.push({
        kind: 'admission',
        at: w.now(),
        count: 1,
        detail: `CloneSet #${i} (${f.shape}: ${f.mutations.join(', ') || 'none'}): ${bad}; ${(r.message ?? '').slice(0, 200)} — saved to ${file}`,
      });
    }
    if ((i + 1) % 50 === 0) w.log(`R2: ${i + 1}/${objects.length} sent`);
  }

  // every accepted object reconciled (observedGeneration), with no crash, within the wait
  const accepted = results.filter((x) => x.r.accepted);
  const names = new Set(accepted.map((x) => (x.f.object['metadata'] as { name: string }).name));
  const reconciled = new Set<string>();
  const until = Date.now() + RECONCILE_WAIT_MS;
  while (reconciled.size < names.size && Date.now() < until) {
    const list = await w.client.list<KubeObject & { status?: { observedGeneration?: number } }>({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      namespace: NS,
    });
    for (const cs of list.items)
      if ((cs.status?.observedGeneration ?? 0) >= (cs.metadata?.generation ?? 1))
        reconciled.add(cs.metadata?.name ?? '');
    if (reconciled.size < names.size) await sleep(2000);
  }
  const crashes = [...(main?.crashes ?? []), ...hook.crashes].filter(
    (c) => c.at >= (results[0]?.at ?? 0) - 60_000,
  );
  for (const c of crashes) {
    // the objects accepted in the 10 s before the crash: the candidates that broke the program
    const suspects = accepted.filter((x) => x.at <= c.at && x.at >= c.at - 10_000);
    const files = await Promise.all(
      suspects.map((x) =>
        save(x.f, x.r, `accepted before a crash at ${fmt(c.at / 1000)} s`, objects.indexOf(x.f)),
      ),
    );
    violations.push({
      kind: 'crash',
      at: c.at,
      count: 1,
      detail: `the CloneSet program exited (code ${c.code}); objects accepted in the 10 s before: ${files.join(', ') || 'none'}`,
    });
  }
  // objects the generator made invalid on purpose that were admitted: listed (and saved) for a reading against
  // OpenKruise's validation (pkg/webhook/cloneset/validating/validation.go); not judged here
  for (const x of accepted.filter((a) => a.f.shape === 'invalid')) {
    const i = objects.indexOf(x.f);
    await mkdir(join(o.dir, 'r2-accepted-invalid'), { recursive: true });
    await writeFile(join(o.dir, 'r2-accepted-invalid', `cloneset-${i}.json`), JSON.stringify(x.f, null, 1));
    notes.push(`invalid by construction, accepted: #${i} ${x.f.mutations.join('; ')}`);
  }
  const notReconciled = [...names].filter((n) => !reconciled.has(n));
  if (notReconciled.length > 0)
    notes.push(`accepted but not reconciled in ${RECONCILE_WAIT_MS / 1000} s: ${notReconciled.join(', ')}`);
  const errorsLogged = await countErrorLines(logFile, logFrom);

  await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NS }).catch(() => undefined);
  await hook.stop();
  for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])
    await w.client.delete({ apiVersion: ADMISSION, kind, name: CONFIG }).catch(() => undefined);
  await main?.start();

  const count = (p: (x: (typeof results)[number]) => boolean) => results.filter(p).length;
  const rejected = results.filter((x) => x.v.result === 'rejected');
  const byWebhook = rejected.filter((x) => x.v.result === 'rejected' && x.v.by === 'webhook');
  const noPath = (xs: typeof rejected) =>
    xs.filter((x) => x.v.result === 'rejected' && !x.v.fieldPath).length;
  const apiNoPath = rejected.filter(
    (x) => x.v.result === 'rejected' && x.v.by === 'apiserver' && !x.v.fieldPath,
  );
  for (const x of apiNoPath.slice(0, 5))
    notes.push(
      `API server rejection without a field path (${x.f.shape}): ${x.r.status} ${(x.r.message ?? '').slice(0, 160)}`,
    );
  const s = summarize(results.map((x) => x.r.ms));
  return {
    id: 'R2',
    title: 'fuzzed admission (CloneSet)',
    figures: [
      ['seed / objects per kind', `${o.seed} / ${o.perKind}`],
      ['requests / accepted / rejected', `${results.length} / ${accepted.length} / ${rejected.length}`],
      [
        'by shape (accepted/sent)',
        SHAPES.map(
          (sh) => `${sh} ${count((x) => x.f.shape === sh && x.r.accepted)}/${count((x) => x.f.shape === sh)}`,
        ).join(', '),
      ],
      [
        'rejected by the webhook / by the API server',
        `${byWebhook.length} / ${rejected.length - byWebhook.length}`,
      ],
      ['webhook rejections without a field path', String(noPath(byWebhook))],
      ['API server rejections without a field path', String(apiNoPath.length)],
      [
        'hung (> 10 s) / failed calls',
        `${count((x) => x.v.result === 'hung')} / ${count((x) => x.v.result === 'failed')}`,
      ],
      ['response time p50 / max', `${fmt(s.p50)} ms / ${fmt(s.max)} ms`],
      ['accepted objects reconciled', `${[...names].filter((n) => reconciled.has(n)).length}/${names.size}`],
      ['error lines in the program log', String(errorsLogged)],
    ],
    violations,
    crashes: crashes.length,
    notes,
  };
}

/** pino lines at level error or fatal (≥ 50) written to `file` from byte `from` on. */
async function countErrorLines(file: string, from: number): Promise<number> {
  const text = (await readFile(file).catch(() => Buffer.alloc(0))).subarray(from).toString('utf8');
  let n = 0;
  for (const line of text.split('\n')) {
    const m = /"level":(\d+)/.exec(line);
    if (m && Number(m[1]) >= 50) n++;
  }
  return n;
}
