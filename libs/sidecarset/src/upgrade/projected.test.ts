// The upgrade over pods read through the SidecarSet program's projection (docs/adr/0060-pod-projection.md): the pod
// cache holds only SIDECARSET_POD_FIELDS, so each pod write must be a patch naming only what changed; the fields the
// cache left out (ports, probes, volumes, tolerations, IPs) are still on the stored pod after an upgrade and a
// hot-upgrade reset. In-memory cluster, readers that project what they return as the program's cache does.
import { SIDECARSET_POD_FIELDS, projection } from '@regatta/bus';
import { type EventRecorder, type JsonPatchOperation, type KubeObject, isProjected } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, type ObjectReader } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { SidecarSetUpgradeReconciler } from './reconciler.js';
import {
  asNativePod,
  asNativeSet,
  hotPod,
  hotSidecarSet,
  pod,
  sidecarSet,
  restartChangedContainers,
} from './testing/fixtures.js';

const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };

/** The pod as the API server has it: what the fixtures give plus fields the SidecarSet program never reads. */
function whole(p: Pod): Pod {
  const spec = p.spec as Record<string, unknown> & { containers: Record<string, unknown>[] };
  return {
    ...p,
    spec: {
      ...spec,
      containers: spec.containers.map((c) => ({
        ...c,
        ports: [{ containerPort: 8080 }],
        readinessProbe: { httpGet: { path: '/ready', port: 8080 } },
        resources: { requests: { cpu: '10m' } },
      })),
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      dnsPolicy: 'ClusterFirst',
    },
    status: { ...p.status, podIP: '10.0.0.7', qosClass: 'Burstable' },
  } as unknown as Pod;
}

/** What the projection drops and the stored pod must keep. */
function dropped(p: Pod): unknown {
  const spec = p.spec as Record<string, unknown> & { containers: Record<string, unknown>[] };
  const status = p.status as Record<string, unknown>;
  return {
    containers: spec.containers.map((c) => [c['ports'], c['readinessProbe'], c['resources']]),
    volumes: spec['volumes'],
    tolerations: spec['tolerations'],
    dnsPolicy: spec['dnsPolicy'],
    podIP: status['podIP'],
    qosClass: status['qosClass'],
  };
}

function world(...objects: KubeObject[]) {
  const c = new MemoryCluster();
  c.add(...objects);
  const project = projection(SIDECARSET_POD_FIELDS);
  const view = (o: KubeObject) => project(structuredClone(o));
  const stored = c.reader('Pod');
  /** Pods as the program's cache holds them; `stale` answers an older version of a pod instead. */
  const stale = new Map<string, KubeObject>();
  const pods: ObjectReader<KubeObject> = {
    get: (ns, name) => {
      const o = stale.get(name) ?? stored.get(ns, name);
      return o && view(o);
    },
    byIndex: (index, value) => stored.byIndex(index, value).map(view),
    list: (opts) => stored.list(opts).map((o) => view(stale.get(o.metadata?.name ?? '') ?? o)),
  };
  const events: string[] = [];
  const reconciler = () =>
    new SidecarSetUpgradeReconciler({
      client: c.writer,
      sidecarsets: c.reader('SidecarSet'),
      pods,
      revisions: c.reader('ControllerRevision'),
      controllerNamespace: 'kruise-system',
      expectations: new Expectations(),
      recorder: {
        normal: async (_o: KubeObject, reason: string) => void events.push(reason),
        warning: async (_o: KubeObject, reason: string) => void events.push(reason),
      } as unknown as EventRecorder,
    });
  return {
    c,
    events,
    stale,
    cached: (name: string) => pods.get('ns', name) as Pod,
    round: async () => {
      const from = c.writes.length;
      await reconciler().reconcile({ name: 'test-sidecarset' }, ctx);
      return c.writes.slice(from);
    },
    stored: (name: string) => c.get('Pod', 'ns', name) as Pod,
    /** Restarts every container whose status image differs from its spec image, as a kubelet would. */
    kubelet: () => restartChangedContainers(c),
  };
}

const podPatches = (writes: { verb: string; kind: string; body?: unknown }[]) =>
  writes.filter((x) => x.kind === 'Pod' && x.verb === 'patch').map((x) => x.body as JsonPatchOperation[]);
const images = (p: Pod) => p.spec?.containers?.map((x) => x.image).join(',');

describe('the upgrade over projected pods (docs/adr/0060-pod-projection.md)', () => {
  it('the cache holds the projection: the fields the program does not read are not there', () => {
    const w = world(sidecarSet(), whole(pod()));
    const cached = w.cached('pod-0');
    expect(isProjected(cached)).toBe(true);
    expect((cached.spec as Record<string, unknown>)['volumes']).toBeUndefined();
    expect(dropped(w.stored('pod-0'))).not.toEqual(dropped(cached));
  });

  it('cold upgrade: one patch per pod on the version read, naming only the image and annotations; nothing dropped is lost', async () => {
    const full = whole(pod());
    const w = world(sidecarSet(), full);
    const writes = await w.round();
    expect(writes.map((x) => `${x.verb} ${x.kind}`)).toEqual([
      'create ControllerRevision',
      'patchStatus SidecarSet',
      'patch Pod',
      'patchStatus Pod',
    ]);
    const [ops] = podPatches(writes);
    expect(ops![0]).toEqual({ op: 'replace', path: '/metadata/resourceVersion', value: '1' });
    expect(ops!.slice(1).map((o) => o.path.split('/').slice(0, 3).join('/'))).toEqual(
      expect.arrayContaining(['/metadata/annotations', '/spec/containers']),
    );
    expect(
      ops!.slice(1).every((o) => /^\/(metadata\/annotations|spec\/containers\/0\/image)/.test(o.path)),
    ).toBe(true);
    const after = w.stored('pod-0');
    expect(images(after)).toBe('cold-image:v2,nginx:1');
    expect(dropped(after)).toEqual(dropped(full));
    expect(after.metadata?.uid).toBe(full.metadata?.uid);
  });

  it('a native sidecar: the patch names the init container image only; its other fields are kept', async () => {
    const native = asNativePod(pod());
    const full = {
      ...native,
      spec: {
        ...native.spec,
        initContainers: native.spec!.initContainers!.map((c) => ({
          ...c,
          ports: [{ containerPort: 15001 }],
        })),
      },
    } as Pod;
    const w = world(asNativeSet(sidecarSet()), full);
    const writes = await w.round();
    const [ops] = podPatches(writes);
    const paths = ops!.slice(1).map((o) => o.path);
    expect(paths).toContain('/spec/initContainers/1/image');
    expect(paths.every((p) => /^\/(metadata\/annotations|spec\/initContainers\/1\/image)/.test(p))).toBe(
      true,
    );
    const after = w.stored('pod-0');
    expect(after.spec?.initContainers?.map((c) => [c.image, c['ports']])).toEqual([
      ['busybox:1', [{ containerPort: 15001 }]],
      ['cold-image:v2', [{ containerPort: 15001 }]],
    ]);
    expect(images(after)).toBe('nginx:1');
  });

  it('hot upgrade and the idle twin reset: both patches keep what the cache dropped', async () => {
    const full = whole(hotPod({ one: 'hot-image:v1', two: 'empty:1' }));
    const w = world(hotSidecarSet('hot-image:v2'), full);
    await w.round();
    expect(images(w.stored('hot-pod'))).toBe('hot-image:v1,hot-image:v2,nginx:1');
    w.kubelet();
    await w.round();
    expect(images(w.stored('hot-pod'))).toBe('empty:1,hot-image:v2,nginx:1');
    expect(w.events).toContain('ResetContainerSucceed');
    expect(dropped(w.stored('hot-pod'))).toEqual(dropped(full));
  });

  it('a stale cached pod: the patch is refused with a conflict, the pod read again and patched once more', async () => {
    const full = whole(pod());
    const w = world(sidecarSet(), full);
    w.stale.set('pod-0', structuredClone(full));
    // another writer changes the pod after the cache saw it
    await w.c.writer.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'pod-0' },
      { metadata: { labels: { other: 'x' } } },
      { type: 'merge' },
    );
    const writes = await w.round();
    const patches = podPatches(writes);
    const versions = patches.map((ops) => (ops[0] as { value?: unknown } | undefined)?.value);
    expect(versions).toHaveLength(2);
    expect(versions[0]).toBe('1');
    expect(versions[1]).not.toBe('1');
    const after = w.stored('pod-0');
    expect(after.metadata?.labels).toMatchObject({ other: 'x', app: 'nginx' });
    expect(images(after)).toBe('cold-image:v2,nginx:1');
    expect(dropped(after)).toEqual(dropped(full));
  });
});
