// The SidecarSet upgrade reconciler with a resources-only sidecar change (./resize.ts), without a cluster: the resize
// goes through pods/resize before the pod write, and a refused resize is told once and not sent again. The scenario
// test (apps/sidecarset/src/sidecarset-resize.int.test.ts) runs it against an API server and simulated nodes.
import { ForbiddenError, type EventRecorder, type KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, type RecordedWrite } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { SIDECARSET_HASH_KEY, SIDECARSET_HASH_WITHOUT_IMAGE_KEY } from './keys.js';
import { isPodSidecarUpdated, isPodStateConsistent } from './pod-state.js';
import { SidecarSetUpgradeReconciler } from './reconciler.js';
import { pod, sidecarSet } from './testing/fixtures.js';
import type { SidecarSetView } from './types.js';

const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
const res = (cpu: string) => ({ requests: { cpu: '100m' }, limits: { cpu } });

function setAt(version: number, cpu: string): SidecarSetView {
  const set = sidecarSet(
    { containers: [{ name: 'cold-sidecar', image: 'cold-image:v1', resources: res(cpu) }] },
    `h${version}`,
  );
  set.metadata!.annotations![SIDECARSET_HASH_WITHOUT_IMAGE_KEY] = `without-${version}`;
  return set;
}

function world() {
  const c = new MemoryCluster();
  const events: { reason: string; message: string }[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string, message: string) => void events.push({ reason, message }),
    warning: async (_o: KubeObject, reason: string, message: string) => void events.push({ reason, message }),
  } as unknown as EventRecorder;
  const r = new SidecarSetUpgradeReconciler({
    client: c.writer,
    sidecarsets: c.reader('SidecarSet'),
    pods: c.reader('Pod'),
    revisions: c.reader('ControllerRevision'),
    controllerNamespace: 'kruise-system',
    expectations: new Expectations(),
    recorder,
  });
  const p = pod({ name: 'pod-0' });
  p.metadata!.annotations![SIDECARSET_HASH_KEY] = JSON.stringify({ 'test-sidecarset': { hash: 'h1' } });
  p.spec!.containers![0] = { ...p.spec!.containers![0]!, image: 'cold-image:v1', resources: res('500m') };
  c.add(setAt(1, '500m'), p);
  return {
    c,
    events,
    round: async () => {
      const from = c.writes.length;
      await r.reconcile({ name: 'test-sidecarset' }, ctx);
      return c.writes.slice(from);
    },
  };
}

const summary = (writes: RecordedWrite[]) => writes.map((w) => `${w.verb} ${w.kind}`);
const isResize = (w: RecordedWrite) =>
  w.verb === 'patch' && !!(w.body as { spec?: unknown } | undefined)?.spec && !Array.isArray(w.body);

describe('SidecarSet resize in the upgrade reconciler', () => {
  it('a CPU limit change: pods/resize on the version read, then the pod write with both hash entries', async () => {
    const w = world();
    expect(summary(await w.round())).toEqual(['create ControllerRevision', 'patchStatus SidecarSet']);
    w.c.add(setAt(2, '1'));
    const writes = await w.round();
    expect(summary(writes)).toEqual([
      'create ControllerRevision',
      'patchStatus SidecarSet',
      'patch Pod',
      'patch Pod',
      'patchStatus Pod',
    ]);
    expect(writes[2]!.body).toEqual({
      metadata: { resourceVersion: expect.any(String) as unknown },
      spec: { containers: [{ name: 'cold-sidecar', resources: { limits: { cpu: '1' } } }] },
    });
    const annotations = w.c.all<Pod>('Pod')[0]!.metadata!.annotations!;
    expect(JSON.parse(annotations[SIDECARSET_HASH_KEY]!)['test-sidecarset'].hash).toBe('h2');
    expect(JSON.parse(annotations[SIDECARSET_HASH_WITHOUT_IMAGE_KEY]!)['test-sidecarset'].hash).toBe(
      'without-2',
    );
    expect(w.events.filter((e) => e.reason === 'NotUpgradablePods')).toEqual([]);
  });

  it('a resize the API server refuses: one ResizeInfeasible event, not sent again, not reported not upgradable', async () => {
    const w = world();
    await w.round();
    w.c.failOn((x) =>
      isResize(x)
        ? new ForbiddenError({
            status: 403,
            reason: 'Forbidden',
            serverMessage: 'pods "pod-0" is forbidden: node didn\'t have enough allocatable resources: cpu',
          })
        : undefined,
    );
    w.c.add(setAt(2, '64'));
    const first = await w.round();
    expect(first.filter(isResize)).toHaveLength(1);
    const again = await w.round();
    expect(again.filter(isResize)).toHaveLength(0);
    expect(w.events.map((e) => e.reason)).toEqual(['ResizeInfeasible']);
    expect(w.events[0]!.message).toMatch(
      /ns\/pod-0 cannot be resized in place: .*allocatable resources: cpu/,
    );
    const annotations = w.c.all<Pod>('Pod')[0]!.metadata!.annotations!;
    expect(JSON.parse(annotations[SIDECARSET_HASH_KEY]!)['test-sidecarset'].hash).toBe('h1');
  });

  it('a resize the kubelet holds as Infeasible: one ResizeInfeasible event, the pod not consistent', async () => {
    const w = world();
    await w.round();
    w.c.add(setAt(2, '1'));
    await w.round();
    const p = w.c.all<Pod>('Pod')[0]!;
    w.c.add({
      ...p,
      spec: {
        ...p.spec,
        containers: [{ ...p.spec!.containers![0]!, resources: res('1') }, p.spec!.containers![1]!],
      },
      status: {
        ...p.status,
        conditions: [
          ...(p.status?.conditions ?? []),
          {
            type: 'PodResizePending',
            status: 'True',
            reason: 'Infeasible',
            message: "Node didn't have enough capacity: cpu",
          },
        ],
      },
    } as Pod);
    await w.round();
    await w.round();
    expect(w.events.map((e) => e.reason)).toEqual(['ResizeInfeasible']);
    expect(w.events[0]!.message).toMatch(
      /ns\/pod-0 cannot be resized in place: Node didn't have enough capacity/,
    );
    // updated (the SidecarSet's hash), but not consistent: not updated-ready, unavailable for maxUnavailable
    const set = w.c.get('SidecarSet', undefined, 'test-sidecarset') as SidecarSetView;
    const held = w.c.all<Pod>('Pod')[0]!;
    expect([isPodSidecarUpdated(set, held), isPodStateConsistent(set, held)]).toEqual([true, false]);
  });
});
