// An object's own trace, found by its uid (docs/adr/0041, 0046): trace id = the uid's 32 hex digits (a UUID is 128
// bits, a trace id's size), and the object's root span has the span id = the uid's last 16 hex digits. A program that
// works for the object (the image pull agent's pulls of an ImagePullJob) parents its spans on that span id without
// any trace context written on the object; the program that owns the object's life (the ImagePullJob controller)
// emits the root span with those ids. The SDK draws ids from an IdGenerator, so tracing.ts installs
// `fixedOrRandomIds`, which hands out the ids of `startSpanWithIds` for the one span it starts and random ids
// otherwise.
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';

export interface TraceIds {
  traceId: string;
  spanId: string;
}

/** The trace of an object by its uid; undefined for a uid that is not a UUID (or gives an all-zero id). */
export function uidTraceIds(uid: string | undefined): TraceIds | undefined {
  const hex = (uid ?? '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex) || /^0+$/.test(hex.slice(16))) return undefined;
  return { traceId: hex, spanId: hex.slice(16) };
}

let fixed: TraceIds | undefined;

function randomHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(hex)) return hex;
  }
}

/** The SDK's IdGenerator: the ids `startSpanWithIds` asked for while it starts its span, random ones otherwise. */
export const fixedOrRandomIds = {
  generateTraceId: (): string => fixed?.traceId ?? randomHex(16),
  generateSpanId: (): string => fixed?.spanId ?? randomHex(8),
};

/**
 * Starts a root span with the given ids (the SDK's tracer calls the IdGenerator synchronously inside `startSpan`).
 * Only the tracers of `startTracing` honour the ids; with tracing off the span is a no-op.
 */
export function startSpanWithIds(tracer: Tracer, name: string, ids: TraceIds, options: SpanOptions = {}): Span {
  fixed = ids;
  try {
    return tracer.startSpan(name, { ...options, root: true }, ROOT_CONTEXT);
  } finally {
    fixed = undefined;
  }
}
