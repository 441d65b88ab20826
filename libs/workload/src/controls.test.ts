import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ConflictError, type KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { claim } from './claim-control.js';
import { RolloutTraceControl } from './rollout-trace-control.js';
import { ROLLOUT_TRACE_ANNOTATION, RolloutTracer } from './rollout-tracer.js';
import { syncWorkloadProgressing } from './progressing.js';
import { writeStatus } from './status-writer.js';
import { MemoryCluster } from './testing/memory-cluster.js';

const KIND = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const log = { debug: () => undefined, info: () => undefined, warn: () => undefined };

const owner = (): KubeObject => ({ ...KIND, metadata: { name: 'web', namespace: 'ns', uid: 'owner-uid' } });
const pod = (name: string, labels: Record<string, string>, ownerUid?: string): KubeObject => ({
  ...POD,
  metadata: {
    name,
    namespace: 'ns',
    uid: `uid-${name}`,
    labels,
    ...(ownerUid
      ? {
          ownerReferences: [
            { apiVersion: KIND.apiVersion, kind: KIND.kind, name: 'web', uid: ownerUid, controller: true },
          ],
        }
      : {}),
  },
});

describe('claim', () => {
  const setup = () => {
    const c = new MemoryCluster();
    c.add(
      owner(),
      pod('kept', { app: 'web' }, 'owner-uid'),
      pod('orphan', { app: 'web' }),
      pod('stray', { app: 'x' }, 'owner-uid'),
    );
    const pods = c.reader('Pod');
    const written: string[] = [];
    const input = {
      owner: owner(),
      ownerKind: KIND,
      kind: POD,
      selector: { matchLabels: { app: 'web' } },
      owned: pods.byIndex('ownerUid', 'owner-uid'),
      orphans: pods.list({ filter: (p) => !p.metadata?.ownerReferences }),
    };
    return {
      c,
      input,
      deps: { client: c.writer, log, onWritten: (o: KubeObject) => written.push(o.metadata?.name ?? '') },
      written,
    };
  };

  it('adopts a matching orphan (after a live read of the owner) and releases a pod that stopped matching', async () => {
    const { c, input, deps, written } = setup();
    const claimed = await claim(deps, input);
    expect(claimed.map((p) => p.metadata?.name).sort()).toEqual(['kept', 'orphan']);
    expect(c.writes.map((w) => `${w.verb} ${w.kind} ${w.name}`)).toEqual([
      'patch Pod orphan',
      'patch Pod stray',
    ]);
    expect(c.get('Pod', 'ns', 'orphan')?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'StatefulSet',
      uid: 'owner-uid',
      controller: true,
    });
    expect(c.get('Pod', 'ns', 'stray')?.metadata?.ownerReferences).toEqual([]);
    expect(written).toEqual(['orphan']);
  });

  it('adopts nothing when the live owner is another object of the same name', async () => {
    const { c, input, deps } = setup();
    await c.writer.delete({ ...KIND, namespace: 'ns', name: 'web' });
    c.add({ ...owner(), metadata: { ...owner().metadata, uid: 'recreated' } });
    const claimed = await claim(deps, input);
    expect(claimed.map((p) => p.metadata?.name)).toEqual(['kept']);
    expect(c.get('Pod', 'ns', 'orphan')?.metadata?.ownerReferences).toBeUndefined();
  });

  it('leaves a pod that changed meanwhile (conflict) to the next round', async () => {
    const { c, input, deps } = setup();
    c.failOn((w) =>
      w.verb === 'patch' ? new ConflictError({ status: 409, serverMessage: 'changed' }) : undefined,
    );
    const claimed = await claim(deps, input);
    expect(claimed.map((p) => p.metadata?.name)).toEqual(['kept']);
  });
});

describe('claim with merge patches (custom resources)', () => {
  const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
  const set = (name: string, labels: Record<string, string>, ownerUid?: string): KubeObject => ({
    ...pod(name, labels, ownerUid),
    ...CS,
  });
  const setup = () => {
    const c = new MemoryCluster();
    c.add(owner(), set('orphan', { app: 'web' }), set('stray', { app: 'x' }, 'owner-uid'));
    const sets = c.reader('CloneSet');
    const input = {
      owner: owner(),
      ownerKind: KIND,
      kind: CS,
      selector: { matchLabels: { app: 'web' } },
      owned: sets.byIndex('ownerUid', 'owner-uid'),
      orphans: sets.list({ filter: (p) => !p.metadata?.ownerReferences }),
      patchType: 'merge' as const,
    };
    return { c, input, deps: { client: c.writer, log } };
  };

  it('adopts and releases with the whole list, guarded by the resourceVersion', async () => {
    const { c, input, deps } = setup();
    const claimed = await claim(deps, input);
    expect(claimed.map((o) => o.metadata?.name)).toEqual(['orphan']);
    const adopt = c.written('patch', 'CloneSet').find((w) => w.name === 'orphan')?.body as {
      metadata: { resourceVersion?: string; ownerReferences: unknown[] };
    };
    expect(adopt.metadata.resourceVersion).toBeDefined();
    expect(adopt.metadata.ownerReferences).toEqual([expect.objectContaining({ uid: 'owner-uid', controller: true })]);
    expect(c.get('CloneSet', 'ns', 'stray')?.metadata?.ownerReferences).toBeUndefined();
  });

  it('retries a stale object on a fresh read, and counts one adopted meanwhile as claimed', async () => {
    const { c, input, deps } = setup();
    // the cache is stale: the orphan changed on the server (a status write)
    await c.writer.patch({ ...CS, namespace: 'ns', name: 'orphan' }, { status: { replicas: 1 } }, { type: 'merge' });
    expect((await claim(deps, input)).map((o) => o.metadata?.name)).toEqual(['orphan']);
    expect(c.written('patch', 'CloneSet').filter((w) => w.name === 'orphan')).toHaveLength(3);
    // claimed again from the same stale view: the fresh read shows it adopted already
    const again = await claim(deps, { ...input, owned: [] });
    expect(again.map((o) => o.metadata?.name)).toEqual(['orphan']);
  });
});

describe('writeStatus', () => {
  const changed = (stored: unknown, next: { replicas: number }) =>
    (stored as { replicas?: number } | undefined)?.replicas !== next.replicas;

  it('writes only when the owned fields changed, and not for a workload gone meanwhile', async () => {
    const c = new MemoryCluster();
    const w = { ...owner(), status: { replicas: 2 } };
    c.add(w);
    expect(await writeStatus(c.writer, { workload: w, kind: KIND, status: { replicas: 2 }, changed })).toBe(
      false,
    );
    expect(await writeStatus(c.writer, { workload: w, kind: KIND, status: { replicas: 3 }, changed })).toBe(
      true,
    );
    expect(c.written('patchStatus')).toEqual([
      {
        verb: 'patchStatus',
        kind: 'StatefulSet',
        namespace: 'ns',
        name: 'web',
        body: { status: { replicas: 3 } },
      },
    ]);
    await c.writer.delete({ ...KIND, namespace: 'ns', name: 'web' });
    expect(await writeStatus(c.writer, { workload: w, kind: KIND, status: { replicas: 4 }, changed })).toBe(
      false,
    );
  });

  it('retries a conflict', async () => {
    const c = new MemoryCluster();
    const w = { ...owner(), status: { replicas: 2 } };
    c.add(w);
    let fails = 1;
    c.failOn(() => (fails-- > 0 ? new ConflictError({ status: 409, serverMessage: 'changed' }) : undefined));
    expect(await writeStatus(c.writer, { workload: w, kind: KIND, status: { replicas: 3 }, changed })).toBe(
      true,
    );
    expect(c.written('patchStatus')).toHaveLength(2);
  });
});

describe('RolloutTraceControl', () => {
  it('begins a rollout with spans named after the workload, stores the record, follows holds and ends it', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const c = new MemoryCluster();
    c.add(owner());
    let now = new Date('2026-12-02T12:00:00Z');
    const traces = new RolloutTraceControl({
      client: c.writer,
      kind: KIND,
      tracer: new RolloutTracer(provider.getTracer('t'), { prefix: 'statefulset' }),
      now: () => now,
    });
    const attrs = { from: 'r1', to: 'r2', strategy: 'RollingUpdate', replicas: 2, partition: '1' };
    const record = await traces.sync(owner(), 'ns/web', attrs, log);
    expect(record?.to).toBe('r2');
    const stored = c.get('StatefulSet', 'ns', 'web')?.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION];
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ from: 'r1', to: 'r2' });
    // the same revision again: the same record, no new write
    expect(await traces.sync(c.get('StatefulSet', 'ns', 'web')!, 'ns/web', attrs, log)).toEqual(record);
    expect(c.written('patch')).toHaveLength(1);

    const progress = {
      updateRevision: 'r2',
      currentRevision: 'r1',
      replicas: 2,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
      expectedUpdatedReplicas: 1,
      paused: false,
    };
    now = new Date('2026-12-02T12:00:05Z');
    await traces.follow(owner(), 'ns/web', record, progress, log);
    const held = traces.current(c.get('StatefulSet', 'ns', 'web')!, 'ns/web');
    expect(held?.holds?.partition).toBe(now.toISOString());
    now = new Date('2026-12-02T12:00:09Z');
    await traces.follow(
      owner(),
      'ns/web',
      held,
      {
        ...progress,
        currentRevision: 'r2',
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        expectedUpdatedReplicas: 2,
      },
      log,
    );
    expect(traces.current(c.get('StatefulSet', 'ns', 'web')!, 'ns/web')?.done).toBe(true);
    await provider.forceFlush();
    const names = exporter
      .getFinishedSpans()
      .map((s) => s.name)
      .sort();
    expect(names).toEqual(['statefulset.partition-hold', 'statefulset.rollout']);
  });

  it('a change trace begins per generation, even when the revision stays, and carries its child spans', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const c = new MemoryCluster();
    const at = (generation: number): KubeObject => ({ ...owner(), metadata: { ...owner().metadata, generation } });
    c.add(at(1));
    const traces = new RolloutTraceControl({
      client: c.writer,
      kind: KIND,
      tracer: new RolloutTracer(provider.getTracer('t'), { prefix: 'uniteddeployment' }),
      now: () => new Date('2026-12-02T12:00:00Z'),
    });
    const attrs = { from: 'r1', to: 'r1', strategy: 'Manual', replicas: 3, partition: '{}' };
    const first = await traces.syncChange(at(1), 'ns/web', attrs, log);
    expect(first).toMatchObject({ generation: 1, to: 'r1' });
    // the same generation again (another round): the same trace
    expect(await traces.syncChange(at(1), 'ns/web', attrs, log)).toEqual(first);
    traces.span(first, 'subset-update', new Date(), new Date(), { 'uniteddeployment.subset': 'a' });
    // a scale change: same revision, next generation, a new trace that supersedes the open one
    const second = await traces.syncChange(at(2), 'ns/web', { ...attrs, replicas: 6 }, log);
    expect(second?.generation).toBe(2);
    expect(second?.traceparent.split('-')[1]).not.toBe(first?.traceparent.split('-')[1]);
    const stored = c.get('StatefulSet', 'ns', 'web')?.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION];
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ generation: 2 });
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans().map((s) => [s.name, s.spanContext().traceId === first?.traceparent.split('-')[1]]);
    expect(spans).toEqual([
      ['uniteddeployment.subset-update', true],
      ['uniteddeployment.rollout', true],
    ]);
  });

  it('without a tracer only reads the stored record', async () => {
    const c = new MemoryCluster();
    c.add(owner());
    const traces = new RolloutTraceControl({ client: c.writer, kind: KIND, now: () => new Date() });
    expect(
      await traces.sync(
        owner(),
        'ns/web',
        { from: 'a', to: 'b', strategy: 'x', replicas: 1, partition: '0' },
        log,
      ),
    ).toBeUndefined();
    expect(c.writes).toEqual([]);
  });
});

describe('syncWorkloadProgressing', () => {
  const vocabulary = {
    kind: 'StatefulSet',
    reasons: {
      Available: 'StatefulSetAvailable',
      Paused: 'StatefulSetPaused',
      PartitionAvailable: 'ProgressPartitionAvailable',
      DeadlineExceeded: 'ProgressDeadlineExceeded',
      Updated: 'StatefulSetUpdated',
    },
  };
  const now = new Date('2026-12-02T12:00:00Z');
  const facts = {
    currentRevision: 'a',
    updateRevision: 'b',
    replicas: 2,
    updatedReplicas: 1,
    updatedAvailableReplicas: 1,
    expectedUpdatedReplicas: 2,
  };

  it('names the workload kind in its reasons and messages, and asks for a look at the deadline', () => {
    const out = syncWorkloadProgressing(
      { progressDeadlineSeconds: 60, paused: false, specReplicas: 2, status: facts, conditions: [], now },
      vocabulary,
    );
    expect(out.conditions).toEqual([
      {
        type: 'Progressing',
        status: 'True',
        reason: 'StatefulSetUpdated',
        message: 'StatefulSet is progressing',
        lastUpdateTime: '2026-12-02T12:00:00Z',
        lastTransitionTime: '2026-12-02T12:00:00Z',
      },
    ]);
    expect(out.requeueAfterMs).toBe(61_000);
    // the same again later: nothing changes (no status write)
    const again = syncWorkloadProgressing(
      {
        progressDeadlineSeconds: 60,
        paused: false,
        specReplicas: 2,
        status: facts,
        conditions: out.conditions,
        now: new Date('2026-12-02T12:00:30Z'),
      },
      vocabulary,
    );
    expect(again.conditions).toEqual(out.conditions);
  });

  it('without a deadline the condition is removed', () => {
    const out = syncWorkloadProgressing(
      {
        progressDeadlineSeconds: null,
        paused: false,
        specReplicas: 2,
        status: facts,
        conditions: [{ type: 'Progressing', status: 'True' }],
        now,
      },
      vocabulary,
    );
    expect(out).toEqual({ conditions: [], requeueAfterMs: 0 });
  });
});
