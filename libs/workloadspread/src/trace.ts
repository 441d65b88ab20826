// A WorkloadSpread's placements as spans (docs/workloadspread.md "Traces"): one span `workloadspread.place` per pod
// the webhook placed, in the trace whose id is the WorkloadSpread's uid (libs/telemetry object-trace.ts), with the
// subset it was given (or none: no subset had room) and the status write's attempts.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { WorkloadSpread } from '@regatta/api';
import { uidTraceIds } from '@regatta/telemetry';

export const PLACE_SPAN_NAME = 'workloadspread.place';

/** Starts the span of one placement, as a child of the WorkloadSpread's trace. */
export function startPlacementSpan(tracer: Tracer, ws: WorkloadSpread, podName: string): Span {
  const ids = uidTraceIds(ws.metadata?.uid);
  const parent = ids ? trace.setSpanContext(ROOT_CONTEXT, { ...ids, traceFlags: TraceFlags.SAMPLED, isRemote: false }) : ROOT_CONTEXT;
  return tracer.startSpan(
    PLACE_SPAN_NAME,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'k8s.namespace.name': ws.metadata?.namespace ?? '',
        'k8s.pod.name': podName,
        'regatta.workloadspread': ws.metadata?.name ?? '',
      },
    },
    parent,
  );
}

/** Ends a placement span with its subset ('' when none had room) or its failure. */
export function endPlacementSpan(span: Span, outcome: { subset?: string; attempts: number; error?: unknown }): void {
  span.setAttribute('regatta.workloadspread.subset', outcome.subset ?? '');
  span.setAttribute('regatta.workloadspread.attempts', outcome.attempts);
  if (outcome.error) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) });
  span.end();
}
