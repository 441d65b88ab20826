// The measured part of one side of a rollout benchmark, the same for every workload (Regatta's and native):
// patch the image, follow the workload until its status says done, and take CPU, memory, the most pods
// unavailable and when each pod was done over that window.
import type { Pod } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { cpuWindow, nowMs, sleep } from './common.js';
import { procStatusBytes, rssSampler } from './process-memory.js';
import { IMAGE_NEW, TAIL_MS, type PhaseResult } from './rollout-config.js';
import type { Follower, PodTracker } from './rollout-watch.js';

/** What every phase of one run shares. */
export interface PhaseEnv {
  client: KubeClient;
  /** The pods of the phase's namespace. */
  tracker: PodTracker;
  log: (line: string) => void;
  replicas: number;
  timeoutS: number;
}

/** Processes of a phase left out of its memory log line (they are the benchmark's, or the store's). */
const NOT_CONTROLLERS = new Set([
  'bench orchestrator',
  'node simulator',
  'kube-apiserver',
  'etcd',
  'nats-server',
]);
const mib = (b: number) => (b / 2 ** 20).toFixed(0);

/** VmRSS of each process now, bytes. */
export const rssNow = (pids: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, procStatusBytes(pid, 'VmRSS')]));

/** The measured part of a phase, the same for both sides. */
export async function measurePhase<T extends KubeObject>(
  env: PhaseEnv,
  o: {
    name: string;
    label: string;
    batch: number;
    boundS: number;
    ns: string;
    follower: Follower<T>;
    pids: Record<string, number>;
    setupS: number;
    idleRss: Record<string, number>;
    patch: () => Promise<number>;
    done: (obj: T, generation: number) => boolean;
    describe: (obj: T | undefined) => string;
  },
): Promise<PhaseResult> {
  const { client, tracker, log, replicas: n, timeoutS } = env;
  const { boundS } = o;
  const before = (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: o.ns })).items;
  const uids = new Set(before.map((p) => p.metadata?.uid));
  const loadedRss = rssNow(o.pids);
  log(
    `${o.name}: RSS idle → with ${n} pods: ` +
      Object.keys(o.pids)
        .filter((k) => !NOT_CONTROLLERS.has(k))
        .map((k) => {
          const [idle, loaded] = [o.idleRss[k] ?? NaN, loadedRss[k] ?? NaN];
          return `${k} ${mib(idle)} → ${mib(loaded)} MiB (${((loaded - idle) / n / 1024).toFixed(0)} KiB/pod)`;
        })
        .join(', '),
  );
  const cpu = cpuWindow(o.pids);
  const rss = rssSampler(o.pids);
  const fromMs = Date.now();
  tracker.begin();
  const t0 = nowMs();
  const progress = setInterval(
    () =>
      log(
        `${o.name}: ${tracker.doneCount}/${n} pods new and Ready, ${n - tracker.availableCount} unavailable`,
      ),
    10_000,
  );
  let at: number | undefined;
  let rssPeak: Record<string, number>;
  try {
    const generation = await o.patch();
    at = await o.follower.until((obj) => o.done(obj, generation), timeoutS * 1000);
  } finally {
    clearInterval(progress);
    rssPeak = rss.end();
  }
  const doneMs = Date.now();
  const cpuW = cpu.end();
  const hwm = Object.fromEntries(
    Object.entries(o.pids).map(([k, pid]) => [k, procStatusBytes(pid, 'VmHWM')]),
  );
  const durationS = at === undefined ? undefined : (at - t0) / 1000;
  log(
    `${o.name}: peak RSS during the rollout (VmHWM): ` +
      Object.keys(o.pids)
        .filter((k) => !NOT_CONTROLLERS.has(k))
        .map((k) => `${k} ${mib(rssPeak[k] ?? NaN)} MiB (${mib(hwm[k] ?? NaN)} MiB)`)
        .join(', '),
  );
  log(
    durationS === undefined
      ? `${o.name}: NOT done after ${timeoutS} s: ${o.describe(o.follower.latest)}`
      : `${o.name}: done in ${durationS.toFixed(1)} s (bound ${boundS} s)`,
  );
  await sleep(TAIL_MS);
  const toMs = Date.now();
  const doneAt = [...tracker.doneAt].sort((a, b) => a - b);
  const after = (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: o.ns })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
  const notes: string[] = [];
  const kept = after.filter((p) => uids.has(p.metadata?.uid)).length;
  const newImage = after.filter((p) => p.spec?.containers?.[0]?.image === IMAGE_NEW).length;
  const restarts = new Map<number, number>();
  for (const p of after) {
    const rc = p.status?.containerStatuses?.[0]?.restartCount ?? 0;
    restarts.set(rc, (restarts.get(rc) ?? 0) + 1);
  }
  notes.push(
    `${after.length} pods at the end, ${newImage} at ${IMAGE_NEW}, ${kept} kept their UID; ` +
      `restartCount: ${[...restarts].map(([rc, k]) => `${k}×${rc}`).join(', ')}`,
  );
  return {
    name: o.name,
    label: o.label,
    batch: o.batch,
    boundS,
    setupS: o.setupS,
    durationS,
    timeoutS,
    podsDoneS: doneAt.length >= n ? (doneAt[n - 1] ?? NaN) / 1000 : undefined,
    podDoneS: doneAt.map((x) => x / 1000),
    maxUnavailable: tracker.maxUnavailable,
    finalStatus: o.describe(o.follower.latest),
    window: { fromMs, doneMs, toMs },
    cpuS: Object.fromEntries(
      Object.entries(cpuW.percent).map(([k, pct]) => [k, (pct * cpuW.elapsedS) / 100]),
    ),
    rssPeak,
    hwm,
    idleRss: o.idleRss,
    loadedRss,
    notes,
  };
}
