import {
  checkPodUpdateCompleted,
  envFromMetadataHash,
  formatInPlaceUpdateState,
  INPLACE_UPDATE_STATE_KEY,
  readRuntimeContainersMeta,
  RUNTIME_CONTAINERS_META_KEY,
  type RuntimeContainerMeta,
} from '@regatta/inplace-update';
import { describe, expect, it } from 'vitest';
import {
  containersMetaToWrite,
  expectedEnvHash,
  planContainerMeta,
  SIDECARSET_HASH_ANNOTATION,
  startedEnvHash,
  watchedByKruiseDaemon,
} from './container-meta.js';
import { resolveMetadataEnv } from './downward-env.js';
import { DEFAULT_KRUISE_DAEMON } from './options.js';
import type { ContainerRuntime, PodRuntime, RunState } from './runtime-state.js';
import { cs, pod, PodSim } from './test-support.js';
import type { Container, OwnerReference, Pod } from './types.js';

const app: Container = {
  name: 'app',
  image: 'nginx:1.25',
  env: [{ name: 'K', valueFrom: { fieldRef: { fieldPath: "metadata.labels['k']" } } }],
};
const side: Container = { name: 'side', image: 'busybox:1.36', command: ['sleep', 'infinity'] };
const H = (c: Container, labels: Record<string, string>) =>
  envFromMetadataHash({ name: c.name, env: c.env ?? null }, { labels });
const owner = (apiVersion: string, controller = true): OwnerReference => ({
  apiVersion,
  kind: 'CloneSet',
  name: 'cs',
  uid: 'owner-uid',
  controller,
});

describe('watchedByKruiseDaemon', () => {
  it.each<[string, Partial<Pod['metadata']>, boolean]>([
    ['a pod of no workload', {}, false],
    [
      'controlled by an apps.kruise.io workload',
      { ownerReferences: [owner('apps.kruise.io/v1alpha1')] },
      true,
    ],
    ['any version of the group', { ownerReferences: [owner('apps.kruise.io/v1beta1')] }, true],
    ['owned but not controlled', { ownerReferences: [owner('apps.kruise.io/v1alpha1', false)] }, false],
    ['controlled by a ReplicaSet', { ownerReferences: [owner('apps/v1')] }, false],
    ['a look-alike group', { ownerReferences: [owner('apps.kruise.io.example.com/v1')] }, false],
    ['injected by a SidecarSet', { annotations: { [SIDECARSET_HASH_ANNOTATION]: '{}' } }, true],
  ])('%s → %s', (_, meta, want) => {
    expect(watchedByKruiseDaemon(pod({ containers: [side] }, meta))).toBe(want);
  });
});

describe('startedEnvHash', () => {
  const field = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
  it.each<[string, Container]>([
    ['no env', side],
    ['a label env', app],
    [
      'labels and annotations, unsorted names',
      {
        name: 'c',
        env: [
          field('Z', "metadata.annotations['a']"),
          field('A', "metadata.labels['k']"),
          field('M', 'metadata.name'),
        ],
      },
    ],
    [
      'a SidecarSet version env and a literal are not part of the hash',
      {
        name: 'c',
        env: [
          field('SIDECARSET_VERSION', "metadata.annotations['v']"),
          { name: 'LIT', value: 'x' },
          field('K', "metadata.labels['k']"),
        ],
      },
    ],
    ['a key the pod does not have', { name: 'c', env: [field('K', "metadata.labels['missing']")] }],
  ])('equals the expected hash of the metadata it was started with: %s', (_, c) => {
    const meta = { labels: { k: 'v' }, annotations: { a: 'x', v: '1' } };
    expect(startedEnvHash(c, resolveMetadataEnv(c, meta))).toBe(expectedEnvHash(c, meta));
  });

  it('differs once a referenced label changes, not for other labels', () => {
    const started = startedEnvHash(app, { K: 'v1' });
    expect(expectedEnvHash(app, { labels: { k: 'v2' } })).not.toBe(started);
    expect(expectedEnvHash(app, { labels: { k: 'v1', other: 'x' } })).toBe(started);
  });
});

const running: RunState = {
  kind: 'running',
  startedAt: 0,
  readyAt: 0,
  endAt: null,
  exitCode: 0,
  killed: false,
};
const creating: RunState = { kind: 'waiting', reason: 'ContainerCreating', until: 5, pulling: true };

function ctr(
  name: string,
  containerID: string,
  state: RunState,
  metadataEnv: Record<string, string> = {},
  restartCount = 0,
): ContainerRuntime {
  return {
    name,
    init: false,
    sidecar: false,
    target: 'img',
    image: 'img',
    imageID: 'img-id',
    containerID,
    restartCount,
    metadataEnv,
    state,
    lastTerminated: null,
  };
}

const runtimeOf = (containers: ContainerRuntime[]): PodRuntime => ({
  uid: 'uid-1',
  podIP: '10.0.0.2',
  hostIP: '10.0.0.1',
  startTime: 0,
  initContainers: [],
  containers,
  initialized: true,
  deletion: null,
  terminal: false,
});

const entry = (
  name: string,
  containerID: string,
  extracted?: number,
  restartCount = 0,
): RuntimeContainerMeta => ({
  name,
  containerID,
  restartCount,
  hashes: { plainHash: 0, ...(extracted !== undefined ? { extractedEnvFromMetadataHash: extracted } : {}) },
});

interface PlanCase {
  name: string;
  labels: Record<string, string>;
  inPlaceUpdateReady?: 'True' | 'False';
  containers: ContainerRuntime[];
  previous?: RuntimeContainerMeta[];
  envFromMetadata?: boolean;
  meta: RuntimeContainerMeta[];
  restart: string[];
}

const v1 = { k: 'v1' };
const v2 = { k: 'v2' };
const sideHash = H(side, {});

describe('planContainerMeta', () => {
  const cases: PlanCase[] = [
    {
      name: 'new running containers are reported with the hash of what they were started with',
      labels: v1,
      containers: [ctr('app', 'a1', running, { K: 'v1' }), ctr('side', 's1', running)],
      meta: [entry('app', 'a1', H(app, v1)), entry('side', 's1', sideHash)],
      restart: [],
    },
    {
      name: 'a referenced label changed while InPlaceUpdateReady is False: that container (only) restarts',
      labels: v2,
      inPlaceUpdateReady: 'False',
      containers: [ctr('app', 'a1', running, { K: 'v1' }), ctr('side', 's1', running)],
      meta: [entry('app', 'a1', H(app, v1)), entry('side', 's1', sideHash)],
      restart: ['app'],
    },
    {
      name: 'the same change without the condition is reported, nothing restarts',
      labels: v2,
      containers: [ctr('app', 'a1', running, { K: 'v1' })],
      meta: [entry('app', 'a1', H(app, v1))],
      restart: [],
    },
    {
      name: 'the same change with InPlaceUpdateReady True: nothing restarts',
      labels: v2,
      inPlaceUpdateReady: 'True',
      containers: [ctr('app', 'a1', running, { K: 'v1' })],
      meta: [entry('app', 'a1', H(app, v1))],
      restart: [],
    },
    {
      name: 'an entry is kept while the container ID is the same: its hash decides',
      labels: v2,
      inPlaceUpdateReady: 'False',
      containers: [ctr('app', 'a1', running, { K: 'v2' })],
      previous: [entry('app', 'a1', H(app, v1))],
      meta: [entry('app', 'a1', H(app, v1))],
      restart: ['app'],
    },
    {
      name: 'a new container ID gets a new entry with its restart count',
      labels: v2,
      inPlaceUpdateReady: 'False',
      containers: [ctr('app', 'a2', running, { K: 'v2' }, 1)],
      previous: [entry('app', 'a1', H(app, v1))],
      meta: [entry('app', 'a2', H(app, v2), 1)],
      restart: [],
    },
    {
      name: 'a killed container being recreated keeps its entry and is not killed again',
      labels: v2,
      inPlaceUpdateReady: 'False',
      containers: [ctr('app', 'a1', creating, { K: 'v1' })],
      previous: [entry('app', 'a1', H(app, v1))],
      meta: [entry('app', 'a1', H(app, v1))],
      restart: [],
    },
    {
      name: 'a container that is not running has no env hash until it runs',
      labels: v1,
      containers: [ctr('app', 'a1', { kind: 'backoff', until: 5, message: '' }, { K: 'v1' })],
      meta: [entry('app', 'a1')],
      restart: [],
    },
    {
      name: 'an entry without an env hash gets one once its container runs',
      labels: v1,
      containers: [ctr('app', 'a1', running, { K: 'v1' })],
      previous: [entry('app', 'a1')],
      meta: [entry('app', 'a1', H(app, v1))],
      restart: [],
    },
    {
      name: 'containers never created are not reported',
      labels: v1,
      containers: [ctr('app', '', creating), ctr('side', 's1', running)],
      meta: [entry('side', 's1', sideHash)],
      restart: [],
    },
    {
      name: 'a container without label/annotation env never restarts for a label change',
      labels: v2,
      inPlaceUpdateReady: 'False',
      containers: [ctr('side', 's1', running)],
      previous: [entry('side', 's1', sideHash)],
      meta: [entry('side', 's1', sideHash)],
      restart: [],
    },
    {
      name: 'gate InPlaceUpdateEnvFromMetadata off: IDs only, nothing restarts',
      labels: v2,
      inPlaceUpdateReady: 'False',
      envFromMetadata: false,
      containers: [ctr('app', 'a1', running, { K: 'v1' })],
      meta: [entry('app', 'a1')],
      restart: [],
    },
  ];
  it.each(cases)('$name', (c) => {
    const p = pod({ containers: [app, side] }, { labels: c.labels });
    if (c.inPlaceUpdateReady)
      p.status = { conditions: [{ type: 'InPlaceUpdateReady', status: c.inPlaceUpdateReady }] };
    const plan = planContainerMeta(p, runtimeOf(c.containers), c.previous, c.envFromMetadata ?? true);
    expect(plan).toEqual({ meta: c.meta, restart: c.restart });
  });
});

describe('containersMetaToWrite', () => {
  const meta = [entry('app', 'a1', 7)];
  it.each<[string, RuntimeContainerMeta[] | undefined, RuntimeContainerMeta[], boolean]>([
    ['nothing reported yet', undefined, meta, true],
    ['the same content', [entry('app', 'a1', 7)], meta, false],
    ['a new container ID', [entry('app', 'a0', 7)], meta, true],
    ['an env hash added', [entry('app', 'a1')], meta, true],
    ['an empty list replaces nothing', undefined, [], true],
  ])('%s → write: %s', (_, previous, next, write) => {
    const value = containersMetaToWrite(previous, next);
    expect(value !== undefined).toBe(write);
    if (value !== undefined)
      expect(
        readRuntimeContainersMeta({ metadata: { annotations: { [RUNTIME_CONTAINERS_META_KEY]: value } } }),
      ).toEqual(next);
  });
});

describe('kruise-daemon with the kubelet (in-place update of env from metadata)', () => {
  const kruisePod = (labels: Record<string, string>, extra: Partial<Pod['metadata']> = {}) =>
    pod(
      { containers: [structuredClone(app), structuredClone(side)] },
      { labels, ownerReferences: [owner('apps.kruise.io/v1alpha1')], ...extra },
    );
  const reported = (s: PodSim) => {
    const raw = s.pod.metadata.annotations?.[RUNTIME_CONTAINERS_META_KEY];
    return raw === undefined
      ? undefined
      : (JSON.parse(raw) as { containers: RuntimeContainerMeta[] }).containers;
  };
  // the pod as the controller reads it from the API server: the same JSON, typed the controller's way
  const forCompletion = (p: Pod) =>
    JSON.parse(JSON.stringify(p)) as Parameters<typeof checkPodUpdateCompleted>[0];

  it('restarts the container whose label changed once, and reports what it then runs', () => {
    const s = new PodSim(kruisePod({ k: 'v1' }));
    s.daemon = DEFAULT_KRUISE_DAEMON;
    s.at(0);
    expect(reported(s)).toBeUndefined(); // no container created yet
    const before = s.at(1000);
    const appID = cs(before, 'app')?.containerID ?? '';
    const sideBefore = cs(before, 'side');
    expect(reported(s)).toEqual([
      entry('app', appID, H(app, v1)),
      entry('side', sideBefore?.containerID ?? '', sideHash),
    ]);

    // the controller: InPlaceUpdateReady False, then the new label and the state
    s.setCondition('InPlaceUpdateReady', 'False');
    s.at(1500);
    expect(cs(s.pod.status ?? {}, 'app')?.restartCount).toBe(0);
    s.setMetadata({
      labels: v2,
      annotations: {
        [INPLACE_UPDATE_STATE_KEY]: formatInPlaceUpdateState({
          revision: 'r2',
          updateTimestamp: '2026-01-01T00:00:02Z',
          updateEnvFromMetadata: true,
        }),
      },
    });
    const during = s.at(2000);
    const restarted = cs(during, 'app');
    expect(restarted).toMatchObject({ restartCount: 1, ready: false, image: 'nginx:1.25' });
    expect(restarted?.containerID).not.toBe(appID);
    expect(restarted?.lastState?.terminated).toMatchObject({ exitCode: 0, containerID: appID });
    expect(cs(during, 'side')).toEqual(sideBefore);
    expect(s.events('Killing')).toEqual([
      `Killing: Stopping containerID ${appID} by container meta restarter`,
    ]);
    expect(reported(s)).toEqual([
      entry('app', restarted?.containerID ?? '', H(app, v2), 1),
      entry('side', sideBefore?.containerID ?? '', sideHash),
    ]);
    expect(s.rt?.containers.find((c) => c.name === 'app')?.metadataEnv).toEqual({ K: 'v2' });
    expect(checkPodUpdateCompleted(forCompletion(s.pod))).toEqual({ completed: true });

    // ready after containerRestartMs; no further restart while the condition stays False
    const after = s.at(2500);
    expect(cs(after, 'app')).toMatchObject({ restartCount: 1, ready: true });
    s.at(5000);
    expect(cs(s.pod.status ?? {}, 'app')?.restartCount).toBe(1);
    expect(s.events('Killing')).toHaveLength(1);
  });

  it('does nothing for pods of other workloads, or with gate DaemonWatchingPod off', () => {
    for (const [p, gates] of [
      [pod({ containers: [structuredClone(app)] }, { labels: v1 }), DEFAULT_KRUISE_DAEMON],
      [kruisePod(v1), { ...DEFAULT_KRUISE_DAEMON, daemonWatchingPod: false }],
    ] as const) {
      const s = new PodSim(p);
      s.daemon = gates;
      s.at(0);
      s.at(1000);
      s.setCondition('InPlaceUpdateReady', 'False');
      s.setMetadata({ labels: v2 });
      s.at(2000);
      expect(reported(s)).toBeUndefined();
      expect(cs(s.pod.status ?? {}, 'app')?.restartCount).toBe(0);
    }
  });

  it('a restartPolicy Never container it kills stops for good', () => {
    const p = kruisePod(v1);
    p.spec = { ...p.spec, restartPolicy: 'Never' };
    const s = new PodSim(p);
    s.daemon = DEFAULT_KRUISE_DAEMON;
    s.at(0);
    s.at(1000);
    s.setCondition('InPlaceUpdateReady', 'False');
    s.setMetadata({ labels: v2 });
    const st = s.at(2000);
    expect(cs(st, 'app')).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 0 } } });
    expect(cs(st, 'side')?.state?.running).toBeDefined();
  });

  it('a restarted container whose image must be pulled first is reported with its old ID until it runs', () => {
    const p = kruisePod(v1);
    p.spec = {
      ...p.spec,
      containers: [{ ...structuredClone(app), imagePullPolicy: 'Always' }, structuredClone(side)],
    };
    const s = new PodSim(p);
    s.daemon = DEFAULT_KRUISE_DAEMON;
    s.at(0);
    const appID = cs(s.at(1000), 'app')?.containerID ?? '';
    s.setCondition('InPlaceUpdateReady', 'False');
    s.setMetadata({ labels: v2 });
    s.at(2000);
    expect(cs(s.pod.status ?? {}, 'app')?.state?.waiting?.reason).toBe('ContainerCreating');
    expect(reported(s)?.[0]).toEqual(entry('app', appID, H(app, v1)));
    s.at(2100);
    expect(s.events('Killing')).toHaveLength(1);
    const st = s.at(2300); // imagePullMs later
    expect(cs(st, 'app')?.restartCount).toBe(1);
    expect(reported(s)?.[0]).toEqual(entry('app', cs(st, 'app')?.containerID ?? '', H(app, v2), 1));
  });
});
