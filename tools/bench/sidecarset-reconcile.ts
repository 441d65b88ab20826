// Issue 12: what one SidecarSet upgrade reconcile costs in process, as a function of the pods it matches. Every
// injected pod's event runs this reconcile over all the SidecarSet's pods, so its cost per pod is what creating N
// selected pods multiplies by N. No API server, no bus: the reconciler of libs/sidecarset over a MemoryCluster
// (libs/workload), its pods passed through the program's projection (SIDECARSET_POD_FIELDS, docs/adr/0060), all
// injected, Running, ready and at the SidecarSet's hash (the steady state between two pod events).
//   node --expose-gc --max-semi-space-size=256 --min-semi-space-size=256 \
//     --conditions=@regatta/source --import tsx tools/bench/sidecarset-reconcile.ts [pods...]
// Prints, per size: CPU time per reconcile (process.cpuUsage, user + system) and bytes allocated per reconcile (heap
// used after a batch minus before it, in a batch that ran no garbage collection: the young generation is fixed at
// 256 MiB so that it does not; a batch that collected is reported as such), and the heap the reconciles keep (after
// a full collection, before the first reconcile and after 30: the annotations read once per pod version, the
// revision). Nothing is a timed assertion.
import { execFileSync } from 'node:child_process';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { SIDECARSET_POD_FIELDS, projection } from '@regatta/bus';
import { EventRecorder, toRfc3339, type KubeObject } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { SidecarSetUpgradeReconciler } from '@regatta/sidecarset';
import { MemoryCluster } from '@regatta/workload';

const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const NAME = 'bench-upgrade';
const HASH = 'v5dx4wcf7w28z22b5v25zd2f7b54xx46b9c4v6cb4cxb8bfv7x69b4z47wvd4bdz';
const WITHOUT_IMAGE = '7zdxbc6cw6wf5z5bdd99449v4v78c8cb5b2xw5d8x2z99x94zv47d4c5x5f9w64b';
const gc = (globalThis as { gc?: () => void }).gc;

const sidecarSet = (): KubeObject =>
  ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: {
      name: NAME,
      uid: 'scs-uid',
      generation: 1,
      resourceVersion: '10',
      annotations: {
        'kruise.io/sidecarset-hash': HASH,
        'kruise.io/sidecarset-hash-without-image': WITHOUT_IMAGE,
      },
    },
    spec: {
      selector: { matchLabels: { 'bench-sidecar': 'yes' } },
      containers: [{ name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '999d'] }],
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: '10%' },
    },
  }) as KubeObject;

/** A pod as the webhook injects it and the kubelet runs it (the annotations as libs/sidecarset writes them). */
function pod(i: number): KubeObject {
  const entry = (hash: string) =>
    JSON.stringify({
      [NAME]: {
        updateTimestamp: '2026-12-04T08:00:00Z',
        hash,
        sidecarSetName: NAME,
        sidecarList: ['sidecar'],
        controllerRevision: `${NAME}-7c9f8d6b5`,
      },
    });
  const name = `bench-${i}`;
  const status = (n: string, image: string) => ({
    name: n,
    image,
    imageID: `docker.io/library/${image}@sha256:${'ab'.repeat(32)}`,
    ready: true,
    restartCount: 0,
    started: true,
    state: { running: { startedAt: '2026-12-04T08:00:01Z' } },
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'bench',
      uid: `uid-${i}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: toRfc3339(Date.UTC(2026, 11, 4, 8, 0, i % 60)),
      labels: { app: 'bench', 'bench-sidecar': 'yes', 'pod-template-hash': '5d8b7c9f4' },
      annotations: {
        'kruise.io/sidecarset-hash': entry(HASH),
        'kruise.io/sidecarset-hash-without-image': entry(WITHOUT_IMAGE),
        'kruise.io/sidecarset-injected-list': NAME,
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'bench-5d8b7c9f4',
          uid: 'rs-uid',
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: `node-${i % 10}`,
      containers: [
        { name: 'sidecar', image: 'busybox:1.36', env: [{ name: 'IS_INJECTED', value: 'true' }] },
        { name: 'main', image: 'nginx:1.27.3' },
      ],
    },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: '2026-12-04T08:00:02Z',
      })),
      containerStatuses: [status('sidecar', 'busybox:1.36'), status('main', 'nginx:1.27.3')],
    },
  } as KubeObject;
}

const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
/** Events are not what is measured: the recorder drops them before any correlation. */
class DroppingRecorder extends EventRecorder {
  override normal(): Promise<void> {
    return Promise.resolve();
  }
  override warning(): Promise<void> {
    return Promise.resolve();
  }
}
const recorder = new DroppingRecorder(
  { create: () => Promise.reject(new Error('no events')), patch: () => Promise.reject(new Error('no events')) },
  { component: 'bench', instance: 'bench' },
);

let collections = 0;
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] });

async function measure(n: number): Promise<string> {
  const c = new MemoryCluster();
  const project = projection(SIDECARSET_POD_FIELDS);
  c.add(sidecarSet(), ...Array.from({ length: n }, (_, i) => project(pod(i))));
  const reconciler = new SidecarSetUpgradeReconciler({
    client: c.writer,
    sidecarsets: c.reader('SidecarSet'),
    pods: c.reader('Pod'),
    revisions: c.reader('ControllerRevision'),
    controllerNamespace: 'kruise-system',
    expectations: new Expectations(),
    recorder,
  });
  const once = () => reconciler.reconcile({ name: NAME }, ctx);
  const writesBefore = c.writes.length;
  const heapAfterCollection = () => {
    gc?.();
    gc?.();
    return getHeapStatistics().used_heap_size;
  };
  const unreconciled = heapAfterCollection();
  for (let i = 0; i < 30; i++) await once(); // revision, first status, JIT
  const keptPerPod = (heapAfterCollection() - unreconciled) / n; // what reconciles keep (the parsed annotations)
  const status = (c.get('SidecarSet', undefined, NAME) as { status?: { matchedPods?: number } }).status;
  if (status?.matchedPods !== n) throw new Error(`matched ${status?.matchedPods} of ${n} pods`);
  const warmWrites = c.writes.length - writesBefore;
  // CPU per reconcile: the median of three runs
  const rounds = Math.max(50, Math.round(300_000 / n));
  const runs: { cpuMs: number; wall: number }[] = [];
  for (let r = 0; r < 3; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) await once();
    const cpu = process.cpuUsage(cpu0);
    runs.push({ cpuMs: (cpu.user + cpu.system) / 1000 / rounds, wall: (performance.now() - t0) / rounds });
  }
  runs.sort((a, b) => a.cpuMs - b.cpuMs);
  const { cpuMs, wall } = runs[1] ?? { cpuMs: NaN, wall: NaN };
  // bytes allocated per reconcile, in batches without a collection
  const batch = Math.max(5, Math.round(6_000 / n));
  const perReconcile: number[] = [];
  let collected = 0;
  for (let b = 0; b < 5; b++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 20)); // the observer's entries of that collection arrive first
    const gcs = collections;
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < batch; i++) await once();
    const after = getHeapStatistics().used_heap_size;
    await new Promise((r) => setTimeout(r, 20));
    if (collections !== gcs) collected++;
    else perReconcile.push((after - before) / batch);
  }
  perReconcile.sort((a, b) => a - b);
  const median = perReconcile[Math.floor(perReconcile.length / 2)];
  const alloc =
    median === undefined ? 'n/a (every batch collected)' : `${(median / 1024).toFixed(1)} KiB`.padStart(10);
  const perPod = median === undefined ? '' : `${(median / n).toFixed(0)} B/pod`;
  const writes = c.writes.length - writesBefore - warmWrites;
  return `${String(n).padStart(6)} pods  3 × ${rounds} reconciles: CPU ${cpuMs.toFixed(3)} ms (${((cpuMs * 1000) / n).toFixed(2)} µs/pod), wall ${wall.toFixed(3)} ms; allocated ${alloc} per reconcile (${perPod}; ${perReconcile.length} batches of ${batch}, ${collected} collected); writes while measured ${writes}; heap kept by the reconciles ${keptPerPod.toFixed(0)} B/pod`;
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
  console.log(`SidecarSet upgrade reconcile, in process; ${uptime()}`);
  for (const n of SIZES.length > 0 ? SIZES : [300, 3000]) console.log(await measure(n));
  console.log(`after: ${uptime()}`);
}

await main();
