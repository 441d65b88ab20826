// Traces as Jaeger's query API holds them (the run's Jaeger, `cluster.jaeger.query`).

export interface JaegerSpan {
  operationName: string;
  tags: Record<string, unknown>;
  /** Set by `traceSpans`. */
  spanId?: string;
  /** The span ids of its CHILD_OF references (its parent); set by `traceSpans`. */
  parentSpanIds?: string[];
  /** The `service.name` of the program that emitted it; set by `traceSpans`. */
  service?: string;
}

/** The trace id of a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), '' when there is none. */
export const traceIdOf = (traceparent: string | undefined): string => traceparent?.split('-')[1] ?? '';

/** The spans (operation name and tags) Jaeger holds for a trace; [] until they are exported, or without Jaeger. */
export async function traceSpans(query: string | undefined, traceId: string): Promise<JaegerSpan[]> {
  if (!traceId || !query) return [];
  const res = await fetch(`${query}/api/traces/${traceId}`);
  if (!res.ok) return [];
  const body = (await res.json()) as {
    data?: {
      spans: {
        operationName: string;
        spanID: string;
        processID: string;
        references?: { refType: string; spanID: string }[];
        tags: { key: string; value: unknown }[];
      }[];
      processes?: Record<string, { serviceName: string }>;
    }[];
  };
  const t = body.data?.[0];
  return (t?.spans ?? []).map((sp) => ({
    operationName: sp.operationName,
    tags: Object.fromEntries(sp.tags.map((tag) => [tag.key, tag.value])),
    spanId: sp.spanID,
    parentSpanIds: (sp.references ?? []).filter((r) => r.refType === 'CHILD_OF').map((r) => r.spanID),
    service: t?.processes?.[sp.processID]?.serviceName ?? '',
  }));
}

/** The spans Jaeger holds for an object's last rollout trace (annotation `regatta.dev/rollout-trace`; [] until exported). */
export async function rolloutTraceSpans(
  query: string | undefined,
  obj: { metadata?: { annotations?: Record<string, string> } },
): Promise<JaegerSpan[]> {
  const raw = obj.metadata?.annotations?.['regatta.dev/rollout-trace'];
  const traceparent = raw ? (JSON.parse(raw) as { traceparent?: string }).traceparent : undefined;
  return traceSpans(query, traceIdOf(traceparent));
}
