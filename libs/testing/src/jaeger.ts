// Traces as Jaeger's query API holds them (the run's Jaeger, `cluster.jaeger.query`).

export interface JaegerSpan {
  operationName: string;
  tags: Record<string, unknown>;
}

/** The trace id of a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), '' when there is none. */
export const traceIdOf = (traceparent: string | undefined): string => traceparent?.split('-')[1] ?? '';

/** The spans (operation name and tags) Jaeger holds for a trace; [] until they are exported, or without Jaeger. */
export async function traceSpans(query: string | undefined, traceId: string): Promise<JaegerSpan[]> {
  if (!traceId || !query) return [];
  const res = await fetch(`${query}/api/traces/${traceId}`);
  if (!res.ok) return [];
  const body = (await res.json()) as {
    data?: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[];
  };
  return (body.data?.[0]?.spans ?? []).map((sp) => ({
    operationName: sp.operationName,
    tags: Object.fromEntries(sp.tags.map((t) => [t.key, t.value])),
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
