// The Advanced StatefulSet over pods as its program's cache holds them (ASTS_POD_FIELDS, docs/adr/0060-pod-projection.md):
// of each volume the cache keeps only `name` and `persistentVolumeClaim.claimName`. The identity and storage checks
// must answer over such pods what they answer over whole ones, and no write may carry a volume from the trimmed copy:
// the identity fix of a pod whose storage matches touches only its metadata, and the storage fix is built from the
// pod read whole from the API server (the scenario asts-identity.int.test.ts shows the API server then refuses the
// change of an existing pod's volumes, as upstream's Update is refused).
import { ASTS_POD_FIELDS, projection } from '@regatta/bus';
import { type EventRecorder, type JsonPatchOperation, type KubeObject, isProjected } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, type ObjectReader } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { POD_NAME_LABEL, identityMatches, storageMatches } from './planning/index.js';
import { StatefulSetReconciler } from './reconciler.js';
import type { StatefulSetObject } from './statefulset-object.js';

const NS = 'ns';
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
const project = projection(ASTS_POD_FIELDS);
const claimTemplate = (name: string) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const SCRATCH = { name: 'scratch', emptyDir: { sizeLimit: '1Mi' } };

const set = (claims: string[]): StatefulSetObject =>
  ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: NS, uid: 'sts-uid', generation: 1 },
    spec: {
      replicas: 2,
      serviceName: 'web',
      podManagementPolicy: 'Parallel',
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1' }], volumes: [SCRATCH] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, podUpdatePolicy: 'ReCreate' } },
      volumeClaimTemplates: claims.map(claimTemplate),
    },
  }) as StatefulSetObject;

/** A reader handing out its objects projected, as the program's bus cache does. */
function projected(r: ObjectReader<KubeObject>): ObjectReader<KubeObject> {
  return {
    get: (ns, name) => {
      const o = r.get(ns, name);
      return o && project(o);
    },
    byIndex: (index, value) => r.byIndex(index, value).map(project),
    list: (opts) => r.list(opts).map(project),
  };
}

function world() {
  const c = new MemoryCluster();
  const events: string[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string, message: string) =>
      void events.push(`${reason}: ${message}`),
    warning: async (_o: KubeObject, reason: string, message: string) =>
      void events.push(`${reason}: ${message}`),
  } as unknown as EventRecorder;
  const round = async () => {
    const from = c.writes.length;
    await new StatefulSetReconciler({
      client: c.writer,
      statefulsets: c.reader('StatefulSet'),
      pods: projected(c.reader('Pod')),
      pvcs: c.reader('PersistentVolumeClaim'),
      revisions: c.reader('ControllerRevision'),
      expectations: new Expectations(),
      recorder,
      now: () => new Date('2026-12-05T08:00:00Z'),
    }).reconcile({ namespace: NS, name: 'web' }, ctx);
    return c.writes.slice(from);
  };
  const pod = (name: string) => c.get<Pod>('Pod', NS, name)!;
  return { c, events, round, pod };
}

/** Two pods of the set with the claim `data`, as stored (whole). */
async function twoPods() {
  const w = world();
  w.c.add(set(['data']));
  await w.round();
  const pods = w.c.all<Pod>('Pod');
  expect(pods.map((p) => p.metadata?.name).sort()).toEqual(['web-0', 'web-1']);
  // the kubelet: running and ready (a pod with no phase is one the API server has not made yet)
  const ready = { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-05T07:00:00Z' };
  for (const p of pods) w.c.add({ ...p, status: { phase: 'Running', conditions: [ready] } } as Pod);
  await w.round();
  return w;
}

const podWithVolumes = (name: string, volumes: unknown[]): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels: { [POD_NAME_LABEL]: name } },
    spec: { volumes },
  }) as Pod;

describe('identity and storage checks over projected pods', () => {
  const claim = (claimName: string, extra: Record<string, unknown> = {}) => ({
    name: 'data',
    persistentVolumeClaim: { claimName, ...extra },
  });
  const cases: [string, unknown[], boolean][] = [
    ['the claim mounted', [claim('data-web-0'), SCRATCH], true],
    ['the claim mounted read-only', [claim('data-web-0', { readOnly: true })], true],
    ["another pod's claim", [claim('data-web-1'), SCRATCH], false],
    ['no volume of the name', [SCRATCH], false],
    ['a volume of the name that is no claim', [{ name: 'data', emptyDir: {} }], false],
    ['no volumes', [], false],
  ];
  it.each(cases)('%s: the same answer', (_what, volumes, matches) => {
    const whole = podWithVolumes('web-0', volumes);
    const cached = project(whole) as Pod;
    expect(storageMatches(set(['data']), whole)).toBe(matches);
    expect(storageMatches(set(['data']), cached)).toBe(matches);
    expect(identityMatches(set(['data']), cached)).toBe(identityMatches(set(['data']), whole));
  });

  it("keeps of each volume only what is read: the cache's copy is trimmed", () => {
    const cached = project(
      podWithVolumes('web-0', [claim('data-web-0', { readOnly: true }), SCRATCH]),
    ) as Pod;
    expect(JSON.parse(JSON.stringify(cached.spec?.['volumes']))).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
      { name: 'scratch' },
    ]);
    expect(isProjected((cached.spec?.['volumes'] as KubeObject[])[1])).toBe(true);
  });
});

describe('the fixes of existing pods read through ASTS_POD_FIELDS', () => {
  it('identity: the pod-name label comes back by a patch of metadata only; the volumes are not touched', async () => {
    const w = await twoPods();
    const before = w.pod('web-0');
    const { [POD_NAME_LABEL]: _gone, ...labels } = before.metadata!.labels!;
    w.c.add({ ...before, metadata: { ...before.metadata, labels } });
    const writes = (await w.round()).filter((x) => x.kind === 'Pod');
    expect(writes.map((x) => `${x.verb} ${x.name}`)).toEqual(['patch web-0']);
    const ops = writes[0]!.body as JsonPatchOperation[];
    expect(ops.every((op) => op.path.startsWith('/metadata/'))).toBe(true);
    expect(w.pod('web-0').metadata!.labels![POD_NAME_LABEL]).toBe('web-0');
    expect(w.pod('web-0').spec).toEqual(before.spec);
    expect(w.events).toContain('SuccessfulUpdate: update Pod web-0 in StatefulSet web successful');
  });

  it('identity of a pod whose storage matches, its volumes in another order: still only metadata is written', async () => {
    const w = await twoPods();
    const before = w.pod('web-0');
    const { [POD_NAME_LABEL]: _gone, ...labels } = before.metadata!.labels!;
    const volumes = [...(before.spec!['volumes'] as unknown[])].reverse(); // the template's first, then the claim
    w.c.add({
      ...before,
      metadata: { ...before.metadata, labels },
      spec: { ...before.spec!, volumes },
    } as Pod);
    const writes = (await w.round()).filter((x) => x.kind === 'Pod');
    expect((writes[0]!.body as JsonPatchOperation[]).every((op) => op.path.startsWith('/metadata/'))).toBe(
      true,
    );
    expect(w.pod('web-0').spec!['volumes']).toEqual(volumes);
  });

  it('storage: the missing claim is made and the fix is built from the pod read whole, never the trimmed copy', async () => {
    const w = await twoPods();
    const stored = w.c.get<StatefulSetObject>('StatefulSet', NS, 'web')!;
    w.c.add({
      ...set(['data', 'logs']),
      ...(stored.status ? { status: stored.status } : {}),
    } as StatefulSetObject);
    const writes = await w.round();
    expect(writes.filter((x) => x.verb === 'create').map((x) => `${x.kind} ${x.name}`)).toEqual(
      expect.arrayContaining(['PersistentVolumeClaim logs-web-0', 'PersistentVolumeClaim logs-web-1']),
    );
    expect(writes.filter((x) => x.kind === 'Pod').map((x) => `${x.verb} ${x.name}`)).toContain('patch web-0');
    expect(w.events.filter((e) => e.startsWith('FailedUpdate'))).toEqual([]);
    // what was sent, applied to the stored pod (this memory cluster does not refuse it as the API server does):
    // the template's volume is still whole, the claims first as upstream's `updateStorage` puts them
    expect(w.pod('web-0').spec!['volumes']).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
      { name: 'logs', persistentVolumeClaim: { claimName: 'logs-web-0' } },
      SCRATCH,
    ]);
  });

  it("storage: a volume of the claim's name that is no claim is replaced whole, as read from the API server", async () => {
    const w = await twoPods();
    const before = w.pod('web-0');
    // an emptyDir under the claim's name (the cache keeps of it only the name)
    w.c.add({
      ...before,
      spec: { ...before.spec!, volumes: [{ name: 'data', emptyDir: {} }, SCRATCH] },
    } as Pod);
    await w.round();
    expect(w.events.filter((e) => e.startsWith('FailedUpdate'))).toEqual([]);
    expect(w.pod('web-0').spec!['volumes']).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
      SCRATCH,
    ]);
  });
});
