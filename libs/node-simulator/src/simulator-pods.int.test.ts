import {
  checkPodUpdateCompleted,
  envFromMetadataHash,
  formatInPlaceUpdateState,
  INPLACE_UPDATE_STATE_KEY,
  readRuntimeContainersMeta,
} from '@regatta/inplace-update';
import { describe, expect, it } from 'vitest';
import { nodeAddressing } from './addressing.js';
import { SIDECARSET_HASH_ANNOTATION } from './container-meta.js';
import { imageIdOf } from './image-ref.js';
import { EXIT_AFTER_ANNOTATION } from './runtime-state.js';
import { eventually } from './test-kube.js';
import { cond, containerStatusOf as cstatus, podPath, usePrivateSimulator } from './test-simulator.js';
import type { Node, Pod } from './types.js';

const POOL = 'sim.regatta.dev/pool';
const timings = {
  podStartMs: 300,
  containerRestartMs: 1000,
  imagePullMs: 200,
  podStopMs: 300,
  heartbeatMs: 1000,
  crashRunMs: 200,
  crashBackoffMs: 400,
  imagePullBackoffMs: 400,
  plegRelistMs: 1000,
};

// a private simulator: its own node names, address range, pool label and taint
const t = usePrivateSimulator({
  short: 'simp',
  options: (_prefix, id) => ({
    nodes: 3,
    labels: { [POOL]: id },
    timings,
    faults: { failPullImages: ['example.com/broken:*'], crashLoopImages: ['example.com/crash:*'] },
    storageClass: '',
  }),
  podSpec: (prefix) => ({ nodeName: `${prefix}1` }), // the first node unless a test names another
});
const { prefix, id, kube, toleration, getPod, createPod, readyPod } = t;

describe('pods on simulated nodes', () => {
  it('runs a pod like a kubelet: Running, pod IP from the node range, imageID, init containers, conditions, events', async () => {
    const ns = await kube.namespace('sim-run');
    const t0 = Date.now();
    await createPod(ns, 'web', {
      nodeName: `${prefix}2`,
      initContainers: [{ name: 'setup', image: 'busybox:1.36' }],
      containers: [
        { name: 'nginx', image: 'nginx:alpine' },
        { name: 'sidecar', image: 'quay.io/prometheus/node-exporter:v1.8.0' },
      ],
    });
    const p = await readyPod(ns, 'web');
    const took = Date.now() - t0;
    const node = await kube.get<Node>(`/api/v1/nodes/${prefix}2`);
    expect(p.status?.podIP?.startsWith(`${nodeAddressing(prefix, 2).podPrefix}.`)).toBe(true);
    expect(p.status?.podIPs).toEqual([{ ip: p.status?.podIP }]);
    expect(p.status?.hostIP).toBe(node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address);
    const nginx = cstatus(p, 'nginx');
    expect(nginx).toMatchObject({
      image: 'nginx:alpine',
      imageID: imageIdOf('docker.io/library/nginx:alpine'),
      ready: true,
      started: true,
      restartCount: 0,
    });
    expect(nginx?.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(nginx?.containerID).toMatch(/^containerd:\/\//);
    expect(nginx?.state?.running?.startedAt).toBeDefined();
    expect(cstatus(p, 'sidecar')?.imageID).toMatch(/^quay\.io\/prometheus\/node-exporter@sha256:/);
    expect(p.status?.initContainerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    for (const type of [
      'PodReadyToStartContainers',
      'Initialized',
      'ContainersReady',
      'Ready',
      'PodScheduled',
    ]) {
      expect(cond(p, type)?.status, type).toBe('True');
    }
    expect(p.status?.startTime).toBeDefined();
    expect(took).toBeGreaterThanOrEqual(2 * timings.podStartMs); // init container, then the containers
    const events = await eventually('kubelet events', async () => {
      const ev = await kube.events(ns, 'web');
      return ev.filter((e) => e.reason === 'Started').length === 3 ? ev : undefined;
    });
    expect(events.every((e) => e.source?.component === 'kubelet' && e.source.host === `${prefix}2`)).toBe(
      true,
    );
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['Pulling', 'Pulled', 'Created', 'Started']),
    );
  });

  it('Ready honours readiness gates, re-evaluated when another writer flips the gate condition', async () => {
    const ns = await kube.namespace('sim-gates');
    await createPod(ns, 'gated', {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      readinessGates: [{ conditionType: 'example.com/ready' }],
    });
    const p = await eventually('containers ready, gate missing', async () => {
      const x = await getPod(ns, 'gated');
      return cond(x, 'ContainersReady')?.status === 'True' ? x : undefined;
    });
    expect(cond(p, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "example.com/ready" does not exist.',
    });
    const setGate = async (status: string) => {
      const cur = await getPod(ns, 'gated');
      const others = (cur.status?.conditions ?? []).filter((c) => c.type !== 'example.com/ready');
      await kube.patch(`${podPath(ns, 'gated')}/status`, {
        metadata: { resourceVersion: cur.metadata.resourceVersion },
        status: {
          conditions: [
            ...others,
            {
              type: 'example.com/ready',
              status,
              lastTransitionTime: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
            },
          ],
        },
      });
    };
    await setGate('True');
    await readyPod(ns, 'gated');
    await setGate('False');
    const notReady = await eventually('Ready False again', async () => {
      const x = await getPod(ns, 'gated');
      return cond(x, 'Ready')?.status === 'False' ? x : undefined;
    });
    expect(cond(notReady, 'Ready')?.message).toBe(
      'the status of pod readiness gate "example.com/ready" is not "True", but False',
    );
  });

  it('an in-place image change restarts only that container; IP, other container untouched', async () => {
    const ns = await kube.namespace('sim-inplace');
    await createPod(ns, 'two', {
      containers: [
        { name: 'main', image: 'nginx:1.25' },
        { name: 'helper', image: 'busybox:1.36', command: ['sleep', 'infinity'] },
      ],
    });
    const before = await readyPod(ns, 'two');
    const mainBefore = cstatus(before, 'main');
    const helperBefore = cstatus(before, 'helper');
    const t0 = Date.now();
    await kube.patch(
      podPath(ns, 'two'),
      { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } },
      'strategic',
    );
    // the restarted container is not ready for containerRestartMs: the pod is not Ready meanwhile
    const restarting = await eventually(
      'main restarted, not ready yet',
      async () => {
        const x = await getPod(ns, 'two');
        return cstatus(x, 'main')?.restartCount === 1 && cond(x, 'Ready')?.status === 'False' ? x : undefined;
      },
      10_000,
      50,
    );
    expect(cstatus(restarting, 'main')?.ready).toBe(false);
    const after = await readyPod(ns, 'two');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(timings.containerRestartMs);
    const main = cstatus(after, 'main');
    expect(main).toMatchObject({
      image: 'nginx:1.26',
      imageID: imageIdOf('nginx:1.26'),
      restartCount: 1,
      ready: true,
    });
    expect(main?.imageID).not.toBe(mainBefore?.imageID);
    expect(main?.containerID).not.toBe(mainBefore?.containerID);
    expect(
      main?.state?.running?.startedAt &&
        mainBefore?.state?.running?.startedAt &&
        main.state.running.startedAt >= mainBefore.state.running.startedAt,
    ).toBe(true);
    expect(main?.lastState?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
      containerID: mainBefore?.containerID,
    });
    expect(cstatus(after, 'helper')).toEqual(helperBefore);
    expect(after.status?.podIP).toBe(before.status?.podIP);
    expect((await kube.events(ns, 'two')).map((e) => e.message)).toContain(
      'Container main definition changed, will be restarted',
    );
    // metadata-only changes restart nothing
    await kube.patch(podPath(ns, 'two'), { metadata: { labels: { touched: 'yes' } } });
    await new Promise((r) => setTimeout(r, 500));
    expect(cstatus(await getPod(ns, 'two'), 'main')?.restartCount).toBe(1);
  });

  it('kruise-daemon: a changed label restarts only the container whose env reads it, and reports what runs', async () => {
    type KruisePod = Parameters<typeof checkPodUpdateCompleted>[0];
    const ns = await kube.namespace('sim-envmeta');
    const fromLabel = {
      name: 'main',
      image: 'nginx:1.27',
      env: [{ name: 'LEVEL', valueFrom: { fieldRef: { fieldPath: "metadata.labels['level']" } } }],
    };
    // a SidecarSet-injected pod is one the daemon watches (as one controlled by an apps.kruise.io workload)
    await createPod(
      ns,
      'envs',
      { containers: [fromLabel, { name: 'helper', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] },
      { labels: { level: 'info' }, annotations: { [SIDECARSET_HASH_ANNOTATION]: '{}' } },
    );
    const before = await readyPod(ns, 'envs');
    const mainBefore = cstatus(before, 'main');
    const helperBefore = cstatus(before, 'helper');
    const metaOf = async () => {
      const p = await kube.get<KruisePod>(podPath(ns, 'envs'));
      return { pod: p, meta: readRuntimeContainersMeta(p) ?? [] };
    };
    const hashOf = (p: KruisePod) =>
      envFromMetadataHash(fromLabel, { labels: p.metadata?.labels, annotations: p.metadata?.annotations });
    const reported = await eventually('runtime-containers-meta of both containers', async () => {
      const r = await metaOf();
      return r.meta.length === 2 ? r : undefined;
    });
    expect(reported.meta[0]).toMatchObject({
      name: 'main',
      containerID: mainBefore?.containerID,
      restartCount: 0,
      hashes: { plainHash: 0, extractedEnvFromMetadataHash: hashOf(reported.pod) },
    });
    expect(reported.meta[1]).toMatchObject({ name: 'helper', containerID: helperBefore?.containerID });

    // what the CloneSet controller does: InPlaceUpdateReady False, then the new label and the update state
    await kube.patch(
      `${podPath(ns, 'envs')}/status`,
      {
        status: {
          conditions: [{ type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate' }],
        },
      },
      'strategic',
    );
    const state = formatInPlaceUpdateState({
      revision: 'envs-2',
      updateTimestamp: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
      updateEnvFromMetadata: true,
    });
    await kube.patch(podPath(ns, 'envs'), {
      metadata: { labels: { level: 'debug' }, annotations: { [INPLACE_UPDATE_STATE_KEY]: state } },
    });
    const after = await eventually(
      'main restarted with the new label, reported by the daemon',
      async () => {
        const r = await metaOf();
        const main = r.pod.status?.containerStatuses?.find((c) => c.name === 'main');
        const m = r.meta.find((x) => x.name === 'main');
        return main?.restartCount === 1 && m?.containerID === main.containerID ? r : undefined;
      },
      15_000,
    );
    const statuses = after.pod.status?.containerStatuses ?? [];
    const main = statuses.find((c) => c.name === 'main');
    expect(main?.containerID).not.toBe(mainBefore?.containerID);
    expect(statuses.find((c) => c.name === 'helper')).toMatchObject({
      restartCount: 0,
      containerID: helperBefore?.containerID,
    });
    expect(after.meta.find((x) => x.name === 'main')).toEqual({
      name: 'main',
      containerID: main?.containerID,
      restartCount: 1,
      hashes: { plainHash: 0, extractedEnvFromMetadataHash: hashOf(after.pod) },
    });
    expect(hashOf(after.pod)).not.toBe(hashOf(reported.pod));
    expect(checkPodUpdateCompleted(after.pod)).toEqual({ completed: true });
    expect((await kube.events(ns, 'envs')).map((e) => e.message)).toContain(
      `Stopping containerID ${mainBefore?.containerID} by container meta restarter`,
    );
    // restarted once: the condition still False, nothing restarts again
    await readyPod(ns, 'envs');
    await new Promise((r) => setTimeout(r, 500));
    const settled = await getPod(ns, 'envs');
    expect(cstatus(settled, 'main')?.restartCount).toBe(1);
    expect(cstatus(settled, 'helper')?.restartCount).toBe(0);
  });

  it('graceful deletion: containers stop, the pod is removed; a finalizer holds it until removed', async () => {
    const ns = await kube.namespace('sim-delete');
    await createPod(ns, 'plain', { containers: [{ name: 'app', image: 'nginx:1.27' }] });
    await createPod(
      ns,
      'held',
      { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      { finalizers: ['example.com/hold'] },
    );
    await readyPod(ns, 'plain');
    await readyPod(ns, 'held');
    await kube.delete(podPath(ns, 'plain'));
    await kube.delete(podPath(ns, 'held'));
    await eventually('plain pod gone', async () => !(await kube.exists(podPath(ns, 'plain'))), 10_000);
    const held = await eventually(
      'held pod stopped',
      async () => {
        const x = await getPod(ns, 'held');
        return x.status?.phase === 'Succeeded' && x.metadata.deletionGracePeriodSeconds === 0 ? x : undefined;
      },
      10_000,
    );
    expect(cstatus(held, 'app')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cond(held, 'Ready')?.status).toBe('False');
    expect((await kube.events(ns, 'held')).map((e) => e.message)).toContain('Stopping container app');
    await new Promise((r) => setTimeout(r, 500));
    expect(await kube.exists(podPath(ns, 'held'))).toBe(true);
    await kube.patch(podPath(ns, 'held'), { metadata: { finalizers: null } });
    await eventually('held pod gone', async () => !(await kube.exists(podPath(ns, 'held'))), 10_000);
  });

  it('failing image pull: ErrImagePull, then ImagePullBackOff; runs once the fault is switched off', async () => {
    const ns = await kube.namespace('sim-pull');
    await createPod(ns, 'broken', { containers: [{ name: 'app', image: 'example.com/broken:1' }] });
    const reasons = new Set<string>();
    await eventually(
      'both pull failure reasons seen',
      async () => {
        const x = await getPod(ns, 'broken');
        const r = cstatus(x, 'app')?.state?.waiting?.reason;
        if (r) reasons.add(r);
        expect(x.status?.phase).toBe('Pending');
        expect(cond(x, 'Ready')?.status).not.toBe('True');
        return reasons.has('ErrImagePull') && reasons.has('ImagePullBackOff');
      },
      15_000,
      50,
    );
    const events = await kube.events(ns, 'broken');
    expect(
      events.some(
        (e) =>
          e.type === 'Warning' &&
          e.reason === 'Failed' &&
          e.message.includes('Failed to pull image "example.com/broken:1"'),
      ),
    ).toBe(true);
    expect(
      events.some(
        (e) => e.reason === 'BackOff' && e.message === 'Back-off pulling image "example.com/broken:1"',
      ),
    ).toBe(true);
    t.sim.setFaults({ failPullImages: [] });
    try {
      const p = await readyPod(ns, 'broken');
      expect(cstatus(p, 'app')?.imageID).toBe(imageIdOf('example.com/broken:1'));
    } finally {
      t.sim.setFaults({ failPullImages: ['example.com/broken:*'] });
    }
  });

  it('crash-looping image: restartCount grows with CrashLoopBackOff in between', async () => {
    const ns = await kube.namespace('sim-crash');
    await createPod(ns, 'crashy', {
      containers: [
        { name: 'app', image: 'example.com/crash:1' },
        { name: 'ok', image: 'nginx:1.27' },
      ],
    });
    let sawBackoff = false;
    const p = await eventually(
      'restartCount ≥ 2',
      async () => {
        const x = await getPod(ns, 'crashy');
        if (cstatus(x, 'app')?.state?.waiting?.reason === 'CrashLoopBackOff') sawBackoff = true;
        return (cstatus(x, 'app')?.restartCount ?? 0) >= 2 ? x : undefined;
      },
      20_000,
      50,
    );
    expect(sawBackoff).toBe(true);
    expect(p.status?.phase).toBe('Running');
    expect(cstatus(p, 'app')?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cstatus(p, 'ok')?.restartCount).toBe(0);
    const backoffs = (await kube.events(ns, 'crashy')).filter((e) => e.reason === 'BackOff');
    expect(backoffs.length).toBeGreaterThanOrEqual(1);
    expect(backoffs[0]?.message).toMatch(/^Back-off restarting failed container app in pod crashy_/);
  });

  it('kube-controller-manager and kube-scheduler work with it: a Deployment gets Running pods and rolls', async () => {
    const ns = await kube.namespace('sim-deploy');
    const template = (image: string) => ({
      metadata: { labels: { app: 'web' } },
      spec: {
        nodeSelector: { [POOL]: id },
        tolerations: [toleration],
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'web', image }],
      },
    });
    await kube.create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template('nginx:1.25') },
    });
    type Deploy = {
      metadata: { generation: number };
      status?: {
        observedGeneration?: number;
        availableReplicas?: number;
        updatedReplicas?: number;
        replicas?: number;
      };
    };
    const available = (gen: number) =>
      eventually(
        `deployment available (generation ${gen})`,
        async () => {
          const d = await kube.get<Deploy>(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
          const s = d.status ?? {};
          return s.observedGeneration === gen &&
            s.availableReplicas === 3 &&
            s.updatedReplicas === 3 &&
            s.replicas === 3
            ? d
            : undefined;
        },
        60_000,
        200,
      );
    await available(1);
    const pods = (await kube.get<{ items: Pod[] }>(`/api/v1/namespaces/${ns}/pods`)).items;
    expect(pods).toHaveLength(3);
    expect(
      pods.every((p) => t.sim.nodeNames.includes(p.spec?.nodeName ?? '') && p.status?.phase === 'Running'),
    ).toBe(true);
    await kube.patch(`/apis/apps/v1/namespaces/${ns}/deployments/web`, {
      spec: { template: template('nginx:1.26') },
    });
    await available(2);
    const rolled = await eventually(
      'old pods gone',
      async () => {
        const items = (await kube.get<{ items: Pod[] }>(`/api/v1/namespaces/${ns}/pods`)).items;
        return items.length === 3 ? items : undefined;
      },
      30_000,
      200,
    );
    expect(rolled.every((p) => cstatus(p, 'web')?.imageID === imageIdOf('nginx:1.26'))).toBe(true);
  });

  it('a Job pod with the exit-after annotation completes (phase Succeeded) and the Job finishes', async () => {
    const ns = await kube.namespace('sim-job');
    await kube.create(`/apis/batch/v1/namespaces/${ns}/jobs`, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once' },
      spec: {
        backoffLimit: 0,
        template: {
          metadata: { annotations: { [EXIT_AFTER_ANNOTATION]: '300' } },
          spec: {
            restartPolicy: 'Never',
            nodeSelector: { [POOL]: id },
            tolerations: [toleration],
            containers: [{ name: 'work', image: 'busybox:1.36' }],
          },
        },
      },
    });
    const job = await eventually(
      'job complete',
      async () => {
        const j = await kube.get<{
          status?: { succeeded?: number; conditions?: { type: string; status: string }[] };
        }>(`/apis/batch/v1/namespaces/${ns}/jobs/once`);
        return j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')
          ? j
          : undefined;
      },
      30_000,
      200,
    );
    expect(job.status?.succeeded).toBe(1);
    const [p] = (await kube.get<{ items: Pod[] }>(`/api/v1/namespaces/${ns}/pods`)).items;
    expect(p?.status?.phase).toBe('Succeeded');
    expect(cstatus(p as Pod, 'work')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});
