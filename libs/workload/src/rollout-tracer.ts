/**
 * Rollout traces (docs/adr/0007, docs/cloneset.md "Following a rollout"). A rollout (the update revision differs
 * from the current one) is one trace. Span and attribute names start with the workload's prefix (`cloneset` for a
 * CloneSet, so `cloneset.rollout`): a root span `<prefix>.rollout`, a child `<prefix>.pod-update` per pod update,
 * and children for what held it back: `<prefix>.pause`, `<prefix>.partition-hold` (see rollout-holds.ts) and
 * `<prefix>.hook-wait` per pod whose lifecycle hook (preDelete / inPlaceUpdate) kept it waiting. The trace context
 * lives on the workload in the annotation {@link ROLLOUT_TRACE_ANNOTATION}, so a restarted or newly elected
 * controller continues the same trace.
 *
 * The root span object only lives in the process that started it; a process that finds a rollout begun by another
 * one ends it with a `<prefix>.rollout.resumed` child span (start = the rollout's start) instead.
 */
import {
  ROOT_CONTEXT,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { Annotations } from '@regatta/api';
import type { HoldStarts, RolloutHold } from './rollout-holds.js';

/** The workload annotation holding its rollout record (docs/adr/0007). */
export const ROLLOUT_TRACE_ANNOTATION = Annotations.RolloutTrace;

/** What the annotation holds. */
export interface RolloutRecord {
  traceparent: string;
  from: string;
  to: string;
  /** RFC 3339 start of the rollout. */
  start: string;
  done?: boolean;
  /** RFC 3339 end, once done. */
  end?: string;
  /** Holds in force, with their start (spans are emitted when they end). */
  holds?: HoldStarts;
  /** Incremented on every write: the freshest of the stored record and this process' own wins. */
  seq?: number;
  /**
   * For kinds that trace every change of their spec, not only a new revision (a UnitedDeployment): the
   * `metadata.generation` the trace is for.
   */
  generation?: number;
}

const HOLD_SPANS: Record<RolloutHold, string> = {
  paused: 'pause',
  partition: 'partition-hold',
};

export function parseRolloutRecord(value: string | undefined): RolloutRecord | undefined {
  if (!value) return undefined;
  try {
    const v = JSON.parse(value) as Partial<RolloutRecord>;
    if (typeof v.traceparent !== 'string' || typeof v.to !== 'string' || typeof v.start !== 'string')
      return undefined;
    const holds: HoldStarts = {};
    for (const hold of Object.keys(HOLD_SPANS) as RolloutHold[]) {
      const since = v.holds?.[hold];
      if (typeof since === 'string') holds[hold] = since;
    }
    return {
      traceparent: v.traceparent,
      from: v.from ?? '',
      to: v.to,
      start: v.start,
      ...(v.done ? { done: true } : {}),
      ...(typeof v.end === 'string' ? { end: v.end } : {}),
      ...(Object.keys(holds).length > 0 ? { holds } : {}),
      ...(typeof v.seq === 'number' ? { seq: v.seq } : {}),
      ...(typeof v.generation === 'number' ? { generation: v.generation } : {}),
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
  /** Set when the trace is for a change of the spec (see {@link RolloutRecord.generation}). */
  generation?: number;
}

export interface RolloutTracerOptions {
  /** The first part of every span and attribute name: the workload kind in lower case. Default `cloneset`. */
  prefix?: string;
}

/**
 * A child's start, never before its rollout's: the times a child is given often come from the API server in whole
 * seconds (a pod's `creationTimestamp`, the in-place update's `updateTimestamp`), so a pod updated 300 ms after the
 * rollout began would otherwise start 700 ms before its root in a trace viewer. The rollout began before any pod was
 * touched (RolloutTraceControl `sync`), so the clamp loses nothing; and never after `end`.
 */
export function withinRollout(record: RolloutRecord, start: Date, end: Date): Date {
  const rolloutStart = Date.parse(record.start);
  if (Number.isNaN(rolloutStart) || start.getTime() >= rolloutStart) return start;
  return new Date(Math.min(rolloutStart, end.getTime()));
}

/** Keeps the root spans this process started, by workload key. */
export class RolloutTracer {
  readonly #tracer: Tracer;
  readonly #p: string;
  /** Per workload: the last rollout this process began or finished (the cache may not show the annotation yet). */
  readonly #open = new Map<string, { to: string; span?: Span; record: RolloutRecord }>();

  constructor(tracer: Tracer, options: RolloutTracerOptions = {}) {
    this.#tracer = tracer;
    this.#p = options.prefix ?? 'cloneset';
  }

  /** Starts the rollout's root span; returns the record to store on the workload. */
  begin(key: string, attrs: RolloutAttributes, now: Date, previous?: RolloutRecord): RolloutRecord {
    const open = this.#open.get(key);
    if (open?.span && !open.record.done) open.span.end(now);
    const p = this.#p;
    const span = this.#tracer.startSpan(
      `${p}.rollout`,
      {
        root: true,
        startTime: now,
        attributes: {
          // OpenTelemetry's semantic conventions (k8s.namespace.name, k8s.<kind>.name), then the kind's own keys
          'k8s.namespace.name': attrs.namespace,
          [`k8s.${p}.name`]: attrs.name,
          [`${p}.namespace`]: attrs.namespace,
          [`${p}.name`]: attrs.name,
          [`${p}.revision.from`]: attrs.from,
          [`${p}.revision.to`]: attrs.to,
          [`${p}.strategy`]: attrs.strategy,
          [`${p}.replicas`]: attrs.replicas,
          [`${p}.partition`]: attrs.partition,
          ...(attrs.generation !== undefined ? { [`${p}.generation`]: attrs.generation } : {}),
        },
      },
      ROOT_CONTEXT,
    );
    const record: RolloutRecord = {
      traceparent: traceparentOf(span),
      from: attrs.from,
      to: attrs.to,
      start: now.toISOString(),
      seq: (previous?.seq ?? 0) + 1,
      ...(attrs.generation !== undefined ? { generation: attrs.generation } : {}),
    };
    this.#open.set(key, { to: attrs.to, span, record });
    return record;
  }

  /**
   * The rollout record to act on: the fresher (by `seq`) of the one this process last wrote and the stored one (the
   * cache may not show this process' write yet; another process may have written after it).
   */
  current(key: string, stored: RolloutRecord | undefined): RolloutRecord | undefined {
    const open = this.#open.get(key);
    if (!open) return stored;
    if (!stored || (open.record.seq ?? 0) > (stored.seq ?? 0)) return open.record;
    return stored;
  }

  /** Remembers a record written to the workload (holds changed); returns it with the next `seq`. */
  update(key: string, record: RolloutRecord): RolloutRecord {
    const next = { ...record, seq: (record.seq ?? 0) + 1 };
    const open = this.#open.get(key);
    this.#open.set(key, {
      to: next.to,
      ...(open?.span && open.to === next.to ? { span: open.span } : {}),
      record: next,
    });
    return next;
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
            `${this.#p}.rollout.resumed`,
            { startTime: new Date(record.start), attributes: { [`${this.#p}.revision.to`]: record.to } },
            parent,
          )
          .end(now);
      }
    }
    const done: RolloutRecord = { ...record, done: true, end: now.toISOString(), seq: (record.seq ?? 0) + 1 };
    delete done.holds;
    this.#open.set(key, { to: record.to, record: done });
    return done;
  }

  /** One pod update of the rollout, from the controller's write (`start`) until it was seen done (`end`). */
  podUpdate(record: RolloutRecord, pod: string, how: 'in-place' | 'recreate', start: Date, end: Date): void {
    this.child(record, 'pod-update', start, end, { 'k8s.pod.name': pod, [`${this.#p}.update.type`]: how });
  }

  /** A hold of the rollout (pause, partition) that ended: one span from its start. */
  hold(record: RolloutRecord, hold: RolloutHold, start: Date, end: Date): void {
    this.child(record, HOLD_SPANS[hold], start, end, { [`${this.#p}.hold`]: hold });
  }

  /** A pod that waited for a lifecycle hook (`preDelete`, `inPlaceUpdate`) during the rollout. */
  hookWait(
    record: RolloutRecord,
    pod: string,
    hook: 'preDelete' | 'inPlaceUpdate',
    start: Date,
    end: Date,
  ): void {
    this.child(record, 'hook-wait', start, end, {
      'k8s.pod.name': pod,
      [`${this.#p}.lifecycle.hook`]: hook,
    });
  }

  /**
   * A span of the rollout named `<prefix>.<name>`, from `start` to `end`, with links to other traces (a subset
   * workload's own rollout, for a UnitedDeployment).
   */
  child(record: RolloutRecord, name: string, start: Date, end: Date, attributes: Attributes, links: Link[] = []): void {
    const parent = contextFromTraceparent(record.traceparent);
    if (!parent) return;
    this.#tracer
      .startSpan(
        `${this.#p}.${name}`,
        {
          startTime: withinRollout(record, start, end),
          links,
          attributes: { ...attributes, [`${this.#p}.revision.to`]: record.to },
        },
        parent,
      )
      .end(end);
  }

  /** Forgets a workload (deleted). */
  forget(key: string): void {
    const open = this.#open.get(key);
    if (open?.span && !open.record.done) open.span.end();
    this.#open.delete(key);
  }
}
