import { describe, expect, it } from 'vitest';
import { imageIdOf } from './image-ref.js';
import { ImagePullError } from './images.js';
import { UNREACHABLE_TAINT } from './node-object.js';
import { NodeSimulator } from './simulator.js';
import { eventually, rand } from './test-kube.js';
import { cond, podPath, usePrivateSimulator } from './test-simulator.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from './types.js';
import { PROVISIONER } from './volumes.js';

const timings = {
  podStartMs: 300,
  containerRestartMs: 300,
  imagePullMs: 300,
  podStopMs: 200,
  heartbeatMs: 1000,
};

const t = usePrivateSimulator({
  short: 'simn',
  options: (prefix) => ({
    nodes: 4,
    zones: ['z1', 'z2', 'z3'],
    labels: { 'example.com/rack': 'r1' },
    capacity: { cpu: '16', memory: '64Gi', pods: '200' },
    timings,
    storageClass: `${prefix}sc`,
    defaultStorageClass: false,
  }),
  cleanup: (kube) => kube.delete(`/apis/storage.k8s.io/v1/storageclasses/${storageClass}`),
});
const { prefix, kube, kubeconfig, taint: TAINT, toleration } = t;
const storageClass = `${prefix}sc`;

const getNode = (name: string) => kube.get<Node>(`/api/v1/nodes/${name}`);
type Lease = {
  spec: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number };
  metadata: { ownerReferences?: { kind: string; name: string; uid: string }[] };
};
const getLease = (name: string) =>
  kube.get<Lease>(`/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`);
const ready = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');

async function runningPod(ns: string, name: string, spec: Record<string, unknown>): Promise<Pod> {
  await t.createPod(ns, name, spec);
  return t.readyPod(ns, name);
}

describe('simulated nodes', () => {
  it('registers N Ready nodes with labels, zones round-robin, capacity, addresses, nodeInfo and renewed leases', async () => {
    expect(t.sim.nodeNames).toEqual([1, 2, 3, 4].map((i) => `${prefix}${i}`));
    const version = (await kube.get<{ gitVersion: string }>('/version')).gitVersion;
    const nodes = await Promise.all(t.sim.nodeNames.map(getNode));
    expect(nodes.map((n) => n.metadata.labels?.['topology.kubernetes.io/zone'])).toEqual([
      'z1',
      'z2',
      'z3',
      'z1',
    ]);
    for (const n of nodes) {
      expect(n.metadata.labels).toMatchObject({
        'kubernetes.io/hostname': n.metadata.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'example.com/rack': 'r1',
      });
      expect(ready(n)).toMatchObject({ status: 'True', reason: 'KubeletReady' });
      expect(n.status?.capacity).toMatchObject({ cpu: '16', memory: '64Gi', pods: '200' });
      expect(n.status?.allocatable).toMatchObject({ cpu: '16', memory: '64Gi', pods: '200' });
      expect(n.status?.nodeInfo).toMatchObject({
        kubeletVersion: version,
        operatingSystem: 'linux',
        architecture: 'amd64',
      });
      expect(n.status?.addresses?.map((a) => a.type)).toEqual(['InternalIP', 'Hostname']);
      expect(n.spec?.taints).toEqual([TAINT]);
    }
    expect(new Set(nodes.map((n) => n.status?.addresses?.[0]?.address)).size).toBe(4);
    const first = await getLease(`${prefix}1`);
    expect(first.spec).toMatchObject({ holderIdentity: `${prefix}1`, leaseDurationSeconds: 40 });
    expect(first.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Node',
      name: `${prefix}1`,
      uid: nodes[0]?.metadata.uid,
    });
    await eventually(
      'lease renewed',
      async () => (await getLease(`${prefix}1`)).spec.renewTime !== first.spec.renewTime,
      5_000,
    );
  });

  it('NotReady switch: Ready Unknown, unreachable taint, lease not renewed, its pods not Ready; and back', async () => {
    const ns = await kube.namespace('sim-notready');
    const node = `${prefix}3`;
    await runningPod(ns, 'victim', { nodeName: node, containers: [{ name: 'app', image: 'nginx:1.27' }] });
    t.sim.setFaults({ notReadyNodes: [node] });
    try {
      const down = await eventually(
        'node NotReady',
        async () => {
          const n = await getNode(node);
          return ready(n)?.status === 'Unknown' && n.spec?.taints?.some((t) => t.key === UNREACHABLE_TAINT)
            ? n
            : undefined;
        },
        10_000,
      );
      expect(ready(down)?.reason).toBe('NodeStatusUnknown');
      const p = await eventually(
        'pod not Ready',
        async () => {
          const x = await kube.get<Pod>(podPath(ns, 'victim'));
          return cond(x, 'Ready')?.status === 'False' ? x : undefined;
        },
        10_000,
      );
      expect(p.status?.phase).toBe('Running');
      const lease = await getLease(node);
      await new Promise((r) => setTimeout(r, 2.5 * timings.heartbeatMs));
      expect((await getLease(node)).spec.renewTime).toBe(lease.spec.renewTime);
      // other nodes are unaffected
      expect(ready(await getNode(`${prefix}1`))?.status).toBe('True');
    } finally {
      t.sim.setFaults({ notReadyNodes: [] });
    }
    const up = await eventually(
      'node Ready again',
      async () => {
        const n = await getNode(node);
        return ready(n)?.status === 'True' && !n.spec?.taints?.some((t) => t.key === UNREACHABLE_TAINT)
          ? n
          : undefined;
      },
      10_000,
    );
    expect(up.spec?.taints).toEqual([TAINT]);
    await eventually(
      'pod Ready again',
      async () => cond(await kube.get<Pod>(podPath(ns, 'victim')), 'Ready')?.status === 'True',
      10_000,
    );
    const events = await kube.get<{ items: { reason: string; involvedObject: { name: string } }[] }>(
      '/api/v1/namespaces/default/events',
    );
    const reasons = events.items.filter((e) => e.involvedObject.name === node).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['NodeNotReady', 'NodeReady']));
  });

  it('provisions a PV for a PVC of its StorageClass; the binder binds it and kube-scheduler places a pod using it', async () => {
    const sc = await kube.get<{ provisioner: string; volumeBindingMode: string }>(
      `/apis/storage.k8s.io/v1/storageclasses/${storageClass}`,
    );
    expect(sc).toMatchObject({ provisioner: PROVISIONER, volumeBindingMode: 'Immediate' });
    // the shared cluster's simulator made the default class
    const std = await kube.get<{ metadata: { annotations?: Record<string, string> }; provisioner: string }>(
      '/apis/storage.k8s.io/v1/storageclasses/standard',
    );
    expect(std.metadata.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');
    expect(std.provisioner).toBe(PROVISIONER);

    const ns = await kube.namespace('sim-pvc');
    const pvc = await kube.create<PersistentVolumeClaim>(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        storageClassName: storageClass,
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '3Gi' } },
      },
    });
    const bound = await eventually(
      'PVC Bound',
      async () => {
        const c = await kube.get<PersistentVolumeClaim & { status?: { capacity?: Record<string, string> } }>(
          `/api/v1/namespaces/${ns}/persistentvolumeclaims/data`,
        );
        return c.status?.phase === 'Bound' ? c : undefined;
      },
      30_000,
      200,
    );
    expect(bound.spec?.volumeName).toBe(`pvc-${pvc.metadata.uid}`);
    const pv = await kube.get<PersistentVolume>(`/api/v1/persistentvolumes/pvc-${pvc.metadata.uid}`);
    expect(pv.spec).toMatchObject({
      capacity: { storage: '3Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: storageClass,
      claimRef: { namespace: ns, name: 'data', uid: pvc.metadata.uid },
    });
    expect(pv.status?.phase).toBe('Bound');

    const p = await runningPod(ns, 'db', {
      nodeSelector: { 'kubernetes.io/hostname': `${prefix}2` },
      tolerations: [toleration],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      containers: [
        {
          name: 'db',
          image: 'postgres:17',
          volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }],
        },
      ],
    });
    expect(p.spec?.nodeName).toBe(`${prefix}2`); // bound by kube-scheduler
    expect(p.status?.phase).toBe('Running');

    await kube.delete(podPath(ns, 'db'));
    await eventually('pod gone', async () => !(await kube.exists(podPath(ns, 'db'))), 10_000);
    await kube.delete(`/api/v1/namespaces/${ns}/persistentvolumeclaims/data`);
    await eventually(
      'PV deleted (reclaimPolicy Delete)',
      async () => !(await kube.exists(`/api/v1/persistentvolumes/pvc-${pvc.metadata.uid}`)),
      30_000,
      200,
    );
  });

  it('image service: pulls onto a node in imagePullMs, reports node.status.images, honours failPullImages, removes', async () => {
    const node = `${prefix}4`;
    const t0 = Date.now();
    const { imageRef } = await t.sim.images.pullImage(node, 'redis:7.4', { secrets: [{ name: 'regcred' }] });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(timings.imagePullMs - 5);
    expect(imageRef).toBe(imageIdOf('redis:7.4'));
    expect(t.sim.images.listImages(node).map((i) => i.ref)).toContain('docker.io/library/redis:7.4');
    await eventually(
      'node.status.images lists it',
      async () => {
        const n = await getNode(node);
        return n.status?.images?.some(
          (i) =>
            i.names.includes('docker.io/library/redis:7.4') && i.names.includes(imageRef) && i.sizeBytes > 0,
        );
      },
      5_000,
    );
    t.sim.setFaults({ failPullImages: ['redis:broken'] });
    try {
      await expect(t.sim.images.pullImage(node, 'redis:broken')).rejects.toBeInstanceOf(ImagePullError);
    } finally {
      t.sim.setFaults({ failPullImages: [] });
    }
    expect(t.sim.images.removeImage(node, 'redis:7.4')).toBe(true);
    await eventually(
      'node.status.images drops it',
      async () => {
        const n = await getNode(node);
        return !n.status?.images?.some((i) => i.names.includes('docker.io/library/redis:7.4'));
      },
      5_000,
    );
  });

  it('a restarted simulator picks up its nodes and their running pods unchanged, and keeps serving them', async () => {
    const p2 = `simr-${rand()}-`;
    const opts = { kubeconfig, nodes: 2, namePrefix: p2, taints: [TAINT], timings, storageClass: '' };
    const first = await NodeSimulator.start(opts);
    let second: NodeSimulator | undefined;
    try {
      const ns = await kube.namespace('sim-restart');
      const before = await runningPod(ns, 'keep', {
        nodeName: `${p2}1`,
        containers: [
          { name: 'a', image: 'nginx:1.25' },
          // busybox's own command exits at once (container-command.ts): this one runs until stopped
          { name: 'b', image: 'busybox:1.36', command: ['sleep', 'infinity'] },
        ],
      });
      const nodeUid = (await getNode(`${p2}1`)).metadata.uid;
      await first.stop();
      second = await NodeSimulator.start({ ...opts, removeNodesOnStop: true });
      expect((await getNode(`${p2}1`)).metadata.uid).toBe(nodeUid);
      await new Promise((r) => setTimeout(r, 1000));
      const after = await kube.get<Pod>(podPath(ns, 'keep'));
      expect(after.status?.podIP).toBe(before.status?.podIP);
      expect(after.status?.containerStatuses).toEqual(before.status?.containerStatuses);
      await kube.patch(
        podPath(ns, 'keep'),
        { spec: { containers: [{ name: 'b', image: 'busybox:1.37' }] } },
        'strategic',
      );
      const updated = await eventually(
        'b restarted by the new simulator',
        async () => {
          const x = await kube.get<Pod>(podPath(ns, 'keep'));
          const b = x.status?.containerStatuses?.find((c) => c.name === 'b');
          return b?.restartCount === 1 && b.ready ? x : undefined;
        },
        10_000,
      );
      expect(updated.status?.containerStatuses?.find((c) => c.name === 'a')).toEqual(
        before.status?.containerStatuses?.find((c) => c.name === 'a'),
      );
      expect(updated.status?.podIP).toBe(before.status?.podIP);
      // its pods must be gone before this simulator goes (the namespace itself goes in afterAll)
      await kube.delete(podPath(ns, 'keep'));
      await eventually('pod gone', async () => !(await kube.exists(podPath(ns, 'keep'))), 10_000);
    } finally {
      await first.stop();
      await second?.stop();
    }
  });
});
