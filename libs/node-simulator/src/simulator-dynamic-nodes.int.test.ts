// Nodes that come and go while the simulator runs (issue 11, "Node eligibility"): added with kubectl (or
// NodeSimulator.addNode), labelled, tainted, cordoned, made NotReady by annotation, deleted.
import { describe, expect, it } from 'vitest';
import { simulatedNodeManifest } from './node-manifest.js';
import { NOT_READY_TAINT, UNREACHABLE_TAINT, UNSCHEDULABLE_TAINT } from './node-object.js';
import { eventually, rand } from './test-kube.js';
import { cond, podPath, usePrivateSimulator } from './test-simulator.js';
import type { Node, Pod } from './types.js';

const timings = {
  podStartMs: 300,
  containerRestartMs: 300,
  imagePullMs: 300,
  podStopMs: 200,
  heartbeatMs: 1000,
};

const t = usePrivateSimulator({
  short: 'simd',
  options: () => ({ nodes: 1, zones: ['z1', 'z2', 'z3'], timings, storageClass: '' }),
});
const { prefix, kube, taint: TAINT, toleration } = t;

const nodePath = (name: string) => `/api/v1/nodes/${name}`;
const getNode = (name: string) => kube.get<Node>(nodePath(name));
const ready = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');
const taintKeys = (n: Node) => (n.spec?.taints ?? []).map((x) => `${x.key}:${x.effect}`);
const quiet = () => new Promise((r) => setTimeout(r, 2.5 * timings.heartbeatMs));

async function readyNode(name: string): Promise<Node> {
  return eventually(
    `node ${name} Ready and run`,
    async () => {
      const n = await getNode(name);
      return ready(n)?.status === 'True' && t.sim.ownsNode(name) ? n : undefined;
    },
    20_000,
  );
}

describe('nodes added, changed and removed while the simulator runs', () => {
  it('runs a Node created with kubectl: Ready, lease, capacity, its labels and taints kept, pods bound to it run', async () => {
    const name = `${prefix}dyn`;
    // what `kubectl create -f` of such a manifest does (the annotation names this simulator)
    await kube.create('/api/v1/nodes', {
      ...simulatedNodeManifest(name, {
        prefix,
        zone: 'z9',
        labels: { disk: 'ssd' },
        taints: [TAINT],
        capacity: 'cpu=4,pods=30',
      }),
    });
    const n = await readyNode(name);
    expect(n.metadata.labels).toMatchObject({
      disk: 'ssd',
      'topology.kubernetes.io/zone': 'z9',
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
    });
    expect(n.status?.capacity).toMatchObject({ cpu: '4', pods: '30', memory: '32Gi' });
    expect(n.spec?.podCIDR).toMatch(/^10\.\d+\.\d+\.0\/24$/);
    await eventually(
      'not-ready taint removed',
      async () => !taintKeys(await getNode(name)).includes(`${NOT_READY_TAINT}:NoSchedule`),
      10_000,
    );
    expect((await getNode(name)).spec?.taints).toEqual([TAINT]);
    const lease = await eventually('lease', () =>
      kube.get<{ spec: { holderIdentity: string } }>(
        `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`,
      ),
    );
    expect(lease.spec.holderIdentity).toBe(name);
    expect(t.sim.runningNodes).toContain(name);

    const ns = await kube.namespace('simd-run');
    await t.createPod(ns, 'p', {
      nodeName: name,
      tolerations: [toleration],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    const p = await t.readyPod(ns, 'p');
    expect(p.status?.hostIP).toBe(n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address);
  });

  it('keeps what users do with kubectl label / taint / cordon / uncordon; cordon adds the unschedulable taint', async () => {
    const name = `${prefix}dyn`;
    await kube.patch(nodePath(name), {
      metadata: { labels: { color: 'blue', 'topology.kubernetes.io/zone': 'z5', disk: null } },
    });
    await kube.patch(nodePath(name), {
      spec: { taints: [TAINT, { key: 'dedicated', value: 'infra', effect: 'NoExecute' }] },
    });
    await quiet();
    let n = await getNode(name);
    expect(n.metadata.labels).toMatchObject({ color: 'blue', 'topology.kubernetes.io/zone': 'z5' });
    expect(n.metadata.labels?.['disk']).toBeUndefined();
    expect(n.spec?.taints).toEqual([TAINT, { key: 'dedicated', value: 'infra', effect: 'NoExecute' }]);

    // a taint removed stays removed
    await kube.patch(nodePath(name), { spec: { taints: [TAINT] } });
    await kube.patch(nodePath(name), { spec: { unschedulable: true } });
    n = await eventually(
      'cordon taint',
      async () => {
        const x = await getNode(name);
        return taintKeys(x).includes(`${UNSCHEDULABLE_TAINT}:NoSchedule`) ? x : undefined;
      },
      10_000,
    );
    expect(taintKeys(n)).toEqual([`${TAINT.key}:NoSchedule`, `${UNSCHEDULABLE_TAINT}:NoSchedule`]);
    await quiet();
    n = await getNode(name);
    expect(n.spec?.unschedulable).toBe(true);
    expect(ready(n)?.status).toBe('True');

    await kube.patch(nodePath(name), { spec: { unschedulable: null } });
    n = await eventually(
      'uncordon: taint gone',
      async () => {
        const x = await getNode(name);
        return taintKeys(x).includes(`${UNSCHEDULABLE_TAINT}:NoSchedule`) ? undefined : x;
      },
      10_000,
    );
    expect(n.spec?.taints).toEqual([TAINT]);
    expect(n.spec?.unschedulable).toBeUndefined();
    expect(n.metadata.labels).toMatchObject({ color: 'blue', 'topology.kubernetes.io/zone': 'z5' });
  });

  it('annotation sim.regatta.dev/not-ready=true: Ready Unknown, unreachable taint, its pods not Ready; removed: back', async () => {
    const name = `${prefix}dyn`;
    const ns = await kube.namespace('simd-nr');
    await t.createPod(ns, 'q', {
      nodeName: name,
      tolerations: [toleration],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    await t.readyPod(ns, 'q');
    await kube.patch(nodePath(name), { metadata: { annotations: { 'sim.regatta.dev/not-ready': 'true' } } });
    const down = await eventually(
      'NotReady',
      async () => {
        const x = await getNode(name);
        return ready(x)?.status === 'Unknown' && taintKeys(x).includes(`${UNREACHABLE_TAINT}:NoSchedule`)
          ? x
          : undefined;
      },
      10_000,
    );
    expect(ready(down)?.reason).toBe('NodeStatusUnknown');
    await eventually(
      'pod not Ready',
      async () => cond(await kube.get<Pod>(podPath(ns, 'q')), 'Ready')?.status === 'False',
      10_000,
    );
    await kube.patch(nodePath(name), { metadata: { annotations: { 'sim.regatta.dev/not-ready': null } } });
    await eventually(
      'Ready again',
      async () => {
        const x = await getNode(name);
        return ready(x)?.status === 'True' && !taintKeys(x).includes(`${UNREACHABLE_TAINT}:NoSchedule`);
      },
      10_000,
    );
    await t.readyPod(ns, 'q');
  });

  it('adopts an unclaimed Node named <prefix>…, and leaves an unclaimed Node of another name alone (adoptNodes off)', async () => {
    const mine = `${prefix}7`;
    const other = `free-${rand()}`;
    await kube.create('/api/v1/nodes', simulatedNodeManifest(mine, { taints: [TAINT] }));
    await kube.create('/api/v1/nodes', simulatedNodeManifest(other, { taints: [TAINT] }));
    try {
      const n = await readyNode(mine);
      expect(n.metadata.annotations?.['sim.regatta.dev/name-prefix']).toBe(prefix);
      // index 7: the addresses a 7th configured node would have
      expect(n.spec?.podCIDR?.endsWith('.7.0/24')).toBe(true);
      await quiet();
      // (a simulator with adoptNodes, e.g. the sandbox's, would take it; this one does not)
      const o = await getNode(other);
      expect(o.metadata.annotations?.['sim.regatta.dev/name-prefix']).not.toBe(prefix);
      expect(t.sim.ownsNode(other)).toBe(false);
    } finally {
      await kube.delete(nodePath(other));
    }
  });

  it('kubectl delete node: the simulator stops running it; its pods are left as on a real cluster; added again it runs again', async () => {
    const name = `${prefix}gone`;
    const created = await t.sim.addNode(name, { taints: [TAINT] });
    const ns = await kube.namespace('simd-del');
    await t.createPod(ns, 'orphan', {
      nodeName: name,
      tolerations: [toleration],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    const before = await t.readyPod(ns, 'orphan');
    await kube.delete(nodePath(name));
    await eventually('no longer run', async () => !t.sim.ownsNode(name), 10_000);
    // no kubelet any more: a graceful delete of its pod is never completed, its status no longer changes
    await kube.delete(podPath(ns, 'orphan'));
    await quiet();
    const left = await kube.get<Pod>(podPath(ns, 'orphan'));
    expect(left.metadata.deletionTimestamp).toBeDefined();
    expect(left.status?.containerStatuses).toEqual(before.status?.containerStatuses);
    await kube.delete(podPath(ns, 'orphan'), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
    });

    const again = await t.sim.addNode(name, { taints: [TAINT] });
    expect(again.metadata.uid).not.toBe(created.metadata.uid);
    expect(again.spec?.podCIDR).toBe(created.spec?.podCIDR);
    await t.createPod(ns, 'new', {
      nodeName: name,
      tolerations: [toleration],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    await t.readyPod(ns, 'new');
  });

  it('a node deleted while it switches NotReady: no failure logged, the node is simply no longer run', async () => {
    const name = `${prefix}brief`;
    await t.sim.addNode(name, { taints: [TAINT] });
    // the switch's writes (status, then taints) race the deletion: the later ones find no Node
    t.sim.setFaults({ notReadyNodes: [name] });
    await kube.delete(nodePath(name));
    await eventually('no longer run', async () => !t.sim.ownsNode(name), 10_000);
    await quiet();
    t.sim.setFaults({ notReadyNodes: [] });
    expect(t.logLines().filter((l) => l.includes(name) && /fail|not found/i.test(l))).toEqual([]);
  });
});
