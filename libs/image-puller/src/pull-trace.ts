// A span per pull on the agent, in the trace of the ImagePullJob that asked for it (docs/adr/0041, 0045). The job's
// trace id is its uid (libs/telemetry object-trace.ts), so every node's pull of one job lands in one trace that can be
// opened by the job's uid, with no trace context written on the job; each pull is a child of the job's root span
// (`imagepulljob`, emitted by the ImagePullJob controller with the span id the uid gives). A tag that several jobs own
// is in the first job's trace, linked to the others'.
import {
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type Link,
  type SpanContext,
} from '@opentelemetry/api';
import { uidTraceIds } from '@regatta/telemetry';
import type { ObjectReference } from './types.js';

export const IMAGE_PULL_JOB_KIND = 'ImagePullJob';

/** The trace of a job by its uid: trace id = the uid's hex digits; undefined for a uid that is not a UUID. */
export function jobTraceContext(uid: string | undefined): SpanContext | undefined {
  const ids = uidTraceIds(uid);
  return ids && { ...ids, traceFlags: TraceFlags.SAMPLED, isRemote: true };
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
  (owners ?? [])
    .filter((o) => o.kind === IMAGE_PULL_JOB_KIND)
    .map((o) => `${o.namespace ?? ''}/${o.name ?? ''}`);
