// ContainerRecreateRequests end to end on simulated nodes: the manager program (its webhooks read the pod), one
// node agent per node with the recreate duty (CRI RuntimeService of the simulated kubelet), the watcher. Scenarios of
// upstream's e2e (test/e2e/apps/v1alpha1/containerrecreate.go: recreate simple containers, unready grace and
// minStartedSeconds, ordered recreation, pod gone) plus the seed's crr-demo.yaml, admission refusals with field
// paths, and the agent killed -9 in the middle of a recreation.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContainerRecreateRequest, Pod } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import type { ServingProgram } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';
import { testNodeTaint, testNodeToleration, useScenarioLayer } from '@regatta/testing';

const SEED = fileURLToPath(
  new URL('../../../libs/api/src/containerrecreaterequest/fixtures/crr-demo.yaml', import.meta.url),
);
const CRR = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest' } as const;
type Crr = ContainerRecreateRequest & KubeObject;
type P = Pod & KubeObject;

let sim: NodeSimulator | undefined;
let socketDir = '';
const agents = new Map<string, ServingProgram>();
const layer = useScenarioLayer({
  short: 'crr',
  lease: 'crr',
  scopeLabel: 'regatta-test-crr',
  timeoutMs: 240_000,
  controller: { app: 'containerrecreaterequest', webhooks: true },
  async start(l) {
    socketDir = await mkdtemp(join(tmpdir(), 'regatta-crr-'));
    sim = await NodeSimulator.start({
      kubeconfig: l.kubeconfig,
      nodes: 2,
      namePrefix: `crr-${l.id}-`,
      taints: [testNodeTaint(`crr-${l.id}`)],
      removeNodesOnStop: true,
      storageClass: '',
      criSocketDir: socketDir,
      timings: { podStartMs: 300, containerRestartMs: 300, imagePullMs: 100, plegRelistMs: 300 },
    });
    for (const node of sim.nodeNames) await startAgent(node, 'a');
  },
});

async function startAgent(node: string, instance: string): Promise<void> {
  agents.set(
    node,
    await layer.startProgram('imagepull-agent', `${node}-${instance}`, {
      NODE_NAME: node,
      CRI_SOCKET: sim!.criSocket(node)!,
      REGATTA_NODE_AGENT_DUTIES: 'containerrecreate',
      LOG_LEVEL: 'debug',
    }),
  );
}

afterAll(async () => {
  await sim?.stop();
  if (socketDir) await rm(socketDir, { recursive: true, force: true });
});

const node = (i = 0) => sim!.nodeNames[i]!;

async function runningPod(ns: string, name: string, spec: Record<string, unknown> = {}): Promise<P> {
  await layer.client.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: {
      nodeName: node(),
      terminationGracePeriodSeconds: 5,
      tolerations: [testNodeToleration(`crr-${layer.id}`)],
      containers: [
        { name: 'app', image: 'nginx:alpine' },
        { name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '3600'] },
      ],
      ...spec,
    },
  });
  let pod: P | undefined;
  await expect
    .poll(
      async () => {
        pod = await layer.client.get<P>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name });
        return pod.status?.containerStatuses?.every((c) => c.ready) && pod.status?.phase === 'Running';
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return pod!;
}

const getCrr = (ns: string, name: string) => layer.client.get<Crr>({ ...CRR, namespace: ns, name });
const getPod = (ns: string, name: string) =>
  layer.client.get<P>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name });
const cs = (p: P, name: string) => p.status?.containerStatuses?.find((c) => c.name === name);

async function completed(ns: string, name: string, timeout = 60_000): Promise<Crr> {
  await expect
    .poll(async () => (await getCrr(ns, name)).status?.phase, { timeout, interval: 250 })
    .toBe('Completed');
  return getCrr(ns, name);
}

function crr(ns: string, name: string, spec: Record<string, unknown>): Crr {
  return { ...CRR, metadata: { name, namespace: ns }, spec: spec as never };
}

describe('ContainerRecreateRequest on simulated nodes', () => {
  it('the seed’s crr-demo.yaml applies unchanged (podName set) and recreates both containers: unready first, minStartedSeconds, TTL kept', async () => {
    const ns = await layer.namespace();
    const before = await runningPod(ns, 'pod-name', {
      readinessGates: [{ conditionType: 'KruisePodReady' }],
    });
    const seed = parse(readFileSync(SEED, 'utf8')) as Crr;
    const t0 = Date.now();
    await layer.client.create({ ...seed, metadata: { ...seed.metadata, namespace: ns } });
    // admission added what the pod says
    const admitted = await getCrr(ns, 'crr-dmo');
    expect(admitted.metadata?.labels).toMatchObject({
      'crr.apps.kruise.io/node-name': node(),
      'crr.apps.kruise.io/pod-uid': before.metadata?.uid,
    });
    expect(admitted.spec?.containers.map((c) => c.statusContext?.containerID)).toEqual([
      cs(before, 'app')?.containerID,
      cs(before, 'sidecar')?.containerID,
    ]);
    // the pod is held not ready (its KruisePodReady condition names the request) before any container stops
    await expect
      .poll(
        async () =>
          (await getPod(ns, 'pod-name')).status?.conditions?.find((c) => c.type === 'KruisePodReady')
            ?.message ?? '',
        { timeout: 20_000, interval: 200 },
      )
      .toContain(`"key":"${ns}/crr-dmo"`);
    expect(cs(await getPod(ns, 'pod-name'), 'app')?.containerID).toBe(cs(before, 'app')?.containerID);

    const done = await completed(ns, 'crr-dmo', 90_000);
    const took = Date.now() - t0;
    expect(done.status?.containerRecreateStates).toEqual([
      { name: 'app', phase: 'Succeeded', isKilled: true },
      { name: 'sidecar', phase: 'Succeeded', isKilled: true },
    ]);
    // unreadyGracePeriodSeconds 3 + minStartedSeconds 10
    expect(took).toBeGreaterThan(13_000);
    const after = await getPod(ns, 'pod-name');
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    for (const c of ['app', 'sidecar']) {
      expect(cs(after, c)?.containerID).not.toBe(cs(before, c)?.containerID);
      expect(cs(after, c)?.restartCount).toBe((cs(before, c)?.restartCount ?? 0) + 1);
    }
    // released: the pod is ready again, the finalizer and the active label gone; the TTL (1800 s) keeps the request
    await expect
      .poll(
        async () =>
          (await getPod(ns, 'pod-name')).status?.conditions?.find((c) => c.type === 'KruisePodReady')?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('True');
    await expect
      .poll(
        async () => {
          const c = await getCrr(ns, 'crr-dmo');
          return [c.metadata?.finalizers ?? [], c.metadata?.labels?.['crr.apps.kruise.io/active']];
        },
        { timeout: 20_000 },
      )
      .toEqual([[], undefined]);
  });

  it('recreates one container of several, the other keeps its ID; ttlSecondsAfterFinished deletes the request', async () => {
    const ns = await layer.namespace();
    const before = await runningPod(ns, 'simple');
    await layer.client.create(
      crr(ns, 'one', { podName: 'simple', containers: [{ name: 'app' }], ttlSecondsAfterFinished: 3 }),
    );
    const done = await completed(ns, 'one');
    expect(done.status?.containerRecreateStates).toEqual([
      { name: 'app', phase: 'Succeeded', isKilled: true },
    ]);
    const after = await getPod(ns, 'simple');
    expect(cs(after, 'app')?.containerID).not.toBe(cs(before, 'app')?.containerID);
    expect(cs(after, 'sidecar')?.containerID).toBe(cs(before, 'sidecar')?.containerID);
    await expect
      .poll(() => layer.client.getOrUndefined<Crr>({ ...CRR, namespace: ns, name: 'one' }), {
        timeout: 20_000,
      })
      .toBeUndefined();
  });

  it('orderedRecreate: the second container stops only after the first one runs again', async () => {
    const ns = await layer.namespace();
    const before = await runningPod(ns, 'ordered', {
      containers: [
        { name: 'app', image: 'nginx:alpine', lifecycle: { preStop: { sleep: { seconds: 2 } } } },
        { name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '3600'] },
      ],
    });
    await layer.client.create(
      crr(ns, 'ordered', {
        podName: 'ordered',
        containers: [{ name: 'app' }, { name: 'sidecar' }],
        strategy: { orderedRecreate: true },
      }),
    );
    const done = await completed(ns, 'ordered');
    expect(done.status?.containerRecreateStates?.map((s) => s.phase)).toEqual(['Succeeded', 'Succeeded']);
    const after = await getPod(ns, 'ordered');
    const appStarted = Date.parse(cs(after, 'app')?.state?.running?.startedAt ?? '');
    const sideStopped = Date.parse(cs(after, 'sidecar')?.lastState?.terminated?.finishedAt ?? '');
    expect(sideStopped).toBeGreaterThanOrEqual(appStarted);
    // the preStop hook (2 s) ran between the request and the app container's exit (times in whole seconds)
    const appStopped = Date.parse(cs(after, 'app')?.lastState?.terminated?.finishedAt ?? '');
    expect(appStopped - Date.parse(done.metadata?.creationTimestamp ?? '')).toBeGreaterThanOrEqual(1000);
    expect(cs(after, 'app')?.lastState?.terminated?.containerID).toBe(cs(before, 'app')?.containerID);
  });

  it('admission: a missing pod, an unknown container and a second container list entry are refused with their field', async () => {
    const ns = await layer.namespace();
    await runningPod(ns, 'adm');
    const refused = async (spec: Record<string, unknown>) => {
      const err = await layer.client
        .create(crr(ns, `bad-${Math.random().toString(36).slice(2, 7)}`, spec))
        .catch((e: unknown) => e);
      return String((err as Error)?.message ?? err);
    };
    expect(await refused({ podName: 'nope', containers: [{ name: 'app' }] })).toMatch(
      /spec\.podName.*no found Pod named nope/,
    );
    expect(await refused({ podName: 'adm', containers: [{ name: 'app' }, { name: 'ghost' }] })).toMatch(
      /spec\.containers\[1\]\.name.*container ghost not found in Pod/,
    );
    expect(await refused({ podName: 'adm', containers: [] })).toMatch(/spec\.containers/);
    expect(
      await refused({ podName: 'adm', containers: [{ name: 'app' }], strategy: { failurePolicy: 'Retry' } }),
    ).toMatch(/spec\.strategy\.failurePolicy/);
  });

  it('the pod deleted before the agent acts: Completed with "pod has gone"', async () => {
    const ns = await layer.namespace();
    await runningPod(ns, 'gone');
    // the unready grace keeps the agent from stopping anything for 60 s
    await layer.client.create(
      crr(ns, 'gone', {
        podName: 'gone',
        containers: [{ name: 'app' }],
        strategy: { unreadyGracePeriodSeconds: 60 },
      }),
    );
    await expect
      .poll(async () => (await getCrr(ns, 'gone')).status?.phase, { timeout: 20_000 })
      .toBe('Recreating');
    await layer.client.delete(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'gone' },
      { gracePeriodSeconds: 0 },
    );
    const done = await completed(ns, 'gone');
    expect(done.status?.message).toBe('pod has gone');
  });

  it('the agent killed -9 while a container stops: a new agent finishes, the states are right', async () => {
    const ns = await layer.namespace();
    const before = await runningPod(ns, 'fault', {
      containers: [
        { name: 'app', image: 'nginx:alpine', lifecycle: { preStop: { sleep: { seconds: 4 } } } },
        { name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '3600'] },
      ],
    });
    await layer.client.create(
      crr(ns, 'fault', {
        podName: 'fault',
        containers: [{ name: 'app' }, { name: 'sidecar' }],
        strategy: { orderedRecreate: true },
      }),
    );
    // the agent is inside StopContainer (the 4 s preStop hook runs): kill it
    await expect
      .poll(async () => (await getCrr(ns, 'fault')).status?.phase, { timeout: 20_000, interval: 100 })
      .toBe('Recreating');
    await new Promise((r) => setTimeout(r, 1500));
    agents.get(node())!.process.killNow();
    await agents.get(node())!.process.exited;
    await startAgent(node(), 'b');
    const done = await completed(ns, 'fault');
    // isKilled is what an agent recorded: the first one was killed before it could record the app container's stop
    expect(done.status?.containerRecreateStates?.map((c) => [c.name, c.phase])).toEqual([
      ['app', 'Succeeded'],
      ['sidecar', 'Succeeded'],
    ]);
    const after = await getPod(ns, 'fault');
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    // each container recreated once
    expect(cs(after, 'app')?.restartCount).toBe(1);
    expect(cs(after, 'sidecar')?.restartCount).toBe(1);
  });
});
