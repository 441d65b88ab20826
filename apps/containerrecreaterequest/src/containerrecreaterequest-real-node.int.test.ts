// A ContainerRecreateRequest on a real node (issue 42, docs/real-nodes.md): the node agent's recreate duty talks to
// the node's containerd over CRI (ListContainers, ContainerStatus, StopContainer); the kubelet starts the container
// again. Asserted as `kubectl get pod -o yaml` shows it: same pod UID and IP, a new container ID, restartCount 1, the
// other container untouched, the request Completed with both states right. A container with an httpGet preStop hook
// (to a named port, without a host) gets its GET before the agent stops it: the agent asks CRI for the pod's IP.
// On a machine that cannot run a real node the file is skipped, with the reason printed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContainerRecreateRequest } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  answerOf,
  containerStatus,
  readTrace,
  useRealNode,
  useScenarioLayer,
  type Pod,
} from '@regatta/testing';

const CRR = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest' } as const;
type Crr = ContainerRecreateRequest & KubeObject;

const real = useRealNode('containerrecreaterequest-real-node.int.test.ts', 'crr-real');
const layer = real.skipReason
  ? undefined
  : useScenarioLayer({
      short: 'crrreal',
      lease: 'crrreal',
      scopeLabel: 'regatta-test-crr-real',
      timeoutMs: 240_000,
      controller: { app: 'containerrecreaterequest', webhooks: true },
    });

describe.skipIf(real.skipReason !== undefined)(
  `ContainerRecreateRequest on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it('recreates a real container through containerd: new container ID, restartCount 1, same pod UID and IP', async () => {
      if (!layer) throw new Error('not started');
      await layer.startProgram('imagepull-agent', `${real.name}-a`, {
        NODE_NAME: real.name,
        CRI_SOCKET: real.node.criSocket,
        REGATTA_NODE_AGENT_DUTIES: 'containerrecreate',
      });
      const ns = await layer.namespace();
      const client = layer.client;
      await client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: ns },
        spec: real.pin({
          terminationGracePeriodSeconds: 5,
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
              imagePullPolicy: 'IfNotPresent',
              ports: [{ containerPort: 80 }],
            },
            { name: 'side', image: 'regatta/http:v1', env: [{ name: 'PORT', value: '8080' }] },
          ],
        }),
      });
      const get = () =>
        client.get<Pod & KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'web' });
      await expect
        .poll(async () => (await get()).status?.containerStatuses?.every((c) => c.ready) ?? false, {
          timeout: 120_000,
          interval: 500,
        })
        .toBe(true);
      const before = await get();
      const ip = before.status?.podIP ?? '';
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');

      const t0 = Date.now();
      await client.create({
        ...CRR,
        metadata: { name: 'recreate-nginx', namespace: ns },
        spec: { podName: 'web', containers: [{ name: 'nginx' }] },
      });
      await expect
        .poll(
          async () =>
            (await client.get<Crr>({ ...CRR, namespace: ns, name: 'recreate-nginx' })).status?.phase,
          {
            timeout: 90_000,
            interval: 250,
          },
        )
        .toBe('Completed');
      const done = await client.get<Crr>({ ...CRR, namespace: ns, name: 'recreate-nginx' });
      expect(done.status?.containerRecreateStates).toEqual([
        { name: 'nginx', phase: 'Succeeded', isKilled: true },
      ]);
      const after = await get();
      const s0 = containerStatus(before, 'nginx');
      const s1 = containerStatus(after, 'nginx');
      expect(after.metadata?.uid).toBe(before.metadata?.uid);
      expect(after.status?.podIP).toBe(ip);
      expect(s1?.containerID).toMatch(/^containerd:\/\//);
      expect(s1?.containerID).not.toBe(s0?.containerID);
      expect(s1?.restartCount).toBe((s0?.restartCount ?? 0) + 1);
      expect(containerStatus(after, 'side')?.containerID).toBe(containerStatus(before, 'side')?.containerID);
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');
      process.stderr.write(
        `[real node] ContainerRecreateRequest Completed ${Date.now() - t0} ms after its creation\n`,
      );
    });

    it("runs an httpGet preStop hook (a named port, the pod's IP from CRI) before it stops the container", async () => {
      if (!layer) throw new Error('not started');
      const ns = await layer.namespace();
      const client = layer.client;
      const traceDir = real.hostDir(`trace-${ns}`);
      const trace = () => readTrace(join(traceDir, 'trace')).map((l) => l.what);
      await client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'hooked', namespace: ns },
        spec: real.pin({
          terminationGracePeriodSeconds: 10,
          volumes: [{ name: 'trace', hostPath: { path: traceDir, type: 'Directory' } }],
          containers: [
            {
              name: 'app',
              image: 'regatta/http:v1',
              env: [
                { name: 'ID', value: 'app' },
                { name: 'TRACE_FILE', value: '/trace/trace' },
              ],
              ports: [{ name: 'web', containerPort: 80 }],
              volumeMounts: [{ name: 'trace', mountPath: '/trace' }],
              lifecycle: { preStop: { httpGet: { path: '/hook/prestop', port: 'web' } } },
            },
          ],
        }),
      });
      const get = () =>
        client.get<Pod & KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'hooked' });
      await expect
        .poll(async () => (await get()).status?.containerStatuses?.every((c) => c.ready) ?? false, {
          timeout: 120_000,
          interval: 500,
        })
        .toBe(true);
      expect(trace()).toEqual(['start']);
      await client.create({
        ...CRR,
        metadata: { name: 'recreate-hooked', namespace: ns },
        spec: { podName: 'hooked', containers: [{ name: 'app' }] },
      });
      await expect
        .poll(
          async () =>
            (await client.get<Crr>({ ...CRR, namespace: ns, name: 'recreate-hooked' })).status?.phase,
          { timeout: 90_000, interval: 250 },
        )
        .toBe('Completed');
      // admission copied the hook and the ports into the request; the agent sent the GET, then stopped it
      const done = await client.get<Crr>({ ...CRR, namespace: ns, name: 'recreate-hooked' });
      expect(done.spec?.containers?.[0]?.preStop).toMatchObject({
        httpGet: { path: '/hook/prestop', port: 'web' },
      });
      expect(done.status?.containerRecreateStates).toEqual([
        { name: 'app', phase: 'Succeeded', isKilled: true },
      ]);
      await expect.poll(trace, { timeout: 30_000 }).toEqual(['start', 'hook/prestop', 'start']);
      expect(containerStatus(await get(), 'app')?.restartCount).toBe(1);
    });
  },
);
