import { describe, expect, it } from 'vitest';
import { eventually } from './test-kube.js';
import { podPath, usePrivateSimulator } from './test-simulator.js';

// a private simulator: its own node names, address range, pool label and taint
const t = usePrivateSimulator({
  short: 'sima',
  options: (_prefix, id) => ({
    nodes: 1,
    labels: { 'sim.regatta.dev/pool': id },
    timings: { podStartMs: 200, podStopMs: 200, heartbeatMs: 1000 },
    storageClass: '',
  }),
  podSpec: (prefix) => ({ nodeName: `${prefix}1` }),
});
const { kube, getPod, createPod, readyPod } = t;

const withHostPort = {
  containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 21017, hostPort: 21017 }] }],
};

describe('kubelet admission on simulated nodes', () => {
  it('rejects a pod whose host port a running pod of the node holds (Failed, NodePorts); its deletion completes at once', async () => {
    const ns = await kube.namespace('sim-admit');
    await createPod(ns, 'holder', withHostPort);
    await readyPod(ns, 'holder');
    await createPod(ns, 'late', withHostPort);
    const rejected = await eventually('late pod rejected', async () => {
      const p = await getPod(ns, 'late');
      return p.status?.phase === 'Failed' ? p : undefined;
    });
    expect(rejected.status).toMatchObject({ reason: 'NodePorts' });
    expect(rejected.status?.containerStatuses ?? []).toEqual([]);
    const events = await kube.events(ns, 'late');
    expect(events.map((e) => [e.type, e.reason])).toContainEqual(['Warning', 'NodePorts']);
    // it stays rejected, and a graceful delete of it completes (no container to stop)
    await kube.delete(podPath(ns, 'late'));
    await eventually('late pod gone', async () => !(await kube.exists(podPath(ns, 'late'))), 10_000);
    // once the holder is gone, the same spec is admitted
    await kube.delete(podPath(ns, 'holder'));
    await eventually('holder gone', async () => !(await kube.exists(podPath(ns, 'holder'))), 10_000);
    await createPod(ns, 'late', withHostPort);
    expect((await readyPod(ns, 'late')).status?.phase).toBe('Running');
  });
});
