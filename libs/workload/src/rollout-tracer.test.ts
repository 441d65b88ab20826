import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { RolloutTracer, withinRollout, type RolloutRecord } from './rollout-tracer.js';

const record = (start: string): RolloutRecord => ({ traceparent: '', from: 'r1', to: 'r2', start, seq: 1 });

describe('withinRollout (a child span never starts before its rollout)', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    [
      'a start after the rollout began is kept',
      '12:00:00.300Z',
      '12:00:01.000Z',
      '12:00:02.000Z',
      '12:00:01.000Z',
    ],
    [
      'a start truncated to the second moves to the rollout start',
      '12:00:00.300Z',
      '12:00:00.000Z',
      '12:00:02.000Z',
      '12:00:00.300Z',
    ],
    ['never after the end', '12:00:00.300Z', '12:00:00.000Z', '12:00:00.100Z', '12:00:00.100Z'],
  ])('%s', (_what, rolloutStart, start, end, want) => {
    const day = '2026-12-07T';
    expect(withinRollout(record(day + rolloutStart), at(day + start), at(day + end)).toISOString()).toBe(
      day + want,
    );
  });
  it('keeps the start when the record has no readable start', () => {
    const start = at('2026-12-07T12:00:00Z');
    expect(withinRollout(record('not a time'), start, start)).toBe(start);
  });
});

describe('RolloutTracer', () => {
  it("a pod update whose timestamp is whole seconds starts inside its rollout's root span", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const tracer = new RolloutTracer(provider.getTracer('t'));
    const begun = new Date('2026-12-07T12:00:00.251Z');
    const attrs = {
      namespace: 'ns',
      name: 'web',
      from: 'r1',
      to: 'r2',
      strategy: 'InPlaceIfPossible',
      replicas: 2,
      partition: '0',
    };
    const r = tracer.begin('ns/web', attrs, begun);
    // the pod's in-place updateTimestamp as the API server keeps it: 12:00:00, 251 ms before the root began
    tracer.podUpdate(
      r,
      'web-a',
      'in-place',
      new Date('2026-12-07T12:00:00Z'),
      new Date('2026-12-07T12:00:03Z'),
    );
    tracer.finish('ns/web', r, new Date('2026-12-07T12:00:04Z'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'cloneset.rollout')!;
    const pod = spans.find((s) => s.name === 'cloneset.pod-update')!;
    const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;
    expect(ms(pod.startTime)).toBeGreaterThanOrEqual(ms(root.startTime));
    expect(ms(pod.startTime) - ms(root.startTime)).toBe(0);
  });
});
