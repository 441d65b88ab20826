// OpenKruise's CloneSet e2e scenarios (upstream test/e2e/apps/cloneset.go) not covered by the other scenario
// files, and the seed articles' CloneSets (libs/api/src/fixtures, S1) applied as written: what a user observes
// (pods, UIDs, restarts, status and its Progressing condition, events) on the shared local cluster.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { isMap, isScalar, parseDocument, type Pair } from 'yaml';
import { NodeSimulator } from '@regatta/node-simulator';
import {
  CS,
  type CloneSet,
  type Container,
  type Pod,
  POD,
  isReady,
  seed,
  specOf,
  useCloneSetScenarios,
} from './testing/scenario-harness.js';
import {
  STATE,
  REVISION,
  INPLACE_STATE,
  INPLACE_GRACE,
  RUNTIME_META,
  uidOf,
  nameOf,
  stateOf,
  conditionOf,
  containerStatus,
  sleep,
  holds,
  recordPods,
} from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, patch, setImage, settled } = h;

const FIXTURES = fileURLToPath(new URL('../../../libs/api/src/fixtures/', import.meta.url));
const MAX_INT32 = 2147483647;

// ---------------------------------------------------------------------------------------------------------------
// helpers

interface Template {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  spec: { containers: Container[]; [key: string]: unknown };
}
interface InPlaceState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses?: Record<string, { imageID: string }> | null;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: unknown;
  preCheckBeforeNext?: { containersRequiredReady?: string[] };
  containerBatchesRecord?: { timestamp: string; containers: string[] }[];
  updateEnvFromMetadata?: boolean;
}

const templateOf = (cs: CloneSet): Template => cs.spec['template'] as Template;
const inPlaceState = (p: Pod): InPlaceState | undefined => {
  const raw = p.metadata?.annotations?.[INPLACE_STATE];
  return raw ? (JSON.parse(raw) as InPlaceState) : undefined;
};

/** The CloneSet's Progressing condition as OpenKruise's e2e compares it: without its timestamps. */
async function progressing(ns: string, name: string) {
  const c = (await cloneSet(ns, name)).status?.conditions?.find((k) => k.type === 'Progressing');
  return c ? { status: c.status, reason: c.reason, message: c.message } : undefined;
}
const AVAILABLE = { status: 'True', reason: 'CloneSetAvailable', message: 'CloneSet is available' };
const UPDATED = { status: 'True', reason: 'CloneSetUpdated', message: 'CloneSet is progressing' };
const PAUSED = { status: 'True', reason: 'CloneSetPaused', message: 'CloneSet is paused' };
const PARTITION_AVAILABLE = {
  status: 'True',
  reason: 'ProgressPartitionAvailable',
  message: 'CloneSet has been paused due to partition ready',
};
const deadlineExceeded = (revision: string) => ({
  status: 'False',
  reason: 'ProgressDeadlineExceeded',
  message: `CloneSet revision ${revision} has timed out progressing`,
});

const pollProgressing = (ns: string, name: string, timeout = 30_000) =>
  expect.poll(() => progressing(ns, name), { timeout, interval: 300 });

const loops: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const l of loops.splice(0)) await l.stop();
});

/**
 * A user's controller (S1 §2.3.3) played by the test: every 250 ms it reads the namespace's pods and applies the
 * merge patch `act` returns for a pod (with the pod's resourceVersion, so a stale decision fails and is retried).
 */
function userController(ns: string, act: (p: Pod) => Record<string, unknown> | undefined) {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const p of await pods(ns).catch(() => [] as Pod[])) {
        const body = act(p);
        if (!body) continue;
        const meta = { ...((body['metadata'] as Record<string, unknown> | undefined) ?? {}) };
        await h
          .patchPod(
            ns,
            nameOf(p),
            {
              ...body,
              metadata: { ...meta, resourceVersion: p.metadata!.resourceVersion },
            },
            'merge',
          )
          .catch(() => undefined);
      }
      await sleep(250);
    }
  })();
  const handle = {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
  loops.push(handle);
  return handle;
}

/**
 * The objects an article's YAML shows, as written: a line that is only `...` is an elision (read as a comment),
 * `{...}` placeholders and elided (empty) members are dropped, and where a key repeats (the article's alternatives)
 * there is one object per alternative. Nothing is added.
 */
function article(file: string): CloneSet[] {
  const text = readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .map((l) => l.replace(/^(\s*)\.\.\.\s*$/, '$1# ...'))
    .join('\n');
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  const spec = doc.get('spec', true);
  const variants: unknown[] = [];
  if (!isMap(spec)) variants.push(doc.toJS());
  else {
    const keyOf = (p: Pair) => (isScalar(p.key) ? String(p.key.value) : String(p.key));
    const byKey = new Map<string, Pair[]>();
    for (const item of spec.items) byKey.set(keyOf(item), [...(byKey.get(keyOf(item)) ?? []), item]);
    const count = Math.max(1, ...[...byKey.values()].map((v) => v.length));
    const all = [...spec.items];
    for (let k = 0; k < count; k++) {
      spec.items = all.filter((item) => {
        const list = byKey.get(keyOf(item))!;
        return list.length <= 1 || list[Math.min(k, list.length - 1)] === item;
      });
      variants.push(doc.toJS());
    }
    spec.items = all;
  }
  return variants.map((v) => dropElided(v) as CloneSet);
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function dropElided(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropElided);
  if (!isPlain(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (k === '...' || val == null) continue;
    if (isPlain(val) && Object.keys(val).length === 1 && '...' in val) continue;
    out[k] = dropElided(val);
  }
  return out;
}

/** `base` with `over` merged in: objects member by member, anything else (lists too) replaced. */
function merged<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return structuredClone(over) as T;
  const out: Record<string, unknown> = structuredClone(base);
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? merged(out[k], v) : structuredClone(v);
  return out as T;
}

/** A fragment of the articles merged into the cs-demo seed (S1 §2), in `ns`. */
function demoWith(ns: string, fragment: CloneSet, edit: (cs: CloneSet) => void = () => undefined): CloneSet {
  const cs = merged(seed('s1-2-cs-demo.yaml'), fragment);
  cs.metadata = { ...cs.metadata, namespace: ns };
  edit(cs);
  return cs;
}

// ---------------------------------------------------------------------------------------------------------------

describe('CloneSet e2e (OpenKruise test/e2e/apps/cloneset.go)', () => {
  it('progressDeadlineSeconds = MaxInt32 means no Progressing condition at all (also with minReadySeconds = MaxInt32)', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'pds-max', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['progressDeadlineSeconds'] = MAX_INT32;
    });
    await settled(ns, 'pds-max', 1);
    await holds(
      2_000,
      () => cloneSet(ns, 'pds-max'),
      (cs) => {
        expect(cs.spec['progressDeadlineSeconds']).toBe(MAX_INT32);
        expect(cs.status!.conditions?.find((c) => c.type === 'Progressing')).toBeUndefined();
      },
    );
    await patch(ns, 'pds-max', { spec: { progressDeadlineSeconds: 600 } });
    await pollProgressing(ns, 'pds-max').toEqual(AVAILABLE);

    // minReadySeconds = MaxInt32 too: the pod is ready and never available, still no condition
    await h.createDemo(ns, 'mrs-max', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['minReadySeconds'] = MAX_INT32;
      cs.spec['progressDeadlineSeconds'] = MAX_INT32;
    });
    await expect
      .poll(async () => (await cloneSet(ns, 'mrs-max')).status?.readyReplicas, { timeout: 30_000 })
      .toBe(1);
    const before = await cloneSet(ns, 'mrs-max');
    await holds(
      3_000,
      () => cloneSet(ns, 'mrs-max'),
      (cs) => {
        expect(cs.spec['minReadySeconds']).toBe(MAX_INT32);
        expect(cs.status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
        expect(cs.status!.conditions?.find((c) => c.type === 'Progressing')).toBeUndefined();
        // nothing is written over and over (a MaxInt32 s requeue must not turn into an immediate one)
        expect(cs.metadata!.resourceVersion).toBe(before.metadata!.resourceVersion);
      },
    );
    // the controller waits MaxInt32 s for the pod to become available: a plain wait, not a timer that Node cuts to
    // 1 ms (TimeoutOverflowWarning) and so fires over and over (this scenario runs first, while no earlier timer of
    // another CloneSet hides it)
    await sleep(5_000);
    const overflows = h.controllerLog().split('TimeoutOverflowWarning').length - 1;
    expect.soft(overflows, 'TimeoutOverflowWarnings in the cloneset program log').toBe(0);
    // minReadySeconds 2 and no deadline: the pod becomes available, and there is still no condition
    await patch(ns, 'mrs-max', { spec: { minReadySeconds: 2, progressDeadlineSeconds: null } });
    await expect
      .poll(async () => (await cloneSet(ns, 'mrs-max')).status?.availableReplicas, { timeout: 20_000 })
      .toBe(1);
    expect(await progressing(ns, 'mrs-max')).toBeUndefined();
  });

  it('hostNetwork with a containerPort and no hostPort: the pods get hostPort = containerPort, and Progressing is CloneSetAvailable', async () => {
    const ns = await namespace();
    // a port nobody else on the shared nodes uses (two pods with one host port cannot share a node)
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    await h.createDemo(ns, 'hostnet', (cs) => {
      cs.spec.replicas = 2;
      cs.spec['progressDeadlineSeconds'] = 600;
      const t = templateOf(cs);
      t.spec['hostNetwork'] = true;
      t.spec.containers = [
        {
          name: 'nginx',
          image: 'nginx:alpine',
          imagePullPolicy: 'IfNotPresent',
          ports: [{ containerPort: port }],
        },
      ];
    });
    await settled(ns, 'hostnet', 2);
    const list = await pods(ns);
    for (const p of list) {
      expect(specOf(p).hostNetwork).toBe(true);
      expect(specOf(p).containers[0]!.ports).toEqual([
        expect.objectContaining({ containerPort: port, hostPort: port, protocol: 'TCP' }),
      ]);
    }
    // the host port is taken on a node, so the two pods run on two nodes
    expect(new Set(list.map((p) => specOf(p).nodeName)).size).toBe(2);
    await pollProgressing(ns, 'hostnet').toEqual(AVAILABLE);
    expect((await cloneSet(ns, 'hostnet')).status).toMatchObject({
      availableReplicas: 2,
      updatedReplicas: 2,
    });
  });

  it('lifecycle preNormal finalizer: pods carrying it become Normal; a pod without it stays PreparingNormal (deadline exceeded) until the finalizer is added', async () => {
    const ns = await namespace();
    const hook = 'example.io/registered';
    // the template carries the hook's finalizer: every pod is "all hooked" and goes Normal
    await h.createDemo(ns, 'prenormal', (cs) => {
      cs.spec.replicas = 2;
      cs.spec['lifecycle'] = { preNormal: { finalizersHandler: [hook] } };
      cs.spec['progressDeadlineSeconds'] = 600;
      templateOf(cs).metadata.finalizers = [hook];
    });
    await settled(ns, 'prenormal', 2);
    await expect
      .poll(async () => (await pods(ns)).filter((p) => p.metadata!.labels![REVISION]).map(stateOf), {
        timeout: 20_000,
      })
      .toEqual(['Normal', 'Normal']);
    for (const p of await pods(ns)) expect(p.metadata!.finalizers).toContain(hook);
    await pollProgressing(ns, 'prenormal').toEqual(AVAILABLE);
    expect((await cloneSet(ns, 'prenormal')).status!.availableReplicas).toBe(2);

    // upstream's variant: the template does not carry the finalizer, so the pod is ready but not hooked
    const ns2 = await namespace();
    await h.createDemo(ns2, 'unhooked', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['lifecycle'] = { preNormal: { finalizersHandler: [hook] } };
      cs.spec['progressDeadlineSeconds'] = 5;
    });
    await expect
      .poll(async () => (await cloneSet(ns2, 'unhooked')).status?.readyReplicas, { timeout: 30_000 })
      .toBe(1);
    const pod = (await pods(ns2))[0]!;
    await holds(
      2_000,
      async () => ({ pods: await pods(ns2), status: (await cloneSet(ns2, 'unhooked')).status! }),
      (v) => {
        expect(v.pods.map(stateOf)).toEqual(['PreparingNormal']);
        expect(v.status.availableReplicas).toBe(0);
      },
    );
    const rev = (await cloneSet(ns2, 'unhooked')).status!.updateRevision!;
    await pollProgressing(ns2, 'unhooked', 20_000).toEqual(deadlineExceeded(rev));

    // the user's controller hooks the pod: it goes Normal and the CloneSet is available
    await h.patchPod(ns2, nameOf(pod), { metadata: { finalizers: [hook] } }, 'merge');
    await expect.poll(async () => (await pods(ns2)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
    // and once its finalizer is taken off again, the pod stays Normal
    await h.patchPod(ns2, nameOf(pod), { metadata: { finalizers: null } }, 'merge');
    await pollProgressing(ns2, 'unhooked').toEqual(AVAILABLE);
    expect((await cloneSet(ns2, 'unhooked')).status!.availableReplicas).toBe(1);
    expect((await pods(ns2)).map(uidOf)).toEqual([uidOf(pod)]);
  });

  it('pods no node can take stay Pending and PreparingNormal: ProgressDeadlineExceeded; after the template is fixed, Available', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'unsched', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['progressDeadlineSeconds'] = 5;
      templateOf(cs).spec['nodeSelector'] = { 'regatta.test/no-such-node': 'true' };
    });
    await expect.poll(async () => (await pods(ns)).length, { timeout: 20_000 }).toBe(1);
    const pending = (await pods(ns))[0]!;
    await holds(
      3_000,
      async () => await pods(ns),
      (now) => {
        expect(now).toHaveLength(1);
        expect(specOf(now[0]!).nodeName).toBeUndefined();
        expect(now[0]!.status?.phase).toBe('Pending');
        expect(now[0]!.metadata!.labels![STATE]).toBe('PreparingNormal');
      },
    );
    const first = await cloneSet(ns, 'unsched');
    await pollProgressing(ns, 'unsched', 20_000).toEqual(deadlineExceeded(first.status!.updateRevision!));
    expect((await cloneSet(ns, 'unsched')).status).toMatchObject({
      replicas: 1,
      readyReplicas: 0,
      availableReplicas: 0,
    });

    // the user drops the nodeSelector: a new revision, the pending pod is replaced, and the CloneSet is available
    await patch(ns, 'unsched', { spec: { template: { spec: { nodeSelector: null } } } });
    const after = await settled(ns, 'unsched', 1);
    expect(after.status!.updateRevision).not.toBe(first.status!.updateRevision);
    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).not.toBe(uidOf(pending));
    expect(specOf(now).nodeName).toBeTruthy();
    await expect.poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
    await pollProgressing(ns, 'unsched').toEqual(AVAILABLE);
  });

  it('paused at creation: pods are still created and become ready; Progressing is CloneSetPaused', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'paused', (cs) => {
      cs.spec.updateStrategy = { type: 'ReCreate', paused: true };
      // as upstream: minReadySeconds keeps the pods from being available, so the condition shows the pause
      cs.spec['minReadySeconds'] = 60;
      cs.spec['progressDeadlineSeconds'] = 600;
    });
    await expect
      .poll(
        async () => {
          const s = (await cloneSet(ns, 'paused')).status;
          return [s?.replicas, s?.readyReplicas, s?.updatedReplicas, s?.availableReplicas];
        },
        { timeout: 30_000 },
      )
      .toEqual([3, 3, 3, 0]);
    await pollProgressing(ns, 'paused').toEqual(PAUSED);
    const list = await pods(ns);
    expect(list).toHaveLength(3);
    const rev = (await cloneSet(ns, 'paused')).status!.updateRevision;
    for (const p of list) {
      expect(isReady(p)).toBe(true);
      expect(p.metadata!.labels![REVISION]).toBe(rev);
    }
    await expect.poll(async () => (await events(ns, 'SuccessfulCreate')).length, { timeout: 10_000 }).toBe(3);
  });

  it('partition "99%", replicas 4, maxUnavailable 50%: exactly one pod is updated, expectedUpdatedReplicas 1, ProgressPartitionAvailable', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'p99', (cs) => {
      cs.spec.replicas = 4;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: '50%', partition: '99%' };
      cs.spec['minReadySeconds'] = 2;
      cs.spec['progressDeadlineSeconds'] = 600;
    });
    const first = await settled(ns, 'p99', 4);
    await pollProgressing(ns, 'p99').toEqual(AVAILABLE);
    const uids = (await pods(ns)).map(uidOf).sort();

    await setImage(ns, 'p99', 'nginx:mainline');
    await expect
      .poll(
        async () => {
          const s = (await cloneSet(ns, 'p99')).status!;
          return [s.updatedReplicas, s.updatedReadyReplicas, s.expectedUpdatedReplicas, s.readyReplicas];
        },
        { timeout: 40_000, interval: 300 },
      )
      .toEqual([1, 1, 1, 4]);
    await pollProgressing(ns, 'p99').toEqual(PARTITION_AVAILABLE);
    // stable: still one, in place
    await holds(
      5_000,
      async () => ({ cs: await cloneSet(ns, 'p99'), pods: await pods(ns) }),
      (v) => {
        expect(v.cs.status!.updatedReplicas).toBe(1);
        expect(v.cs.status!.currentRevision).toBe(first.status!.updateRevision);
        expect(v.pods.filter((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toHaveLength(1);
        expect(v.pods.map(uidOf).sort()).toEqual(uids);
      },
    );
    expect(await progressing(ns, 'p99')).toEqual(PARTITION_AVAILABLE);
  });

  it('a resources change with InPlaceIfPossible recreates the pods, with or without a QoS class change (new UIDs)', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'qos', (cs) => {
      cs.spec.replicas = 2;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
      templateOf(cs).spec.containers[0]!.resources = { requests: { cpu: '50m' } };
    });
    const first = await settled(ns, 'qos', 2);
    const original = await pods(ns);
    for (const p of original) expect(p.status?.qosClass).toBe('Burstable');

    const setResources = async (resources: Record<string, unknown>) => {
      const c = templateOf(await cloneSet(ns, 'qos')).spec.containers[0]!;
      await patch(ns, 'qos', { spec: { template: { spec: { containers: [{ ...c, resources }] } } } });
    };
    // same QoS class (Burstable): resources are not updated in place (InPlaceWorkloadVerticalScaling is off)
    await setResources({ requests: { cpu: '100m' } });
    const second = await settled(ns, 'qos', 2);
    expect(second.status!.updateRevision).not.toBe(first.status!.updateRevision);
    const recreated = await pods(ns);
    for (const p of recreated) {
      expect(original.map(uidOf)).not.toContain(uidOf(p));
      expect(p.status?.qosClass).toBe('Burstable');
      expect(specOf(p).containers[0]!.resources).toEqual({ requests: { cpu: '100m' } });
    }
    // Burstable → Guaranteed
    const guaranteed = { cpu: '1', memory: '1Gi' };
    await setResources({ requests: guaranteed, limits: guaranteed });
    const third = await settled(ns, 'qos', 2);
    const now = await pods(ns);
    for (const p of now) {
      expect([...original, ...recreated].map(uidOf)).not.toContain(uidOf(p));
      expect(p.status?.qosClass).toBe('Guaranteed');
      expect(p.metadata!.labels![REVISION]).toBe(third.status!.updateRevision);
    }
    await expect
      .poll(async () => (await events(ns, 'SuccessfulUpdatePodReCreate')).map((e) => e.message).sort(), {
        timeout: 10_000,
      })
      .toEqual(
        [
          ...original.map(
            (p) =>
              `successfully patch pod ${nameOf(p)} specified-delete for update(revision ${second.status!.updateRevision})`,
          ),
          ...recreated.map(
            (p) =>
              `successfully patch pod ${nameOf(p)} specified-delete for update(revision ${third.status!.updateRevision})`,
          ),
        ].sort(),
      );
    expect(await events(ns, 'SuccessfulUpdatePodInPlace')).toHaveLength(0);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(6);
  });

  describe('on a private node whose runtime crashes example.com/redis:crash* containers', () => {
    const pool = `cse2e-${randomBytes(2).toString('hex')}`;
    const POOL = 'regatta.test/pool';
    let sim: NodeSimulator | undefined;
    const simLog: string[] = [];

    beforeAll(async () => {
      sim = await NodeSimulator.start({
        kubeconfig: inject('cluster').kubeconfig,
        nodes: 1,
        namePrefix: `${pool}-`,
        labels: { [POOL]: pool },
        taints: [{ key: POOL, value: pool, effect: 'NoSchedule' }],
        faults: { crashLoopImages: ['example.com/redis:crash*'] },
        storageClass: '',
        removeNodesOnStop: true,
        log: (l) => simLog.push(l),
      });
    });
    afterAll(async () => {
      await sim?.stop();
    });

    it("two containers with KRUISE_CONTAINER_PRIORITY updated together, the first batch's new image fails: the second never starts, nextContainerImages stays, CloneSetUpdated", async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'prio-fail', (cs) => {
        cs.spec.replicas = 1;
        cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
        cs.spec['progressDeadlineSeconds'] = 600;
        const t = templateOf(cs);
        t.spec['nodeSelector'] = { [POOL]: pool };
        t.spec['tolerations'] = [{ key: POOL, operator: 'Equal', value: pool, effect: 'NoSchedule' }];
        t.spec.containers = [
          { name: 'nginx', image: 'nginx:alpine', imagePullPolicy: 'IfNotPresent' },
          {
            name: 'redis',
            image: 'redis:7.0-alpine',
            imagePullPolicy: 'IfNotPresent',
            env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }],
          },
        ];
      });
      const first = await settled(ns, 'prio-fail', 1);
      await pollProgressing(ns, 'prio-fail').toEqual(AVAILABLE);
      const pod = (await pods(ns))[0]!;
      expect(specOf(pod).nodeName).toBe(`${pool}-1`);

      await h.client.patch(
        { ...CS, namespace: ns, name: 'prio-fail' },
        [
          { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' },
          {
            op: 'replace',
            path: '/spec/template/spec/containers/1/image',
            value: 'example.com/redis:crash-7.2',
          },
        ],
        { type: 'json' },
      );
      // the new redis (higher priority, first batch) starts and crashes: terminated, then waiting in back-off
      await expect
        .poll(
          async () => {
            const r = containerStatus((await pods(ns))[0]!, 'redis');
            return [r?.image, !!r?.lastState?.terminated, r?.state?.waiting?.reason];
          },
          { timeout: 30_000, interval: 300 },
        )
        .toEqual(['example.com/redis:crash-7.2', true, 'CrashLoopBackOff']);
      const updateRevision = (await cloneSet(ns, 'prio-fail')).status!.updateRevision!;
      expect(updateRevision).not.toBe(first.status!.updateRevision);
      // nginx is never touched, and the CloneSet stays "progressing"
      await holds(
        6_000,
        async () => ({ pod: (await pods(ns))[0]!, condition: await progressing(ns, 'prio-fail') }),
        (v) => {
          expect(uidOf(v.pod)).toBe(uidOf(pod));
          expect(specOf(v.pod).containers.find((c) => c.name === 'nginx')!.image).toBe('nginx:alpine');
          expect(containerStatus(v.pod, 'nginx')).toMatchObject({ image: 'nginx:alpine', restartCount: 0 });
          expect(containerStatus(v.pod, 'redis')!.ready).toBe(false);
          expect(inPlaceState(v.pod)).toMatchObject({
            revision: updateRevision,
            nextContainerImages: { nginx: 'nginx:mainline' },
            preCheckBeforeNext: { containersRequiredReady: ['redis'] },
          });
          expect(inPlaceState(v.pod)!.containerBatchesRecord!.map((b) => b.containers)).toEqual([['redis']]);
          expect(v.condition).toEqual(UPDATED);
        },
      );
      expect((await cloneSet(ns, 'prio-fail')).status).toMatchObject({
        updatedReplicas: 1,
        updatedReadyReplicas: 0,
        readyReplicas: 0,
      });
      expect((await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message)).toEqual([
        `successfully update pod ${nameOf(pod)} in-place(revision ${updateRevision})`,
      ]);
      // leave the private node empty before it goes away
      await h.client.delete({ ...CS, namespace: ns, name: 'prio-fail' });
      await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(0);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("the seed articles' CloneSets (S1), applied as written", () => {
  it("S1 §1.3.1 web-server: the article's numbers are admitted; at 1/100 scale partition keeps 10% old and updates one at a time in place", async () => {
    const ns = await namespace();
    const [ws] = article('s1-1.3.1-web-server.yaml');
    // the article elides the pod template (`{...}`): it gets the selector's label and cs-demo's container
    const webServer = merged(ws!, {
      metadata: { namespace: ns },
      spec: {
        template: {
          metadata: { labels: { app: 'web-server' } },
          spec: { containers: templateOf(seed('s1-2-cs-demo.yaml')).spec.containers },
        },
      },
    });
    // 1000 pods do not fit this 5-node test cluster: the manifest itself is admitted (server dry run) as written
    const admitted = await h.client.create<CloneSet>(webServer, { dryRun: true });
    expect(admitted.spec.replicas).toBe(1000);
    expect(admitted.spec.updateStrategy).toMatchObject({
      type: 'InPlaceIfPossible',
      partition: 100,
      maxUnavailable: '10%',
    });
    // ... and runs at 1/100: 10 pods, 1 kept old (100 of 1000), at most 10% (1) unavailable
    const small = merged(webServer, { spec: { replicas: 10, updateStrategy: { partition: 1 } } });
    await h.client.create(small);
    const first = await settled(ns, 'web-server', 10, 60_000);
    const uids = (await pods(ns)).map(uidOf).sort();
    let maxUnready = 0;
    const sample = async () => {
      const now = await pods(ns);
      maxUnready = Math.max(maxUnready, now.filter((p) => !isReady(p)).length);
      return now;
    };
    const sampler = setInterval(() => void sample().catch(() => undefined), 150);
    try {
      await setImage(ns, 'web-server', 'nginx:mainline');
      await expect
        .poll(
          async () => {
            const s = (await cloneSet(ns, 'web-server')).status!;
            return [s.updatedReplicas, s.updatedReadyReplicas, s.readyReplicas, s.expectedUpdatedReplicas];
          },
          { timeout: 60_000, interval: 500 },
        )
        .toEqual([9, 9, 10, 9]);
    } finally {
      clearInterval(sampler);
    }
    const now = await sample();
    expect(now.map(uidOf).sort()).toEqual(uids);
    const old = now.filter((p) => p.metadata!.labels![REVISION] === first.status!.updateRevision);
    expect(old).toHaveLength(1);
    expect(specOf(old[0]!).containers[0]!.image).toBe('nginx:alpine');
    expect(maxUnready).toBeLessThanOrEqual(1);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(9);
  });

  it('S1 §2.1.2 podsToDelete: replicas 4 with sample-9m4hp listed deletes exactly that pod and prunes the list', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.1.2-pods-to-delete.yaml');
    // the article's pod: a pod named sample-9m4hp that the CloneSet `sample` adopts
    await h.client.create({
      ...POD,
      metadata: { name: 'sample-9m4hp', namespace: ns, labels: { app: 'sample' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
    });
    const sample = seed('s1-2-cs-demo.yaml');
    sample.metadata = { name: 'sample', namespace: ns };
    sample.spec.replicas = 5;
    sample.spec['selector'] = { matchLabels: { app: 'sample' } };
    templateOf(sample).metadata.labels = { app: 'sample' };
    // paused: the adopted pod (no revision label) is not replaced by an update, only scaling acts
    sample.spec.updateStrategy = { paused: true };
    await h.client.create(sample);
    await expect
      .poll(
        async () => {
          const list = await pods(ns);
          const adopted = list.find((p) => nameOf(p) === 'sample-9m4hp');
          return [list.length, list.every(isReady), adopted?.metadata?.ownerReferences?.[0]?.name];
        },
        { timeout: 30_000 },
      )
      .toEqual([5, true, 'sample']);
    const before = await pods(ns);

    // the article's CloneSet change, as written
    await h.client.patch({ ...CS, namespace: ns, name: 'sample' }, fragment!, { type: 'merge' });
    await expect
      .poll(async () => (await pods(ns)).map(nameOf).sort(), { timeout: 30_000 })
      .toEqual(
        before
          .map(nameOf)
          .filter((n) => n !== 'sample-9m4hp')
          .sort(),
      );
    await holds(
      2_000,
      () => pods(ns),
      (now) =>
        expect(now.map(uidOf).sort()).toEqual(
          before
            .filter((p) => nameOf(p) !== 'sample-9m4hp')
            .map(uidOf)
            .sort(),
        ),
    );
    await expect
      .poll(
        async () => {
          const cs = await cloneSet(ns, 'sample');
          return [
            cs.spec.replicas,
            (cs.spec['scaleStrategy'] as { podsToDelete?: string[] } | undefined)?.podsToDelete ?? [],
            cs.status?.replicas,
          ];
        },
        { timeout: 15_000 },
      )
      .toEqual([4, [], 4]);
    expect((await events(ns, 'SuccessfulDelete')).map((e) => e.message)).toEqual([
      'succeed to delete pod sample-9m4hp',
    ]);
  });

  it('S1 §2.2.2.2 InPlaceIfPossible with env from an annotation: image, annotation, both → in place; an env value → recreate', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.2-in-place-env.yaml');
    await h.client.create(demoWith(ns, fragment!));
    const first = await settled(ns, 'cs-demo', 1);
    const pod = (await pods(ns))[0]!;
    expect(specOf(pod).containers.map((c) => [c.name, c.image])).toEqual([['app', 'app-image:v1']]);
    const container = () => templateOf(fragment!).spec.containers[0]!;
    const metaHash = (p: Pod) =>
      (
        JSON.parse(p.metadata?.annotations?.[RUNTIME_META] ?? '{"containers":[]}') as {
          containers: { name: string; hashes: { extractedEnvFromMetadataHash?: number } }[];
        }
      ).containers.find((c) => c.name === 'app')?.hashes.extractedEnvFromMetadataHash;
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 15_000 }).toBeDefined();

    /** Applies a template change and waits until the one pod is at the new revision, ready and Normal. */
    const step = async (template: Record<string, unknown>) => {
      const before = (await cloneSet(ns, 'cs-demo')).status!.updateRevision;
      await patch(ns, 'cs-demo', { spec: { template } });
      await expect
        .poll(async () => (await cloneSet(ns, 'cs-demo')).status!.updateRevision, { timeout: 10_000 })
        .not.toBe(before);
      const cs = await settled(ns, 'cs-demo', 1, 40_000);
      await expect.poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
      return { cs, pod: (await pods(ns))[0]! };
    };

    // 1. the image: in place, one restart
    const s1 = await step({ spec: { containers: [{ ...container(), image: 'app-image:v2' }] } });
    expect(uidOf(s1.pod)).toBe(uidOf(pod));
    expect(containerStatus(s1.pod, 'app')).toMatchObject({
      image: 'app-image:v2',
      restartCount: 1,
      ready: true,
    });
    const hash1 = metaHash(s1.pod);

    // 2. the annotation the env reads: in place, the container restarts with the new value
    const s2 = await step({ metadata: { annotations: { 'app-config': '... a new env value ...' } } });
    expect(uidOf(s2.pod)).toBe(uidOf(pod));
    expect(s2.pod.metadata!.annotations!['app-config']).toBe('... a new env value ...');
    expect(containerStatus(s2.pod, 'app')).toMatchObject({
      image: 'app-image:v2',
      restartCount: 2,
      ready: true,
    });
    expect(inPlaceState(s2.pod)).toMatchObject({
      revision: s2.cs.status!.updateRevision,
      updateEnvFromMetadata: true,
    });
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 10_000 }).not.toBe(hash1);
    const hash2 = metaHash((await pods(ns))[0]!);

    // 3. both at once: one in-place update, one restart, both take effect
    const s3 = await step({
      metadata: { annotations: { 'app-config': '... a third env value ...' } },
      spec: { containers: [{ ...container(), image: 'app-image:v3' }] },
    });
    expect(uidOf(s3.pod)).toBe(uidOf(pod));
    expect(containerStatus(s3.pod, 'app')).toMatchObject({
      image: 'app-image:v3',
      restartCount: 3,
      ready: true,
    });
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 10_000 }).not.toBe(hash2);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message).sort()).toEqual(
      [s1, s2, s3]
        .map(
          (s) => `successfully update pod ${nameOf(pod)} in-place(revision ${s.cs.status!.updateRevision})`,
        )
        .sort(),
    );

    // 4. the value of APP_NAME: not in-place-able, the pod is recreated
    const env = container().env!.map((e) => (e.name === 'APP_NAME' ? { ...e, value: 'yyy' } : e));
    const s4 = await step({ spec: { containers: [{ ...container(), image: 'app-image:v3', env }] } });
    expect(uidOf(s4.pod)).not.toBe(uidOf(pod));
    expect(containerStatus(s4.pod, 'app')).toMatchObject({ image: 'app-image:v3', restartCount: 0 });
    expect(specOf(s4.pod).containers[0]!.env).toContainEqual({ name: 'APP_NAME', value: 'yyy' });
    expect((await events(ns, 'SuccessfulUpdatePodReCreate')).map((e) => e.message)).toEqual([
      `successfully patch pod ${nameOf(pod)} specified-delete for update(revision ${s4.cs.status!.updateRevision})`,
    ]);
    expect(first.status!.updateRevision).not.toBe(s4.cs.status!.updateRevision);
  });

  it('S1 §2.2.2.3 image pre-download annotations: kept as written; with the gate off (the default) no ImagePullJob, the rollout completes', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.3-predownload-annotations.yaml');
    const created = await h.client.create<CloneSet>(demoWith(ns, fragment!));
    expect(created.metadata!.annotations).toMatchObject({
      'apps.kruise.io/image-predownload-parallelism': '5',
      'apps.kruise.io/image-predownload-min-updated-ready-pods': '2',
    });
    await settled(ns, 'cs-demo', 3);
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    await settled(ns, 'cs-demo', 3);
    const jobs = await h.client
      .list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: ns })
      .then((l) => l.items)
      .catch(() => []);
    expect(jobs).toEqual([]);
    expect(await events(ns, 'CreatedImagePullJob')).toEqual([]);
    expect((await cloneSet(ns, 'cs-demo')).metadata!.annotations).toMatchObject(
      created.metadata!.annotations!,
    );
  });

  it('S1 §2.2.2.4 container launch priority: sidecar (priority 10, env from app-config) first, then main; the state shows the batches', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.4-container-priority.yaml');
    // as written, the sidecar has no image: admission says so
    const err = (await h.client.create(demoWith(ns, fragment!)).catch((e: unknown) => e)) as {
      status?: number;
      message?: string;
    };
    expect(err.message).toMatch(/spec\.template\.spec\.containers\[0\]\.image: Required value/);
    // given an image, the article's CloneSet
    const cs = demoWith(ns, fragment!, (c) => {
      templateOf(c).spec.containers[0]!.image = 'sidecar-image:v1';
    });
    await h.client.create(cs);
    await settled(ns, 'cs-demo', 1);
    const pod = (await pods(ns))[0]!;
    const oldMainImageId = containerStatus(pod, 'main')!.imageID;
    await expect
      .poll(async () => (await pods(ns))[0]!.metadata?.annotations?.[RUNTIME_META], { timeout: 15_000 })
      .toBeDefined();

    // "update app-config and main's image": the sidecar is recreated first (env from annotation), then main
    const rec = await recordPods(h.client, ns);
    const containers = templateOf(cs).spec.containers.map((c) =>
      c.name === 'main' ? { ...c, image: 'main-image:v2' } : c,
    );
    await patch(ns, 'cs-demo', {
      spec: {
        template: { metadata: { annotations: { 'app-config': '... config v2 ...' } }, spec: { containers } },
      },
    });
    const after = await settled(ns, 'cs-demo', 1, 40_000);
    const rev = after.status!.updateRevision!;
    const seen = rec.of(uidOf(pod));
    const firstBatch = seen.find((s) => inPlaceState(s.pod)?.revision === rev);
    expect(firstBatch, 'the pod was never seen in its first in-place batch').toBeDefined();
    expect(inPlaceState(firstBatch!.pod)).toMatchObject({
      revision: rev,
      nextContainerImages: { main: 'main-image:v2' },
      preCheckBeforeNext: { containersRequiredReady: ['sidecar'] },
      containerBatchesRecord: [{ containers: ['sidecar'] }],
    });
    expect(specOf(firstBatch!.pod).containers.find((c) => c.name === 'main')!.image).toBe('main-image:v1');
    const sidecarBack = seen.find((s) => {
      const c = containerStatus(s.pod, 'sidecar');
      return c?.restartCount === 1 && c.ready;
    });
    const mainChanged = seen.find(
      (s) => specOf(s.pod).containers.find((c) => c.name === 'main')!.image === 'main-image:v2',
    );
    expect(sidecarBack).toBeDefined();
    expect(mainChanged).toBeDefined();
    expect(mainChanged!.at).toBeGreaterThanOrEqual(sidecarBack!.at);

    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).toBe(uidOf(pod));
    expect(containerStatus(now, 'sidecar')).toMatchObject({
      image: 'sidecar-image:v1',
      restartCount: 1,
      ready: true,
    });
    expect(containerStatus(now, 'main')).toMatchObject({
      image: 'main-image:v2',
      restartCount: 1,
      ready: true,
    });
    const state = inPlaceState(now)!;
    expect(state).toMatchObject({
      revision: rev,
      lastContainerStatuses: { main: { imageID: oldMainImageId } },
    });
    expect(state.containerBatchesRecord!.map((b) => b.containers)).toEqual([['sidecar'], ['main']]);
    expect(state.nextContainerImages).toBeUndefined();
    expect(state.preCheckBeforeNext).toBeUndefined();
  });

  it('S1 §2.2.2.4 gracePeriodSeconds 10: each pod is not ready first, and its image changes only ~10 s later', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.4-grace-period.yaml');
    await h.client.create(demoWith(ns, fragment!, (cs) => (cs.spec.replicas = 2)));
    await settled(ns, 'cs-demo', 2);
    const list = await pods(ns);
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    const after = await settled(ns, 'cs-demo', 2, 70_000);
    for (const p of list) {
      const seen = rec.of(uidOf(p));
      const notReady = seen.find((s) => conditionOf(s.pod, 'InPlaceUpdateReady')?.status === 'False');
      const waiting = seen.filter((s) => s.pod.metadata?.annotations?.[INPLACE_GRACE] !== undefined);
      const changed = seen.find((s) => specOf(s.pod).containers[0]!.image === 'nginx:mainline');
      expect(notReady, `${nameOf(p)} was never seen with InPlaceUpdateReady False`).toBeDefined();
      expect(waiting.length, `${nameOf(p)} was never seen waiting out its grace period`).toBeGreaterThan(0);
      expect(changed).toBeDefined();
      expect(specOf(notReady!.pod).containers[0]!.image).toBe('nginx:alpine');
      // while it waits: the revision label is new, the image is old, the pod is not ready
      for (const s of waiting) {
        expect(specOf(s.pod).containers[0]!.image).toBe('nginx:alpine');
        expect(s.pod.metadata!.labels![REVISION]).toBe(after.status!.updateRevision);
        expect(conditionOf(s.pod, 'Ready')?.status).toBe('False');
      }
      expect(JSON.parse(waiting[0]!.pod.metadata!.annotations![INPLACE_GRACE]!)).toMatchObject({
        revision: after.status!.updateRevision,
        containerImages: { nginx: 'nginx:mainline' },
        graceSeconds: 10,
      });
      expect(changed!.pod.metadata?.annotations?.[INPLACE_GRACE]).toBeUndefined();
      // the state's updateTimestamp has whole seconds: between 9 and ~11 s after the grace annotation was written
      expect(changed!.at - waiting[0]!.at).toBeGreaterThanOrEqual(8_900);
      expect(changed!.at - notReady!.at).toBeLessThan(15_000);
    }
    const now = await pods(ns);
    expect(now.map(uidOf).sort()).toEqual(list.map(uidOf).sort());
    for (const p of now)
      expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:mainline', restartCount: 1 });
  });

  it('S1 §2.2.2.5 partition 3 on the 5-pod `sample`: generation 2, 2 pods recreated at the new revision, the status of the article', async () => {
    const ns = await namespace();
    // the article's `sample` CloneSet (S1 §2.1.1), then the article's change (image nginx:mainline, partition 3)
    const base = seed('s1-2.1.1-sample-data.yaml');
    base.metadata = { ...base.metadata, name: 'sample', namespace: ns };
    await h.client.create(base);
    const first = await settled(ns, 'sample', 5, 60_000);
    expect(first.metadata!.generation).toBe(1);
    const before = await pods(ns);
    const [fragment] = article('s1-2.2.2.5-partition.yaml');
    await h.client.patch({ ...CS, namespace: ns, name: 'sample' }, fragment!, { type: 'merge' });
    await expect
      .poll(
        async () => {
          const cs = await cloneSet(ns, 'sample');
          const s = cs.status!;
          return {
            generation: cs.metadata!.generation,
            observedGeneration: s.observedGeneration,
            readyReplicas: s.readyReplicas,
            replicas: s.replicas,
            updatedReadyReplicas: s.updatedReadyReplicas,
            updatedReplicas: s.updatedReplicas,
          };
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual({
        generation: 2,
        observedGeneration: 2,
        readyReplicas: 5,
        replicas: 5,
        updatedReadyReplicas: 2,
        updatedReplicas: 2,
      });
    const s = (await cloneSet(ns, 'sample')).status!;
    expect(s.currentRevision).toBe(first.status!.updateRevision);
    expect(s.updateRevision).not.toBe(s.currentRevision);
    expect(s.updateRevision).toMatch(/^sample-[a-z0-9]+$/);
    await holds(
      3_000,
      () => pods(ns),
      (now) => {
        const byRev = (rev: string | undefined) => now.filter((p) => p.metadata!.labels![REVISION] === rev);
        expect(byRev(s.currentRevision)).toHaveLength(3);
        expect(byRev(s.updateRevision)).toHaveLength(2);
        // the three old pods are the original ones; the two new ones are new pods (ReCreate)
        expect(before.map(uidOf)).toEqual(expect.arrayContaining(byRev(s.currentRevision).map(uidOf)));
        for (const p of byRev(s.updateRevision)) {
          expect(before.map(uidOf)).not.toContain(uidOf(p));
          expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
        }
      },
    );
  });

  describe("S1 §2.3 lifecycle hooks (the two alternatives of the article), with the user's controller played by the test", () => {
    const [byFinalizer, byLabel] = article('s1-2.3-lifecycle-hooks.yaml') as [CloneSet, CloneSet];

    it('inPlaceUpdate by label: not hooked → Updating → Updated until the user hooks it → Normal; hooked → PreparingUpdate first', async () => {
      const ns = await namespace();
      const HOOK = 'example.io/block-unready';
      // the hook acts on in-place updates
      await h.client.create(
        demoWith(ns, byLabel, (cs) => {
          cs.spec.replicas = 2;
          cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
        }),
      );
      await settled(ns, 'cs-demo', 2);
      const list = await pods(ns);
      const rec = await recordPods(h.client, ns);
      // the user's controller: releases PreparingUpdate pods, hooks Updated pods again
      userController(ns, (p) => {
        const hooked = p.metadata!.labels?.[HOOK] === 'true';
        if (stateOf(p) === 'PreparingUpdate' && hooked) return { metadata: { labels: { [HOOK]: null } } };
        if (stateOf(p) === 'Updated' && !hooked) return { metadata: { labels: { [HOOK]: 'true' } } };
        return undefined;
      });
      // first update: the pods do not carry the hook label yet
      await setImage(ns, 'cs-demo', 'nginx:mainline');
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list) expect(rec.states(uidOf(p))).toEqual(['Normal', 'Updating', 'Updated', 'Normal']);
      // second update: now they do
      await setImage(ns, 'cs-demo', 'nginx:stable');
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list)
        expect(rec.states(uidOf(p))).toEqual([
          'Normal',
          'Updating',
          'Updated',
          'Normal',
          'PreparingUpdate',
          'Updating',
          'Updated',
          'Normal',
        ]);
      const now = await pods(ns);
      expect(now.map(uidOf).sort()).toEqual(list.map(uidOf).sort());
      for (const p of now) {
        expect(p.metadata!.labels![HOOK]).toBe('true');
        expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:stable', restartCount: 2 });
      }
    });

    it('preDelete + inPlaceUpdate by finalizer: an update waits in PreparingUpdate, a scale-in in PreparingDelete, until the user removes the finalizer', async () => {
      const ns = await namespace();
      const HOOK = 'example.io/unready-blocker';
      await h.client.create(
        demoWith(ns, byFinalizer, (cs) => {
          cs.spec.replicas = 2;
          cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
        }),
      );
      await settled(ns, 'cs-demo', 2);
      const list = await pods(ns);
      // the user's service registration: each pod gets the finalizer (it is "online")
      for (const p of list) await h.patchPod(ns, nameOf(p), { metadata: { finalizers: [HOOK] } }, 'merge');
      const rec = await recordPods(h.client, ns);
      // a hooked pod waits: nothing releases it yet
      await setImage(ns, 'cs-demo', 'nginx:mainline');
      let waiting: Pod | undefined;
      await expect
        .poll(
          async () => {
            waiting = (await pods(ns)).find((p) => stateOf(p) === 'PreparingUpdate');
            return waiting !== undefined;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      await holds(
        2_000,
        () => pods(ns),
        (now) => {
          expect(now.filter((p) => stateOf(p) === 'PreparingUpdate').map(uidOf)).toEqual([uidOf(waiting!)]);
          expect(now.every((p) => specOf(p).containers[0]!.image === 'nginx:alpine')).toBe(true);
        },
      );
      // the user's controller: takes pods offline (finalizer off) when they prepare, back online when Updated
      userController(ns, (p) => {
        const has = p.metadata!.finalizers?.includes(HOOK) ?? false;
        const st = stateOf(p);
        if ((st === 'PreparingUpdate' || st === 'PreparingDelete') && has)
          return { metadata: { finalizers: (p.metadata!.finalizers ?? []).filter((f) => f !== HOOK) } };
        if (st === 'Updated' && !has)
          return { metadata: { finalizers: [...(p.metadata!.finalizers ?? []), HOOK] } };
        return undefined;
      });
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list)
        expect(rec.states(uidOf(p))).toEqual(['Normal', 'PreparingUpdate', 'Updating', 'Updated', 'Normal']);
      // scale in: the pod goes through PreparingDelete, and is deleted once the user removed the finalizer
      await patch(ns, 'cs-demo', { spec: { replicas: 1 } });
      await settled(ns, 'cs-demo', 1);
      const left = (await pods(ns)).map(uidOf);
      const deleted = list.filter((p) => !left.includes(uidOf(p)));
      expect(deleted).toHaveLength(1);
      expect(rec.states(uidOf(deleted[0]!)).slice(-1)).toEqual(['PreparingDelete']);
      await expect
        .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
        .toEqual([`succeed to delete pod ${nameOf(deleted[0]!)}`]);
    });
  });

  it("S1 §2.3.3 template finalizer + initialing annotation, with the article's user controller: recreate, in-place update and scale-in all pass the hooks", async () => {
    const ns = await namespace();
    const HOOK = 'example.io/unready-blocker';
    const INIT = 'example.io/initialing';
    const [fragment] = article('s1-2.3.3-template-finalizers.yaml');
    await h.client.create(demoWith(ns, fragment!, (cs) => (cs.spec.replicas = 2)));
    const rec = await recordPods(h.client, ns);
    // the article's user controller, rule by rule
    userController(ns, (p) => {
      const st = stateOf(p);
      const fins = p.metadata!.finalizers ?? [];
      if (st === 'Normal' && p.metadata!.annotations?.[INIT] === 'true' && isReady(p))
        return { metadata: { annotations: { [INIT]: null } } };
      if ((st === 'PreparingDelete' || st === 'PreparingUpdate') && fins.includes(HOOK))
        return { metadata: { finalizers: fins.filter((f) => f !== HOOK) } };
      if (st === 'Updated' && !fins.includes(HOOK)) return { metadata: { finalizers: [...fins, HOOK] } };
      return undefined;
    });
    const online = (p: Pod) =>
      stateOf(p) === 'Normal' &&
      isReady(p) &&
      !p.metadata!.annotations?.[INIT] &&
      (p.metadata!.finalizers ?? []).includes(HOOK);
    const allOnline = (n: number) =>
      expect
        .poll(
          async () => {
            const now = await pods(ns);
            return now.length === n && now.every(online);
          },
          { timeout: 40_000, interval: 300 },
        )
        .toBe(true);
    await settled(ns, 'cs-demo', 2);
    await allOnline(2);
    const first = await pods(ns);

    // an image change with the default ReCreate: each old pod is held in PreparingDelete until the user lets it go
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    await settled(ns, 'cs-demo', 2, 60_000);
    await allOnline(2);
    const second = await pods(ns);
    for (const p of second) expect(first.map(uidOf)).not.toContain(uidOf(p));
    for (const p of first) expect(rec.states(uidOf(p))).toContain('PreparingDelete');

    // in place: PreparingUpdate → Updating → Updated → Normal, same pods
    await patch(ns, 'cs-demo', {
      spec: {
        updateStrategy: { type: 'InPlaceIfPossible' },
        template: {
          spec: {
            containers: [
              { ...templateOf(seed('s1-2-cs-demo.yaml')).spec.containers[0]!, image: 'nginx:stable' },
            ],
          },
        },
      },
    });
    await settled(ns, 'cs-demo', 2, 60_000);
    await allOnline(2);
    const third = await pods(ns);
    expect(third.map(uidOf).sort()).toEqual(second.map(uidOf).sort());
    for (const p of second) {
      const states = rec.states(uidOf(p));
      expect(states.slice(states.indexOf('PreparingUpdate'))).toEqual([
        'PreparingUpdate',
        'Updating',
        'Updated',
        'Normal',
      ]);
    }
    for (const p of third)
      expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:stable', restartCount: 1 });

    // scale to 0: both pods pass PreparingDelete and are gone
    await patch(ns, 'cs-demo', { spec: { replicas: 0 } });
    await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(0);
    for (const p of third) expect(rec.states(uidOf(p))).toContain('PreparingDelete');
  });
});
