// R2, fuzzed admission (CloneSet, Advanced StatefulSet, Advanced DaemonSet, UnitedDeployment, SidecarSet,
// ResourceDistribution, ImagePullJob, NodeImage, one after the other): seeded fast-check objects (tools/chaos/fuzz.ts), valid,
// invalid and hostile, sent one after the other (`--r2-concurrency`: N at a time, judged in the seeded order) through
// the real API server with the kind's program serving its webhooks (from its bundle; for CloneSets in place of the
// world's one, which serves none); for the imagepull kinds, with node agents running as well (r2-agents.ts). Counted: requests, accepted, rejected (by the webhook or the API
// server), rejections without a field path, hung requests (> 10 s), failed calls, crashes, and whether each accepted
// object was reconciled (status.observedGeneration) without a crash. Objects are made one at a time from the seed
// (fuzz-sequence.ts), and an accepted one is deleted once reconciled (r2-window.ts), so neither the suite's memory
// nor etcd grows with `--fuzz` (docs/reliability-runs-aa-an.md, runs AK–AM). Its namespace has a pod quota of 10, so an
// accepted absurd replica count costs refused creates, not a loaded machine. A failing object is saved to
// `<temp folder>/r2-failures/` with its seed, index and response.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '@regatta/kube';
import { fmt, summarize } from '../bench/common.js';
import type { Violation } from './checker.js';
import {
  addressable,
  ADVANCED_STATEFULSET,
  CLONESET,
  type FuzzKind,
  type Shape,
  SHAPES,
  verdictOf,
  violationOf,
  type Fuzzed,
  type Response,
  type Verdict,
} from './fuzz.js';
import { ADVANCED_DAEMONSET, RESOURCE_DISTRIBUTION, SIDECARSET, UNITED_DEPLOYMENT } from './fuzz-kinds.js';
import { fuzzSequence } from './fuzz-sequence.js';
import { observedGeneration, ReconcileWindow } from './r2-window.js';
import { unreconciledOf, unreconciledViolation } from './r2-unreconciled.js';
import { clusterRuleOnly, createFuzzNamespace, namespaceGone, storedInvalid } from './r2-stored.js';
import { IMAGE_PULL_JOB } from './fuzz-imagepull.js';
import { GONE_OWNER_IMAGE, NODE_IMAGE } from './fuzz-nodeimage.js';
import type { CheckResult } from './report.js';
import { countErrorLines, defectViolations, readLogFrom, send } from './r2-requests.js';
import { mapBounded } from './bounded.js';
import { r2KindChosen } from './args.js';
import {
  agentNodeImages,
  agentNodesCurrent,
  startAgentNodes,
  storedAgentNodeImages,
  type AgentNodes,
} from './r2-agents.js';
import { deleteConfigurations, webhookEntries } from './webhook-configs.js';
import type { World } from './world.js';


/** A kind R2 fuzzes and the program whose webhooks admit it. */
export interface R2Kind {
  fuzz: FuzzKind;
  /** The app (its bundle) serving the webhooks and reconciling the kind. */
  app: string;
  /** Names the kind's namespaces and saved files when its app serves another kind too (default: `app`). */
  id?: string;
  apiVersion: string;
  /** The validating webhook entry whose registration says the program's webhooks are in the path. */
  entry: string;
  /** Cluster-scoped (SidecarSet, ResourceDistribution): listed cluster-wide, and the accepted ones deleted by name. */
  clusterScoped?: boolean;
  /**
   * Its webhook judges an object against those admitted before it (a SidecarSet overlapping another): sent one at a
   * time whatever `--r2-concurrency` says, so a seed gives the same verdicts.
   */
  ordered?: boolean;
  /** Added to its program's environment. */
  env?: NodeJS.ProcessEnv;
  /** Its part with node agents running (r2-agents.ts): jobs selecting the agent nodes, NodeImages in their place. */
  agents?: 'jobs' | 'nodeimages';
  /**
   * Admitted objects are kept until the kind is done, not deleted once reconciled: its webhook judges an object
   * against those admitted before (a SidecarSet), or a later part reads what they did (the agent nodes' NodeImages
   * hold the tags of the ImagePullJobs that selected them).
   */
  keepAdmitted?: boolean;
  /** The object was reconciled (default: `status.observedGeneration` at least the generation). */
  reconciled?: (obj: KubeObject & { status?: Record<string, unknown> }) => boolean;
}

/**
 * The imagepull program's NodeImage creation delay (`--nodeimage-creation-delay`) past R2's run: R2 creates and
 * replaces the agent nodes' NodeImages itself (r2-agents.ts); the controller would create one the moment R2 deleted
 * it.
 */
const AGENT_NODES_ENV = { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '86400' };

export const R2_KINDS: R2Kind[] = [
  { fuzz: CLONESET, app: 'cloneset', apiVersion: 'apps.kruise.io/v1alpha1', entry: 'vcloneset.kb.io' },
  {
    fuzz: ADVANCED_STATEFULSET,
    app: 'asts',
    apiVersion: 'apps.kruise.io/v1beta1',
    entry: 'vstatefulset.kb.io',
  },
  { fuzz: ADVANCED_DAEMONSET, app: 'ads', apiVersion: 'apps.kruise.io/v1alpha1', entry: 'vdaemonset.kb.io' },
  {
    fuzz: UNITED_DEPLOYMENT,
    app: 'uniteddeployment',
    apiVersion: 'apps.kruise.io/v1alpha1',
    entry: 'vuniteddeployment.kb.io',
  },
  {
    fuzz: SIDECARSET,
    app: 'sidecarset',
    apiVersion: 'apps.kruise.io/v1alpha1',
    entry: 'vsidecarset.kb.io',
    clusterScoped: true,
    ordered: true,
    keepAdmitted: true,
  },
  {
    fuzz: RESOURCE_DISTRIBUTION,
    app: 'resourcedistribution',
    apiVersion: 'apps.kruise.io/v1alpha1',
    entry: 'vresourcedistribution.kb.io',
    clusterScoped: true,
  },
  {
    fuzz: IMAGE_PULL_JOB,
    app: 'imagepull',
    apiVersion: 'apps.kruise.io/v1beta1',
    entry: 'vimagepulljob.kb.io',
    agents: 'jobs',
    keepAdmitted: true,
    env: AGENT_NODES_ENV,
    // an ImagePullJob's status has no observedGeneration: the controller's first status write sets startTime
    reconciled: (obj) => typeof obj.status?.['startTime'] === 'string',
  },
  {
    fuzz: NODE_IMAGE,
    app: 'imagepull',
    id: 'nodeimage',
    apiVersion: 'apps.kruise.io/v1beta1',
    entry: 'vnodeimage.kb.io',
    clusterScoped: true,
    agents: 'nodeimages',
    env: AGENT_NODES_ENV,
    // a NodeImage's status is its node agent's (a fake one has no node, no agent): the controller's spec maintenance dropped the tag
    // whose owner job does not exist (tools/chaos/fuzz-nodeimage.ts)
    reconciled: (obj) =>
      !(obj as { spec?: { images?: Record<string, unknown> } }).spec?.images?.[GONE_OWNER_IMAGE],
  },
];
const RECONCILE_WAIT_MS = 120_000;
/** Between two looks at the accepted objects still waiting (beside the sending). */
const RECONCILE_POLL_MS = 500;
/** How long the first half's namespace may take to go once deleted (finding 25: 2 700 kept ImagePullJobs). */
const NAMESPACE_GONE_MS = 15 * 60_000;
/** Sending waits while this many accepted objects wait for their reconcile (the controller behind). */
const RECONCILE_WINDOW = 100;

/** What R2 keeps of a sent object: its index (to make it again), shape, name, response and verdict. */
interface Sent {
  i: number;
  shape: Shape;
  name: string;
  /** The response, its message cut to 1000 characters (the notes quote 200). */
  r: Response;
  v: Verdict;
  at: number;
  /** Refused by the webhook by the object's own rules (judged when stored), or by a cluster rule only. */
  byOwnRules: boolean;
  clusterRule: boolean;
}
/** NodeImages sent in place of the agent nodes' (at most; each waits for its agent's status). */
const AGENT_NODEIMAGES = 30;

interface KindOutcome {
  figures: [string, string][];
  violations: Violation[];
  notes: string[];
  crashes: number;
}

export async function checkFuzzedAdmission(
  w: World,
  o: { perKind: number; seed: number; dir: string; kinds?: string[]; concurrency: number },
): Promise<CheckResult> {
  const out: CheckResult = {
    id: 'R2',
    title: 'fuzzed admission',
    figures: [['seed / objects per kind / requests in flight', `${o.seed} / ${o.perKind} / ${o.concurrency}`]],
    violations: [],
    crashes: 0,
    notes: [],
  };
  const kinds = R2_KINDS.filter((x) => !o.kinds || r2KindChosen(x, o.kinds));
  // the agent nodes and their agents, for the kinds that have a part with them (started once, before the first)
  let agents: AgentNodes | undefined;
  try {
    for (const k of kinds) {
      if (k.agents) agents ??= await startAgentNodes(w);
      const r = await fuzzKind(w, k, { ...o, agents });
      // each kind's verdict as soon as it is known: a long run stopped in a later kind keeps the earlier ones
      w.log(`R2: ${k.fuzz.kind} done: ${r.violations.length} violations, ${r.crashes} crashes`);
      for (const [a, b] of r.figures) w.log(`R2:   ${k.fuzz.kind}: ${a}: ${b}`);
      out.figures.push(...r.figures.map(([a, b]): [string, string] => [`${k.fuzz.kind}: ${a}`, b]));
      out.violations.push(...r.violations);
      out.notes.push(...r.notes.map((n) => `${k.fuzz.kind}: ${n}`));
      out.crashes += r.crashes;
    }
    if (agents) {
      const r = await agents.outcome();
      out.figures.push(...r.figures.map(([a, b]): [string, string] => [`image pull agents: ${a}`, b]));
      out.violations.push(...r.violations);
      out.crashes += r.violations.length;
    }
  } finally {
    await agents?.stop();
  }
  return out;
}

async function fuzzKind(
  w: World,
  k: R2Kind,
  o: { perKind: number; seed: number; dir: string; concurrency: number; agents: AgentNodes | undefined },
): Promise<KindOutcome> {
  const violations: Violation[] = [];
  const notes: string[] = [];
  const NS = `chaos-r2-${k.id ?? k.app}`;
  const CONFIG = `regatta-${k.app}`;
  const KIND = k.fuzz.kind;
  const failDir = join(o.dir, 'r2-failures');
  await createFuzzNamespace(w, NS);

  // the program with its webhooks (for CloneSets in place of the world's: same name, same lease identity)
  const main = w.controllers.get(k.app);
  await main?.kill();
  const logFile = join(w.cluster.dir, 'logs', `${k.app}.log`);
  const logFrom = (await stat(logFile).catch(() => ({ size: 0 }))).size;
  const hook = w.program(k.app, { webhook: true, ...(k.env ? { env: k.env } : {}) });
  await hook.start();
  const deadline = Date.now() + 120_000;
  while (!(await webhookEntries(w, CONFIG)).includes(k.entry)) {
    if (Date.now() > deadline)
      throw new Error(`R2: the ${KIND} webhook configurations did not appear in 2 min`);
    await sleep(500);
  }
  w.log(`R2: ${o.perKind} ${KIND}s, seed ${o.seed}`);
  // made one at a time from the seed (fuzz-sequence.ts): only what the verdicts need is kept of each object
  const objects = fuzzSequence(k.fuzz, NS, o.perKind, o.seed);
  const save = async (f: Fuzzed, r: Response, why: string, i: number) => {
    await mkdir(failDir, { recursive: true });
    const file = join(failDir, `${k.id ?? k.app}-${i}.json`);
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
  // every accepted object reconciled (the kind's rule), with no crash, within the wait after its acceptance; then
  // deleted, so etcd holds the objects still waiting (r2-window.ts)
  const window = new ReconcileWindow(
    w,
    {
      apiVersion: k.apiVersion,
      kind: KIND,
      namespace: k.clusterScoped ? undefined : NS,
      isReconciled: k.reconciled ?? observedGeneration,
      deleteDone: !k.keepAdmitted,
    },
    { waitMs: RECONCILE_WAIT_MS, pollMs: RECONCILE_POLL_MS, limit: RECONCILE_WINDOW, onError: (n) => notes.push(n) },
  );
  // sent `concurrency` at a time (`--r2-concurrency`), judged and reported in the seeded order
  const sendStart = Date.now();
  let sentCount = 0;
  const violationsAt: { i: number; v: Violation }[] = [];
  const invalidAccepted: { i: number; mutations: string[] }[] = [];
  let results: Sent[];
  try {
    results = await mapBounded(
      Array.from({ length: objects.length }, (_, i) => i),
      k.ordered ? 1 : o.concurrency,
      async (i): Promise<Sent> => {
        await window.room();
        const f = objects.at(i);
        const r = await send(w.client, addressable(f.object));
        const at = w.now();
        const name = (f.object['metadata'] as { name: string }).name;
        if (r.accepted) window.add(name);
        if (++sentCount % 50 === 0) w.log(`R2: ${sentCount}/${objects.length} sent`);
        const v = verdictOf(r);
        const bad = violationOf(v);
        if (bad) {
          const file = await save(f, r, bad, i);
          violationsAt.push({
            i,
            v: {
              kind: 'admission',
              at,
              count: 1,
              detail: `${KIND} #${i} (${f.shape}: ${f.mutations.join(', ') || 'none'}): ${bad}; ${(r.message ?? '').slice(0, 200)} — saved to ${file}`,
            },
          });
        }
        // objects the generator made invalid on purpose that were admitted: saved for a reading against
        // OpenKruise's validation (pkg/webhook/cloneset/validating/validation.go); not judged here
        if (r.accepted && f.shape === 'invalid') {
          await mkdir(join(o.dir, 'r2-accepted-invalid'), { recursive: true });
          await writeFile(join(o.dir, 'r2-accepted-invalid', `${k.id ?? k.app}-${i}.json`), JSON.stringify(f, null, 1));
          invalidAccepted.push({ i, mutations: f.mutations });
        }
        const webhookRefusal = v.result === 'rejected' && v.by === 'webhook';
        return {
          i,
          shape: f.shape,
          name,
          r: { ms: r.ms, accepted: r.accepted, status: r.status, message: r.message?.slice(0, 1000) },
          v,
          at,
          byOwnRules: webhookRefusal && !clusterRuleOnly(r),
          clusterRule: webhookRefusal && clusterRuleOnly(r),
        };
      },
    );
  } catch (err) {
    await window.close().catch(() => undefined);
    throw err;
  }
  const sendMs = Date.now() - sendStart;
  violations.push(...violationsAt.sort((a, b) => a.i - b.i).map((x) => x.v));
  const reconcileStart = Date.now();
  await window.drain();
  const reconcileMs = Date.now() - reconcileStart;
  const accepted = results.filter((x) => x.r.accepted);
  const names = new Set(accepted.map((x) => x.name));
  const reconciled = new Set([...window.reconciled, ...window.gone]);
  const gone = window.gone;
  // the part with node agents, webhooks served: the jobs' tags pulled, NodeImages in place of the agent nodes'
  const agentPart: { figures: [string, string][]; violations: Violation[] } = { figures: [], violations: [] };
  const addAgentPart = (r: typeof agentPart) => {
    agentPart.figures.push(...r.figures);
    agentPart.violations.push(...r.violations);
  };
  let refusedOnAgents: Awaited<ReturnType<typeof agentNodeImages>>['refused'] = [];
  if (o.agents && k.agents === 'jobs') addAgentPart(await agentNodesCurrent(w, o.agents));
  if (o.agents && k.agents === 'nodeimages') {
    const r = await agentNodeImages(w, o.agents, { seed: o.seed, count: Math.min(o.perKind, AGENT_NODEIMAGES) });
    addAgentPart(r);
    refusedOnAgents = r.refused;
  }
  const crashes = [...(main?.crashes ?? []), ...hook.crashes].filter(
    (c) => c.at >= (results[0]?.at ?? 0) - 60_000,
  );
  for (const c of crashes) {
    // the objects accepted in the 60 s before the crash: the candidates (a blocked event loop costs the lease after 6 s
    // and more; the program log names the reconcile that failed), made again from the seed
    const suspects = accepted.filter((x) => x.at <= c.at && x.at >= c.at - 60_000);
    const files = await Promise.all(
      suspects.map((x) => save(objects.at(x.i), x.r, `accepted before a crash at ${fmt(c.at / 1000)} s`, x.i)),
    );
    violations.push({
      kind: 'crash',
      at: c.at,
      count: 1,
      detail: `the ${k.app} program exited (code ${c.code}); objects accepted in the 60 s before: ${files.join(', ') || 'none'}`,
    });
  }
  for (const x of invalidAccepted.sort((a, b) => a.i - b.i))
    notes.push(`invalid by construction, accepted: #${x.i} ${x.mutations.join('; ')}`);
  if (gone.size > 0)
    notes.push(`deleted by their controller (TTL after finishing) before a look saw their status: ${[...gone].join(', ')}`);
  const notReconciled = [...names].filter((n) => !reconciled.has(n));
  const left = await unreconciledOf(w, { kind: KIND, namespace: k.clusterScoped ? undefined : NS }, notReconciled);
  const v = unreconciledViolation(KIND, left.unreconciled, RECONCILE_WAIT_MS / 1000, w.now());
  if (v) violations.push(v);
  if (left.refused.length > 0) notes.push(`accepted, refused by the controller's guard (a named field): ${left.refused.join(', ')}`);
  const errorsLogged = countErrorLines(await readLogFrom(logFile, logFrom));
  const reconciledCount = [...names].filter((n) => reconciled.has(n)).length;
  w.log(`R2: ${KIND}: first half: ${reconciledCount}/${names.size} accepted reconciled, ${errorsLogged} error lines`);

  // cluster-scoped objects outlive the namespace: a SidecarSet left behind would inject into later checks' pods
  if (k.clusterScoped)
    for (const name of window.leftOver())
      await w.client.delete({ apiVersion: k.apiVersion, kind: KIND, name }).catch((err: unknown) => {
        notes.push(`could not delete ${KIND} ${name}: ${err instanceof Error ? err.message : String(err)}`);
      });
  await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NS }).catch(() => undefined);
  await hook.stop();
  // the program's configurations, and those it keeps for other objects (`regatta-sidecarset-pods`: a pod entry
  // per SidecarSet, failurePolicy Fail, that would refuse later checks' pods with the program gone)
  await deleteConfigurations(w, k.app);
  await main?.start();

  // the second half: the program without webhooks, the invalid objects stored as they are (r2-stored.ts)
  const plain = main ?? w.program(k.app, k.env ? { env: k.env } : {});
  if (!main) await plain.start();
  // the second half starts once the first half's objects are gone: a namespace still deleting thousands of them
  // kept the program busy and the stored objects waiting (finding 25)
  const deleteStart = Date.now();
  if (!(await namespaceGone(w, NS, { apiVersion: k.apiVersion, kind: KIND }, NAMESPACE_GONE_MS)))
    violations.push({
      kind: 'deletion',
      at: w.now(),
      count: 1,
      detail: `namespace ${NS} (${names.size} ${KIND}s kept) not gone ${NAMESPACE_GONE_MS / 60_000} min after its delete`,
    });
  const deleteMs = Date.now() - deleteStart;
  w.log(`R2: ${KIND}: first half's namespace gone (or given up) after ${fmt(deleteMs / 1000)} s`);
  const storedStart = Date.now();
  const stored = await storedInvalid(w, k, {
    seed: o.seed,
    perKind: o.perKind,
    concurrency: k.ordered ? 1 : o.concurrency,
    judged: new Set(results.flatMap((x) => (x.byOwnRules ? [x.i] : []))),
    others: new Set(
      results.flatMap((x) => (!x.byOwnRules && (x.shape === 'invalid' || x.v.result === 'rejected') ? [x.i] : [])),
    ),
    clusterRule: new Set(results.flatMap((x) => (x.clusterRule ? [x.i] : []))),
    program: plain,
  });
  const storedMs = Date.now() - storedStart;
  if (o.agents && k.agents === 'nodeimages') addAgentPart(await storedAgentNodeImages(w, o.agents, refusedOnAgents));
  if (!main) await plain.stop();
  violations.push(...stored.violations, ...agentPart.violations);
  notes.push(...stored.notes);
  // both halves: a defect retried with back-off neither crashes the program nor lets it reconcile (finding 24)
  violations.push(
    ...defectViolations(`the ${k.app} program`, await readLogFrom(logFile, logFrom), logFile, w.now()),
  );

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
      `API server rejection without a field path (${x.shape}): ${x.r.status} ${(x.r.message ?? '').slice(0, 160)}`,
    );
  const s = summarize(results.map((x) => x.r.ms));
  return {
    figures: [
      ['requests / accepted / rejected', `${results.length} / ${accepted.length} / ${rejected.length}`],
      [
        'by shape (accepted/sent)',
        SHAPES.map(
          (sh) => `${sh} ${count((x) => x.shape === sh && x.r.accepted)}/${count((x) => x.shape === sh)}`,
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
      [
        'time: sending / until reconciled / webhooks removed half',
        `${fmt(sendMs / 1000)} s (${fmt(sendMs / Math.max(1, results.length))} ms per object) / ${fmt(reconcileMs / 1000)} s / ${fmt(storedMs / 1000)} s`,
      ],
      ['accepted objects reconciled', `${reconciledCount}/${names.size}`],
      ['first namespace gone after its delete', `${fmt(deleteMs / 1000)} s`],
      [
        'accepted objects deleted once reconciled / most waiting at once',
        k.keepAdmitted
          ? `kept (${names.size}) / ${window.peak}`
          : `${window.deleted} (kept holding pods: ${window.holding.size}) / ${window.peak}`,
      ],
      ['error lines in the program log', String(errorsLogged)],
      ...stored.figures,
      ...agentPart.figures,
    ],
    violations,
    crashes: crashes.length + stored.crashes,
    notes,
  };
}
