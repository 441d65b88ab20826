// A span per pull on the agent, in the trace of the ImagePullJob that asked for it (docs/adr/0041). The job's trace
// id is its uid (a UUID is 128 bits, a trace id's size), so every node's pull of one job lands in one trace that
// can be opened by the job's uid, with no trace context written on the job. A tag that several jobs own is in the
// first job's trace, linked to the others'.
import { ROOT_CONTEXT, trace, TraceFlags, type Context, type Link, type SpanContext } from '@opentelemetry/api';
import type { ObjectReference } from './types.js';

export const IMAGE_PULL_JOB_KIND = 'ImagePullJob';

/** The trace of a job by its uid: trace id = the uid's hex digits; undefined for a uid that is not a UUID. */
export function jobTraceContext(uid: string | undefined): SpanContext | undefined {
  const hex = (uid ?? '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex) || /^0+$/.test(hex.slice(16)) || /^0+$/.test(hex)) return undefined;
  return { traceId: hex, spanId: hex.slice(16), traceFlags: TraceFlags.SAMPLED, isRemote: true };
}

/** The parent context and links of a tag's pull span from its owners. */
export function pullSpanParent(owners: ObjectReference[] | undefined): { parent: Context; links: Link[] } {
  const contexts = (owners ?? [])
    .filter((o) => o.kind === IMAGE_PULL_JOB_KIND)
    .flatMap((o) => {
      const c = jobTraceContext(o.uid);
      return c ? [c] : [];
    });
  const [first, ...rest] = contexts;
  return {
    parent: first ? trace.setSpanContext(ROOT_CONTEXT, first) : ROOT_CONTEXT,
    links: rest.map((context) => ({ context })),
  };
}

/** The job references of a tag's owners, `namespace/name`, for the span's attributes. */
export const ownerJobs = (owners: ObjectReference[] | undefined): string[] =>
  (owners ?? []).filter((o) => o.kind === IMAGE_PULL_JOB_KIND).map((o) => `${o.namespace ?? ''}/${o.name ?? ''}`);
