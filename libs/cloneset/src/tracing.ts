/**
 * Rollout traces. A rollout (the update revision differs from the current one) is one trace: a root span
 * `cloneset.rollout` and a child `cloneset.pod-update` per pod update. The trace context lives on the CloneSet in the
 * annotation {@link ROLLOUT_TRACE_ANNOTATION}, so a restarted or newly elected controller continues the same trace.
 *
 * The root span object only lives in the process that started it; a process that finds a rollout begun by another
 * one ends it with a `cloneset.rollout.resumed` child span (start = the rollout's start) instead.
 */
import { ROOT_CONTEXT, type Context, type Span, type Tracer, trace, TraceFlags } from '@opentelemetry/api';

export const ROLLOUT_TRACE_ANNOTATION = 'regatta.dev/rollout-trace';

/** What the annotation holds. */
export interface RolloutRecord {
  traceparent: string;
  from: string;
  to: string;
  /** RFC 3339 start of the rollout. */
  start: string;
  done?: boolean;
}

export function parseRolloutRecord(value: string | undefined): RolloutRecord | undefined {
  if (!value) return undefined;
  try {
    const v = JSON.parse(value) as Partial<RolloutRecord>;
    if (typeof v.traceparent !== 'string' || typeof v.to !== 'string' || typeof v.start !== 'string')
      return undefined;
    return {
      traceparent: v.traceparent,
      from: v.from ?? '',
      to: v.to,
      start: v.start,
      ...(v.done ? { done: true } : {}),
    };
  } catch {
    return undefined;
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context whose parent is the span named by a W3C traceparent (undefined when it does not parse). */
export function contextFromTraceparent(traceparent: string): Context | undefined {
  const m = TRACEPARENT.exec(traceparent);
  if (!m) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1] ?? '',
    spanId: m[2] ?? '',
    traceFlags: Number.parseInt(m[3] ?? '01', 16) as TraceFlags,
    isRemote: true,
  });
}

function traceparentOf(span: Span): string {
  const sc = span.spanContext();
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00'}`;
}

export interface RolloutAttributes {
  namespace: string;
  name: string;
  from: string;
  to: string;
  strategy: string;
  replicas: number;
  partition: string;
}

/** Keeps the root spans this process started, by CloneSet key. */
export class RolloutTracer {
  readonly #tracer: Tracer;
  /** Per CloneSet: the last rollout this process began or finished (the cache may not show the annotation yet). */
  readonly #open = new Map<string, { to: string; span?: Span; record: RolloutRecord }>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** Starts the rollout's root span; returns the record to store on the CloneSet. */
  begin(key: string, attrs: RolloutAttributes, now: Date): RolloutRecord {
    const previous = this.#open.get(key);
    if (previous?.span && !previous.record.done) previous.span.end(now);
    const span = this.#tracer.startSpan(
      'cloneset.rollout',
      {
        root: true,
        startTime: now,
        attributes: {
          'cloneset.namespace': attrs.namespace,
          'cloneset.name': attrs.name,
          'cloneset.revision.from': attrs.from,
          'cloneset.revision.to': attrs.to,
          'cloneset.strategy': attrs.strategy,
          'cloneset.replicas': attrs.replicas,
          'cloneset.partition': attrs.partition,
        },
      },
      ROOT_CONTEXT,
    );
    const record = {
      traceparent: traceparentOf(span),
      from: attrs.from,
      to: attrs.to,
      start: now.toISOString(),
    };
    this.#open.set(key, { to: attrs.to, span, record });
    return record;
  }

  /**
   * The rollout record to act on: the one this process started (fresher than the cache, which may not show the
   * annotation yet), else the stored one.
   */
  current(key: string, stored: RolloutRecord | undefined): RolloutRecord | undefined {
    const open = this.#open.get(key);
    if (
      open &&
      (!stored ||
        stored.to !== open.to ||
        stored.traceparent !== open.record.traceparent ||
        (open.record.done === true && !stored.done))
    )
      return open.record;
    return stored;
  }

  /** Ends the rollout (its root span here, or a `resumed` span under the stored context); returns the record marked done. */
  finish(key: string, record: RolloutRecord, now: Date): RolloutRecord {
    const open = this.#open.get(key);
    if (open?.record.done && open.to === record.to) return open.record;
    if (open?.span && open.to === record.to) {
      open.span.end(now);
    } else {
      const parent = contextFromTraceparent(record.traceparent);
      if (parent) {
        this.#tracer
          .startSpan(
            'cloneset.rollout.resumed',
            { startTime: new Date(record.start), attributes: { 'cloneset.revision.to': record.to } },
            parent,
          )
          .end(now);
      }
    }
    const done = { ...record, done: true };
    this.#open.set(key, { to: record.to, record: done });
    return done;
  }

  /** One pod update of the rollout, from the controller's write (`start`) until it was seen done (`end`). */
  podUpdate(record: RolloutRecord, pod: string, how: 'in-place' | 'recreate', start: Date, end: Date): void {
    const parent = contextFromTraceparent(record.traceparent);
    if (!parent) return;
    this.#tracer
      .startSpan(
        'cloneset.pod-update',
        {
          startTime: start,
          attributes: { 'pod.name': pod, 'cloneset.update.type': how, 'cloneset.revision.to': record.to },
        },
        parent,
      )
      .end(end);
  }

  /** Forgets a CloneSet (deleted). */
  forget(key: string): void {
    const open = this.#open.get(key);
    if (open?.span && !open.record.done) open.span.end();
    this.#open.delete(key);
  }
}
