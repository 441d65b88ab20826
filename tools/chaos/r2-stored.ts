// R2's second half (issue 18: "with the webhooks removed, invalid stored objects are refused by the reconciler with
// an event, not acted on"). After the webhook half, the kind's program runs again without webhooks and with its
// webhook configurations gone; the objects the first half's webhook refused, and those invalid by construction,
// are sent again (same seed, so the same objects, in a namespace of their own with a pod quota of 10; in chunks, each
// judged, then deleted) straight to the API server, whose CRD schema still applies (what it refuses is counted). For each one stored: a Warning event
// `InvalidSpec` on it naming a field, nothing acted on (no object in the namespace owned by it: pods, revisions,
// subset workloads, distributed copies; no status written, no finalizer added), no crash of the program. Only the
// objects the webhook refused are judged; those invalid by construction that the webhook admitted (OpenKruise does
// not check everything, see r2.ts) are counted, not judged. Those refused by a rule that reads the cluster only (a
// `podsToDelete` naming no pod of the object, SidecarSets overlapping, a resource the API server refuses) are stored
// too, and must do no harm: no crash, and the bystander pod (a pod of the namespace no stored object owns, created
// first) neither deleted nor changed; what the program did with each (status, Warning events) is listed.
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound, KubeApiError, type KubeObject } from '@regatta/kube';
import type { Violation } from './checker.js';
import { addressable, namesFieldPath, type FuzzKind, type Shape } from './fuzz.js';
import { fuzzSequence } from './fuzz-sequence.js';
import type { SupervisedProgram } from './programs.js';
import type { World } from './world.js';
import { mapBounded } from './bounded.js';
import { droppedOnStore } from './r2-dropped.js';

/** The namespace fuzzed objects are sent into, with a quota of 10 pods (absurd replica counts create at most 10). */
export async function createFuzzNamespace(w: World, ns: string): Promise<void> {
  await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await w.client.create({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'pods', namespace: ns },
    spec: { hard: { pods: '10' } },
  } as KubeObject);
}

const GONE_POLL_MS = 250;

/**
 * How many objects a collection holds, from one page of it: its items and the count the API server says remain
 * ("more than" the items when it says there are more without a count).
 */
export function countOf(page: {
  items: readonly unknown[];
  metadata?: { remainingItemCount?: number; continue?: string };
}): string {
  const remaining = page.metadata?.remainingItemCount;
  if (remaining === undefined && page.metadata?.continue) return `more than ${page.items.length}`;
  return String(page.items.length + (remaining ?? 0));
}

/**
 * Waits until namespace `ns`, deleted, is gone (its objects' finalizers removed by their controller); false when it
 * is still there after `timeoutMs`. Logs how many objects of `kind` it still holds every minute.
 */
export async function namespaceGone(
  w: World,
  ns: string,
  kind: { apiVersion: string; kind: string },
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let nextLog = Date.now() + 60_000;
  for (;;) {
    const namespace = await w.client.getOrUndefined({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    if (!namespace) return true;
    if (Date.now() >= deadline) return false;
    if (Date.now() >= nextLog) {
      nextLog += 60_000;
      // one item and the count (finding 29: a whole list, tens of MB at 10 000 objects, loaded the API server whose
      // collection delete this waits for)
      const left = await w.client.list({ ...kind, namespace: ns }, { limit: 1 }).then(
        (l) => `${countOf(l)} ${kind.kind}s left`,
        (err: unknown) => `could not list its ${kind.kind}s: ${err instanceof Error ? err.message : String(err)}`,
      );
      w.log(`R2: namespace ${ns} still deleting: ${left}`);
    }
    await sleep(GONE_POLL_MS);
  }
}

/** The reason the spec guards give (libs/kube/src/spec-guard.ts INVALID_SPEC_REASON). */
export const INVALID_SPEC = 'InvalidSpec';
const WAIT_MS = 60_000;
/** The pod of the second half's namespace that no fuzzed object owns. */
export const BYSTANDER = 'chaos-bystander';
/** After every stored object of a chunk has its event: how long the program has to show it would act anyway. */
const SETTLE_MS = 5_000;
/** Between two looks at a chunk's stored objects. */
const POLL_MS = 1_000;
/** Objects stored, waited for and judged together, then deleted (etcd holds one chunk). */
const STORED_CHUNK = 250;

/** What a reconciler may create in the namespace for an object it acts on (owned by it). */
const CHILD_KINDS: { apiVersion: string; kind: string }[] = [
  { apiVersion: 'v1', kind: 'Pod' },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim' },
  { apiVersion: 'v1', kind: 'ConfigMap' },
  { apiVersion: 'v1', kind: 'Secret' },
  { apiVersion: 'apps/v1', kind: 'ControllerRevision' },
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
];

export interface StoredKind {
  fuzz: FuzzKind;
  app: string;
  id?: string;
  apiVersion: string;
  clusterScoped?: boolean;
}

export interface StoredOutcome {
  figures: [string, string][];
  violations: Violation[];
  notes: string[];
  crashes: number;
}

/** What is kept of a stored object: its index (the seed makes it again), shape, mutations, uid and name. */
interface StoredObject {
  i: number;
  shape: Shape;
  mutations: string[];
  uid: string;
  name: string;
  judged: boolean;
  /** Mutated fields the API server did not keep (r2-dropped.ts): not the object the webhook judged. */
  dropped: string[];
}

/** A stored object as the last look saw it. */
interface Seen {
  s: StoredObject;
  refusal: 'named' | 'unnamed' | undefined;
  acted: string | undefined;
  warnings: string[];
}

type Stored = KubeObject & { status?: { observedGeneration?: number }; metadata?: KubeObject['metadata'] };

/** A stored object was acted on: something in the namespace it owns, a status written, a finalizer added. */
export function actedOn(obj: Stored, owned: readonly string[]): string | undefined {
  if (owned.length > 0) return `owns ${owned.join(', ')}`;
  if (obj.status && Object.keys(obj.status).length > 0)
    return `status written (${JSON.stringify(obj.status).slice(0, 120)})`;
  const fin = obj.metadata?.finalizers ?? [];
  if (fin.length > 0) return `finalizers added: ${fin.join(', ')}`;
  return undefined;
}

/**
 * The webhook rules that read the cluster, not the object: the pods `podsToDelete` names (CloneSet, Advanced
 * StatefulSet), a SidecarSet's overlap with others, its canary base and revision, the pod-metadata whitelist, the
 * ResourceDistribution's dry-run create. A reconciler's guard checks the object alone, so a refusal by these only is
 * not judged.
 */
const CLUSTER_RULES =
  /find pod .* failed|already exist in|in conflict with sidecarset|base sidecarSet|canary sidecarSet|whitelist|revision .*not found|spec\.resource is (invalid|forbidden):|dry-run/i;

/** Every cause of the webhook's refusal is a cluster rule (or, without causes, its message names one). */
export function clusterRuleOnly(r: { message?: string; causes?: { message?: string }[] }): boolean {
  const causes = (r.causes ?? []).filter((c) => c.message);
  if (causes.length === 0) return CLUSTER_RULES.test(r.message ?? '');
  return causes.every((c) => CLUSTER_RULES.test(c.message ?? ''));
}

/** The label the node simulator gives a pod it starts (its node's zone): not a program's doing. */
const SIMULATOR_LABELS = new Set(['topology.kubernetes.io/zone']);

/**
 * The bystander pod after the wait: deleted, adopted (an owner reference), its containers changed, or a label of its
 * own changed or one added (other than the node simulator's zone); undefined when untouched.
 */
export function bystanderHarm(
  before: KubeObject & { spec?: unknown },
  after: (KubeObject & { spec?: unknown }) | undefined,
): string | undefined {
  if (!after) return 'deleted';
  if (after.metadata?.uid !== before.metadata?.uid) return 'deleted and created again';
  const owners = after.metadata?.ownerReferences ?? [];
  if (owners.length > 0) return `adopted (${owners.map((r) => `${r.kind} ${r.name}`).join(', ')})`;
  const containers = (p: { spec?: unknown }) => JSON.stringify((p.spec as { containers?: unknown })?.containers);
  if (containers(after) !== containers(before)) return `changed (containers ${containers(after).slice(0, 120)})`;
  const was = before.metadata?.labels ?? {};
  const now = Object.fromEntries(
    Object.entries(after.metadata?.labels ?? {}).filter(([k]) => !SIMULATOR_LABELS.has(k) || k in was),
  );
  if (JSON.stringify(now) !== JSON.stringify(was)) return `relabelled (${JSON.stringify(now)})`;
  return undefined;
}

/** The reconciler's refusal: a Warning `InvalidSpec` event whose message names a field path. */
export function refusalOf(
  events: { type?: string; reason?: string; message?: string }[],
): 'named' | 'unnamed' | undefined {
  const mine = events.filter((e) => e.type === 'Warning' && e.reason === INVALID_SPEC);
  if (mine.length === 0) return undefined;
  return mine.some((e) => namesFieldPath(e.message ?? '')) ? 'named' : 'unnamed';
}

export async function storedInvalid(
  w: World,
  k: StoredKind,
  o: {
    seed: number;
    perKind: number;
    /** Creates in flight at once. */
    concurrency: number;
    /** Indices the first half's webhook refused by the object's own rules (judged). */
    judged: ReadonlySet<number>;
    /** Indices sent too, not judged: invalid by construction but admitted, or refused by a cluster rule only. */
    others: ReadonlySet<number>;
    /** Of `others`, those the webhook refused by a cluster rule only (what the program did with each is listed). */
    clusterRule: ReadonlySet<number>;
    /** The program reconciling the kind, running without webhooks (its crashes counted from now on). */
    program: SupervisedProgram;
  },
): Promise<StoredOutcome> {
  const violations: Violation[] = [];
  const notes: string[] = [];
  const NS = `chaos-r2s-${k.id ?? k.app}`;
  const KIND = k.fuzz.kind;
  const startedAt = w.now();
  await createFuzzNamespace(w, NS);

  // a pod no fuzzed object owns: a podsToDelete naming it, or any other rule, must not delete or change it
  const bystander = await w.client.create<KubeObject & { spec?: unknown }>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: BYSTANDER, namespace: NS, labels: { app: 'chaos-bystander' } },
    spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] },
  } as KubeObject);

  // made one at a time from the seed (fuzz-sequence.ts); only the chosen ones are made
  const objects = fuzzSequence(k.fuzz, NS, o.perKind, o.seed, 'sv');
  const chosen = [...new Set([...o.judged, ...o.others])].sort((a, b) => a - b);
  const ref = { apiVersion: k.apiVersion, kind: KIND, ...(k.clusterScoped ? {} : { namespace: NS }) };
  let refusedBySchema = 0;
  let storedCount = 0;
  const seen: Seen[] = [];
  // in chunks of STORED_CHUNK: each chunk's objects stored, waited for and judged as one, then deleted, so etcd and
  // the lists below hold one chunk (the objects do not see each other: no webhook, and a guard reads its object alone)
  for (let c = 0; c < chosen.length; c += STORED_CHUNK) {
    const chunk = chosen.slice(c, c + STORED_CHUNK);
    // sent `concurrency` at a time, kept in the seeded order
    const sent = await mapBounded(chunk, o.concurrency, async (i): Promise<StoredObject | 'refused'> => {
      const f = objects.at(i);
      try {
        const created = await w.client.create(addressable(f.object));
        const name = created.metadata?.name ?? '';
        const dropped = droppedOnStore(f.object, created, f.mutations);
        return { i, shape: f.shape, mutations: f.mutations, uid: created.metadata?.uid ?? '', name, judged: o.judged.has(i), dropped };
      } catch (err) {
        if (!(err instanceof KubeApiError)) throw err;
        return 'refused';
      }
    });
    const stored = sent.filter((x): x is StoredObject => x !== 'refused');
    refusedBySchema += sent.length - stored.length;
    storedCount += stored.length;
    const look = async (): Promise<Seen[]> => {
      // a refusal is a Warning event, and only Warning events are listed with an object
      const events = (
        await w.client.list<
          KubeObject & { involvedObject?: { uid?: string }; type?: string; reason?: string; message?: string }
        >({ apiVersion: 'v1', kind: 'Event' }, { fieldSelector: `type=Warning,involvedObject.kind=${KIND}` })
      ).items;
      const listed = new Map(
        (await w.client.list<Stored>(ref)).items.map((x) => [x.metadata?.uid ?? '', x] as const),
      );
      const owned = new Map<string, string[]>();
      for (const ck of CHILD_KINDS) {
        const items = (
          await w.client.list({ ...ck, namespace: NS }).catch(() => ({ items: [] as KubeObject[] }))
        ).items;
        for (const x of items)
          for (const r of x.metadata?.ownerReferences ?? [])
            owned.set(r.uid, [...(owned.get(r.uid) ?? []), `${ck.kind} ${x.metadata?.name ?? ''}`]);
      }
      return stored.map((st) => {
        const mine = events.filter((e) => e.involvedObject?.uid === st.uid);
        return {
          s: st,
          refusal: refusalOf(mine),
          acted: actedOn(listed.get(st.uid) ?? ({} as Stored), owned.get(st.uid) ?? []),
          warnings: [...new Set(mine.filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${(e.message ?? '').slice(0, 120)}`))],
        };
      });
    };
    const until = Date.now() + WAIT_MS;
    let now = await look();
    while (now.some((x) => x.s.judged && !x.refusal && !x.acted) && Date.now() < until) {
      await sleep(POLL_MS);
      now = await look();
    }
    await sleep(SETTLE_MS);
    seen.push(...(await look()));
    for (const st of stored)
      await w.client.delete({ ...ref, name: st.name }).catch((err: unknown) => {
        if (!isNotFound(err))
          notes.push(`could not delete ${KIND} ${st.name}: ${err instanceof Error ? err.message : String(err)}`);
      });
  }
  w.log(`R2 (webhooks removed): ${chosen.length} ${KIND}s sent, ${storedCount} stored, in ${Math.ceil(chosen.length / STORED_CHUNK)} chunk(s)`);

  const crashes = o.program.crashes.filter((c) => c.at >= startedAt);
  for (const c of crashes)
    violations.push({
      kind: 'crash',
      at: c.at,
      count: 1,
      detail: `the ${k.app} program exited (code ${c.code}) with invalid ${KIND}s stored (webhooks removed)`,
    });
  const judged = seen.filter((x) => x.s.judged);
  // stored without a field its refusal may rest on, and not refused: the object as stored may be valid
  const excused = judged.filter((x) => x.s.dropped.length > 0 && (x.acted || x.refusal !== 'named'));
  for (const x of excused)
    notes.push(
      `refused by the webhook, stored without ${x.s.dropped.join(', ')} (the API server dropped it), not counted: ` +
        `#${x.s.i}: ${x.acted ?? 'not acted on'}`,
    );
  for (const x of judged.filter((j) => !excused.includes(j))) {
    const what = `${KIND} ${x.s.name} (#${x.s.i}, ${x.s.shape}: ${x.s.mutations.join(', ').slice(0, 160)})`;
    if (x.acted)
      violations.push({
        kind: 'stored-invalid',
        at: w.now(),
        count: 1,
        detail: `${what}: acted on: ${x.acted}`,
      });
    else if (!x.refusal)
      violations.push({
        kind: 'stored-invalid',
        at: w.now(),
        count: 1,
        detail: `${what}: no ${INVALID_SPEC} event in ${WAIT_MS / 1000} s`,
      });
    else if (x.refusal === 'unnamed')
      violations.push({
        kind: 'stored-invalid',
        at: w.now(),
        count: 1,
        detail: `${what}: the ${INVALID_SPEC} event names no field`,
      });
  }
  const unjudged = seen.filter((x) => !x.s.judged);
  for (const x of unjudged.filter((u) => u.refusal))
    notes.push(
      `admitted by the webhook, refused when stored: #${x.s.i} ${x.s.mutations.join('; ').slice(0, 160)}`,
    );
  for (const x of unjudged.filter((u) => o.clusterRule.has(u.s.i)))
    notes.push(
      `cluster rule only, stored: #${x.s.i} ${x.s.mutations.join('; ').slice(0, 120)}: ${x.acted ?? 'not acted on'}; ` +
        `Warning events: ${x.warnings.join(' | ') || 'none'}`,
    );
  const after = await w.client.getOrUndefined<KubeObject & { spec?: unknown }>({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: NS,
    name: BYSTANDER,
  });
  const harm = bystanderHarm(bystander, after);
  if (harm)
    violations.push({
      kind: 'stored-invalid',
      at: w.now(),
      count: 1,
      detail: `with invalid ${KIND}s stored, the bystander pod (owned by none of them) was ${harm}`,
    });

  await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NS }).catch(() => undefined);
  // objects with a finalizer (an admitted ImagePullJob) need the program to go: it is stopped after this
  await namespaceGone(w, NS, { apiVersion: k.apiVersion, kind: KIND }, 30_000);

  const n = (p: (x: (typeof seen)[number]) => boolean, xs = judged) => xs.filter(p).length;
  return {
    figures: [
      [
        'webhooks removed: sent / refused by the API server / stored (webhook-refused)',
        `${chosen.length} / ${refusedBySchema} / ${storedCount} (${judged.length})`,
      ],
      [
        'webhooks removed: refused with an event / acted on / crashes',
        `${n((x) => x.refusal === 'named' && !x.acted)}/${judged.length} / ${n((x) => !!x.acted && !excused.includes(x))} / ${crashes.length}`,
      ],
      [
        'webhooks removed: not judged (admitted, or a cluster rule) stored: refused / acted on',
        `${n((x) => !!x.refusal, unjudged)} / ${n((x) => !!x.acted, unjudged)} of ${unjudged.length}`,
      ],
      [
        'webhooks removed: webhook-refused, stored without a mutated field: refused / not counted',
        `${n((x) => x.s.dropped.length > 0) - excused.length} / ${excused.length}`,
      ],
      [
        'webhooks removed: cluster rule only, stored / the bystander pod',
        `${n((x) => o.clusterRule.has(x.s.i), unjudged)} / ${harm ?? 'untouched'}`,
      ],
    ],
    violations,
    notes,
    crashes: crashes.length,
  };
}
