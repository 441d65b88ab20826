import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { type HoldFacts, activeHolds, syncHolds } from './rollout-holds.js';
import { RolloutTracer, parseRolloutRecord } from './rollout-tracer.js';

const facts = (over: Partial<HoldFacts>): HoldFacts => ({
  rolling: true,
  paused: false,
  replicas: 5,
  updatedReplicas: 0,
  updatedReadyReplicas: 0,
  expectedUpdatedReplicas: 5,
  ...over,
});

describe('activeHolds', () => {
  it.each([
    ['not rolling, even if paused', facts({ rolling: false, paused: true }), []],
    ['rolling, nothing holds it', facts({ updatedReplicas: 2 }), []],
    ['paused', facts({ paused: true }), ['paused']],
    [
      'paused with the partition reached: the pause is what holds it',
      facts({ paused: true, expectedUpdatedReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2 }),
      ['paused'],
    ],
    [
      'partition 3 of 5 reached, ready',
      facts({ expectedUpdatedReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2 }),
      ['partition'],
    ],
    [
      'partition reached but the updated pods are not ready yet',
      facts({ expectedUpdatedReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 1 }),
      [],
    ],
    [
      'partition 0 (all expected)',
      facts({ expectedUpdatedReplicas: 5, updatedReplicas: 4, updatedReadyReplicas: 4 }),
      [],
    ],
  ])('%s', (_name, f, want) => {
    expect([...activeHolds(f)]).toEqual(want);
  });
});

describe('syncHolds', () => {
  const now = new Date('2026-12-02T12:00:10.000Z');
  it('a hold begins now, keeps its start while in force, and ends with its start', () => {
    const begun = syncHolds(undefined, new Set(['paused']), now);
    expect(begun).toEqual({ open: { paused: now.toISOString() }, ended: [], changed: true });
    const kept = syncHolds(begun.open, new Set(['paused']), new Date('2026-12-02T12:05:00Z'));
    expect(kept).toEqual({ open: { paused: now.toISOString() }, ended: [], changed: false });
    const ended = syncHolds(kept.open, new Set(['partition']), new Date('2026-12-02T12:06:00Z'));
    expect(ended).toEqual({
      open: { partition: '2026-12-02T12:06:00.000Z' },
      ended: [{ hold: 'paused', start: now.toISOString() }],
      changed: true,
    });
  });
  it('nothing recorded, nothing in force: no change', () => {
    expect(syncHolds({}, new Set(), now)).toEqual({ open: {}, ended: [], changed: false });
  });
});

describe('RolloutTracer', () => {
  const setup = () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    return { exporter, provider, tracer: new RolloutTracer(provider.getTracer('test')) };
  };
  const attrs = {
    namespace: 'ns',
    name: 'cs',
    from: 'r1',
    to: 'r2',
    strategy: 'InPlaceIfPossible',
    replicas: 3,
    partition: '0',
  };

  it('pause, partition hold and hook wait are children of the rollout, with their own start and end', async () => {
    const { exporter, provider, tracer } = setup();
    const t0 = new Date('2026-12-02T12:00:00Z');
    const record = tracer.begin('ns/cs', attrs, t0);
    tracer.hold(record, 'paused', new Date('2026-12-02T12:00:01Z'), new Date('2026-12-02T12:00:05Z'));
    tracer.hookWait(
      record,
      'cs-abcde',
      'preDelete',
      new Date('2026-12-02T12:00:06Z'),
      new Date('2026-12-02T12:00:09Z'),
    );
    tracer.finish('ns/cs', record, new Date('2026-12-02T12:00:10Z'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'cloneset.rollout')!;
    const pause = spans.find((s) => s.name === 'cloneset.pause')!;
    const hook = spans.find((s) => s.name === 'cloneset.hook-wait')!;
    for (const child of [pause, hook]) {
      expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    }
    expect(pause.attributes).toMatchObject({ 'cloneset.hold': 'paused', 'cloneset.revision.to': 'r2' });
    expect(pause.duration).toEqual([4, 0]);
    expect(hook.attributes).toMatchObject({ 'k8s.pod.name': 'cs-abcde', 'cloneset.lifecycle.hook': 'preDelete' });
  });

  it('the fresher record wins: this process after its own write, the stored one after another process wrote', () => {
    const { tracer } = setup();
    const begun = tracer.begin('ns/cs', attrs, new Date('2026-12-02T12:00:00Z'));
    expect(tracer.current('ns/cs', undefined)).toBe(begun);
    const held = tracer.update('ns/cs', { ...begun, holds: { paused: '2026-12-02T12:00:01.000Z' } });
    expect(tracer.current('ns/cs', begun)).toBe(held);
    const elsewhere = { ...held, holds: {}, seq: (held.seq ?? 0) + 5 };
    expect(tracer.current('ns/cs', elsewhere)).toBe(elsewhere);
  });

  it('stores holds and seq in the annotation and reads them back', () => {
    const { tracer } = setup();
    const begun = tracer.begin('ns/cs', attrs, new Date('2026-12-02T12:00:00Z'));
    const held = tracer.update('ns/cs', { ...begun, holds: { partition: '2026-12-02T12:00:03.000Z' } });
    expect(parseRolloutRecord(JSON.stringify(held))).toEqual(held);
    expect(
      parseRolloutRecord(JSON.stringify({ ...held, holds: { partition: 7, bogus: 'x' } })),
    ).not.toHaveProperty('holds');
  });
});
