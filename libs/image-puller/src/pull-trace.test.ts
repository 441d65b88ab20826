import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { jobTraceContext, pullSpanParent } from './pull-trace.js';
import { MemoryRuntime } from './testing/memory-runtime.js';
import { PullWorker } from './worker.js';

const UID = '6f1c2a4e-9b3d-4c7a-8e21-0d5f3b9a7c10';
const UID2 = '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';
const job = (uid: string, name = 'warm') => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'ImagePullJob',
  namespace: 'ns',
  name,
  uid,
});

describe('jobTraceContext: a job trace id is its uid', () => {
  it.each([
    [UID, '6f1c2a4e9b3d4c7a8e210d5f3b9a7c10'],
    [UID.toUpperCase(), '6f1c2a4e9b3d4c7a8e210d5f3b9a7c10'],
    ['not-a-uuid', undefined],
    ['', undefined],
    [undefined, undefined],
    ['00000000-0000-0000-0000-000000000000', undefined],
  ])('%s → %s', (uid, traceId) => {
    expect(jobTraceContext(uid)?.traceId).toBe(traceId);
  });

  it('the first job owner is the parent, the others are links; other owners are ignored', () => {
    const { parent, links } = pullSpanParent([{ kind: 'CloneSet', uid: UID2 }, job(UID), job(UID2, 'other')]);
    expect(trace.getSpanContext(parent)?.traceId).toBe('6f1c2a4e9b3d4c7a8e210d5f3b9a7c10');
    expect(links.map((l) => l.context.traceId)).toEqual(['0a9b8c7d6e5f4a3b9c2d1e0f9a8b7c6d']);
    expect(trace.getSpanContext(pullSpanParent(undefined).parent)).toBeUndefined();
  });
});

describe('PullWorker span', () => {
  async function pull(failPull: boolean) {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const runtime = new MemoryRuntime(failPull ? [new Error('not found')] : []);
    const w = new PullWorker(
      'nginx',
      { tag: '1.20', version: 2, ownerReferences: [job(UID)], pullPolicy: { backoffLimit: 0 } },
      undefined,
      [],
      {
        runtime,
        update: () => undefined,
        events: () => undefined,
        node: 'node1',
        tracer: provider.getTracer('test'),
        sleep: async () => undefined,
      },
    );
    await w.done;
    return exporter.getFinishedSpans();
  }

  it('one span per pull, in the job trace, with the node, image, jobs and phase', async () => {
    const [span, ...more] = await pull(false);
    expect(more).toEqual([]);
    expect(span!.name).toBe('pull image');
    expect(span!.spanContext().traceId).toBe('6f1c2a4e9b3d4c7a8e210d5f3b9a7c10');
    expect(span!.attributes).toMatchObject({
      'k8s.node.name': 'node1',
      'regatta.image': 'nginx:1.20',
      'regatta.tag.version': 2,
      'regatta.imagepulljobs': ['ns/warm'],
      'regatta.phase': 'Succeeded',
    });
    expect(span!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('a failed pull is an error span', async () => {
    const [span] = await pull(true);
    expect(span!.attributes['regatta.phase']).toBe('Failed');
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });
});
