// Container launch priority on a real node (issue 42 item 5, docs/sidecarset.md "Container launch priority"): a pod
// whose second container has the higher KRUISE_CONTAINER_PRIORITY. The kubelet alone starts containers in spec
// order; here the pod webhook's barrier env (`<pod>-barrier` ConfigMap key) holds the first one until the program
// releases its key, once the higher container is ready (after its readiness probe's initial delay). Both containers
// are the HTTP stand-in writing a start line into a trace file on a hostPath volume, which the test reads on the
// host: the higher-priority container starts first, the other only after it became ready. Skipped, with the reason
// printed, where a real node cannot run.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { containerStatus, readTrace, useRealNodeScenarios } from '@regatta/testing';
import { useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'sidecarset-real-node-launch-priority.int.test.ts',
  'prio',
  useSidecarSetScenarios,
);
const READY_DELAY_SECONDS = 3;

describeOnRealNode('container launch priority on a real node', () => {
  it('the higher-priority container (second in spec order) starts first; the other starts only after it is ready', async () => {
    const s = scenarios();
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000 })
      .toContain('launch-priority.pods.regatta.kruise.io');
    const ns = await s.namespace();
    const dir = real.hostDir(`trace-${ns}`);
    const container = (name: string, port: number, priority: number, probe = false) => ({
      name,
      image: 'regatta/http:v1',
      env: [
        { name: 'ID', value: name },
        { name: 'PORT', value: String(port) },
        { name: 'TRACE_FILE', value: '/trace/trace' },
        { name: 'KRUISE_CONTAINER_PRIORITY', value: String(priority) },
      ],
      volumeMounts: [{ name: 'trace', mountPath: '/trace' }],
      ...(probe
        ? {
            readinessProbe: {
              httpGet: { path: '/', port },
              initialDelaySeconds: READY_DELAY_SECONDS,
              periodSeconds: 1,
            },
          }
        : {}),
    });
    const created = await s.createPod(
      ns,
      'ordered',
      {},
      real.pin({
        volumes: [{ name: 'trace', hostPath: { path: dir, type: 'Directory' } }],
        containers: [container('main', 8080, 0), container('sidecar', 8081, 10, true)],
      }),
    );
    // the webhook gave each container its barrier key
    expect(
      created.spec?.containers?.map(
        (c) =>
          (c.env ?? []).find((e) => e.name === 'KRUISE_CONTAINER_BARRIER')?.valueFrom?.configMapKeyRef?.key,
      ),
    ).toEqual(['p_0', 'p_10']);
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'ordered' };
    await expect
      .poll(
        async () => {
          const p = await s.client.get<Pod>(ref);
          return ['main', 'sidecar'].map((c) => containerStatus(p, c)?.ready);
        },
        { timeout: 90_000, interval: 500 },
      )
      .toEqual([true, true]);
    const trace = readTrace(join(dir, 'trace'));
    expect(trace.map((l) => `${l.id} ${l.what}`)).toEqual(['sidecar start', 'main start']);
    const gap = trace[1]!.ms - trace[0]!.ms;
    process.stderr.write(`[real node] launch priority: main started ${gap} ms after the sidecar\n`);
    // main waited for the sidecar's readiness (its probe's initial delay), not just for its turn in the kubelet
    expect(gap).toBeGreaterThanOrEqual((READY_DELAY_SECONDS - 1) * 1000);
    const p = await s.client.get<Pod>(ref);
    expect(p.metadata?.annotations?.['apps.kruise.io/container-launch-priority-completed']).toBe('true');
    const barrier = await s.client.get<KubeObject & { data?: Record<string, string> }>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: ns,
      name: 'ordered-barrier',
    });
    expect(barrier.data).toEqual({ p_10: 'true', p_0: 'true' });
  }, 240_000);
});
