import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { extractTraceContext, injectTraceContext } from './propagation.js';
import { startSpanWithIds, uidTraceIds } from './object-trace.js';
import { withSpan } from './spans.js';
import { startTracing, type Tracing } from './tracing.js';

/** A stand-in OTLP/HTTP collector: records every POST it receives. */
interface Receiver {
  endpoint: string;
  requests: { path: string; contentType: string | undefined; body: Buffer }[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

function captureLines(): { lines: () => Record<string, unknown>[]; write(s: string): void } {
  const raw: string[] = [];
  return {
    write: (s: string) => raw.push(s),
    lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('tracing with a collector', () => {
  let receiver: Receiver;
  let tracing: Tracing | undefined;

  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
    await receiver.close();
  });

  it('puts trace and span ids on log lines written inside a span, and only there', async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: receiver.endpoint });
    const out = captureLines();
    const log = createLogger({ name: 'test', level: 'info', destination: out });
    let ids: { traceId: string; spanId: string } | undefined;
    log.info('before');
    await withSpan('reconcile', { 'k8s.namespace.name': 'ns' }, () => {
      const ctx = trace.getActiveSpan()?.spanContext();
      ids = ctx && { traceId: ctx.traceId, spanId: ctx.spanId };
      log.info('inside');
    });
    const [before, inside] = out.lines();
    expect(before).not.toHaveProperty('trace_id');
    expect(inside).toMatchObject({
      msg: 'inside',
      level: 'info',
      logger: 'test',
      trace_id: ids?.traceId,
      span_id: ids?.spanId,
    });
    expect(ids?.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('exports spans as OTLP protobuf to <endpoint>/v1/traces when shut down', async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: `${receiver.endpoint}/` });
    let traceId = '';
    await withSpan('rollout cloneset/web', {}, () => {
      traceId = trace.getActiveSpan()?.spanContext().traceId ?? '';
    });
    await tracing.shutdown();
    expect(receiver.requests.length).toBeGreaterThan(0);
    const [req] = receiver.requests;
    expect(req?.path).toBe('/v1/traces');
    expect(req?.contentType).toBe('application/x-protobuf');
    // protobuf carries the trace id as its 16 raw bytes and strings as UTF-8
    expect(req?.body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(req?.body.includes(Buffer.from('rollout cloneset/web'))).toBe(true);
    expect(req?.body.includes(Buffer.from('test-svc'))).toBe(true);
  });

  it("starts an object's root span with the ids of its uid; the next spans get random ids", async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: receiver.endpoint });
    const ids = uidTraceIds('0f8fad5b-d9cb-469f-a165-70867728950e')!;
    expect(ids).toEqual({ traceId: '0f8fad5bd9cb469fa16570867728950e', spanId: 'a16570867728950e' });
    const root = startSpanWithIds(tracing.tracer, 'imagepulljob', ids, { startTime: new Date(Date.now() - 5000) });
    expect(root.spanContext()).toMatchObject(ids);
    root.end();
    const child = tracing.tracer.startSpan('other');
    expect(child.spanContext().traceId).not.toBe(ids.traceId);
    expect(child.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.spanContext().spanId).not.toBe(ids.spanId);
    child.end();
    await tracing.shutdown();
    expect(receiver.requests.some((r) => r.body.includes(Buffer.from(ids.spanId, 'hex')))).toBe(true);
  });

  it.each([
    ['not a uuid', undefined],
    ['', undefined],
    ['0f8fad5b-d9cb-469f-0000-000000000000', undefined],
  ])('has no object trace for uid %j', (uid, want) => {
    expect(uidTraceIds(uid)).toEqual(want);
  });

  it('carries a traceparent through a plain object into a child span of the same trace', async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: receiver.endpoint });
    let carrier: Record<string, string> = {};
    let parent = { traceId: '', spanId: '' };
    await withSpan('publish', {}, () => {
      const ctx = trace.getActiveSpan()?.spanContext();
      parent = { traceId: ctx?.traceId ?? '', spanId: ctx?.spanId ?? '' };
      carrier = injectTraceContext();
    });
    expect(carrier['traceparent']).toBe(`00-${parent.traceId}-${parent.spanId}-01`);
    // a fresh, unrelated async flow continues the trace from the carrier alone
    const child = await withSpan('consume', {}, () => trace.getActiveSpan()?.spanContext(), {
      parent: extractTraceContext({ ...carrier }),
    });
    expect(child?.traceId).toBe(parent.traceId);
    expect(child?.spanId).not.toBe(parent.spanId);
  });

  it('records a thrown error on the span and rethrows it', async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: receiver.endpoint });
    await expect(
      withSpan('fails', {}, () => {
        throw new Error('boom-in-span');
      }),
    ).rejects.toThrow('boom-in-span');
    await tracing.shutdown();
    const body = Buffer.concat(receiver.requests.map((r) => r.body));
    expect(body.includes(Buffer.from('boom-in-span'))).toBe(true);
  });

  it('ignores a malformed carrier: the next span starts a new trace', async () => {
    tracing = await startTracing({ serviceName: 'test-svc', endpoint: receiver.endpoint });
    const ctx = await withSpan('x', {}, () => trace.getActiveSpan()?.spanContext(), {
      parent: extractTraceContext({ traceparent: 'not-a-traceparent' }),
    });
    expect(ctx?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(extractTraceContext(undefined)).toBeDefined();
  });
});

describe('tracing without a collector', () => {
  it('is off when no endpoint is configured: spans are no-ops and nothing is injected', async () => {
    const tracing = await startTracing({ serviceName: 'svc', env: {} });
    expect(tracing.enabled).toBe(false);
    const carrier = await withSpan('noop', {}, () => injectTraceContext());
    expect(carrier).toEqual({});
    await expect(tracing.shutdown()).resolves.toBeUndefined();
  });

  it('reads the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const receiver = await startReceiver();
    const tracing = await startTracing({
      serviceName: 'svc',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
    expect(tracing.enabled).toBe(true);
    await tracing.shutdown();
    await receiver.close();
  });

  it('resolves shutdown when the collector is gone, and logs the lost export', async () => {
    const receiver = await startReceiver();
    const endpoint = receiver.endpoint;
    await receiver.close(); // nothing listens on this port any more
    const out = captureLines();
    const logger = createLogger({ name: 'test', level: 'info', destination: out });
    const tracing = await startTracing({ serviceName: 'svc', endpoint, logger, shutdownTimeoutMs: 300 });
    await withSpan('lost', {}, () => undefined);
    await expect(tracing.shutdown()).resolves.toBeUndefined();
    const warn = out.lines().find((l) => l['level'] === 'warn');
    expect(warn?.['msg']).toMatch(/final span export did not complete in time; spans dropped/);
    expect(out.lines()[0]).toMatchObject({ msg: 'tracing started', endpoint });
  });
});
