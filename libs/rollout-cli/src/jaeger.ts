/** Jaeger's query API (`GET <query>/api/traces/<id>`, the JSON Jaeger's UI reads), for `regatta trace` and `status --watch`. */
import { JaegerQueryError, RolloutUsageError } from './errors.js';
import type { JaegerJsonTrace } from './waterfall.js';

/** Checks `--jaeger` (or `JAEGER_URL`): an http(s) address, without trailing slashes. */
export function jaegerQueryBase(url: string | undefined): string {
  if (!url)
    throw new RolloutUsageError(
      'no Jaeger query address: pass --jaeger URL (e.g. http://127.0.0.1:16686) or set JAEGER_URL',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RolloutUsageError(`--jaeger must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RolloutUsageError(`--jaeger must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  return url.replace(/\/+$/, '');
}

/** The trace Jaeger holds for `traceId`; undefined when it has none (yet). */
export async function fetchJaegerTrace(
  base: string,
  traceId: string,
  timeoutMs = 10_000,
): Promise<JaegerJsonTrace | undefined> {
  const url = `${base}/api/traces/${traceId}`;
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new JaegerQueryError(`cannot reach Jaeger's query API at ${base} (${why})`, { cause: e });
  }
  if (res.status === 404) return undefined;
  if (!res.ok) throw new JaegerQueryError(`Jaeger's query API at ${base} answered ${res.status} for ${url}`);
  let body: { data?: JaegerJsonTrace[] | null };
  try {
    body = (await res.json()) as { data?: JaegerJsonTrace[] | null };
  } catch (e) {
    throw new JaegerQueryError(`${url} did not answer Jaeger's JSON (is ${base} Jaeger's query address?)`, {
      cause: e,
    });
  }
  const trace = body.data?.[0];
  return trace && Array.isArray(trace.spans) && trace.spans.length > 0 ? trace : undefined;
}
