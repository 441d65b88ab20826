// The root span of an ImagePullJob's trace (docs/adr/0046): `imagepulljob`, from the job's creation until it is
// finished with — its `completionTime` (an Always job, done or past its deadline), or its deletion (a Never job,
// which never completes, and any job deleted before it completed). Its ids come from the job's uid
// (libs/telemetry object-trace.ts), so the agents' pull spans, which know only the uid, are its children
// (libs/image-puller pull-trace.ts). The reconciler emits it once, when it drops the job's finalizer.
import { SpanKind, SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import type { ImagePullJob } from '@regatta/api';
import { startSpanWithIds, uidTraceIds, type TraceIds } from '@regatta/telemetry';

export const JOB_SPAN_NAME = 'imagepulljob';

export interface JobSpan {
  ids: TraceIds;
  startTime: Date;
  endTime: Date;
  attributes: Attributes;
  /** Set when the job did not pull the image on every node it targets. */
  error?: string;
}

/** The job's root span as it ends now; undefined for a job without a UUID uid or a creation time. */
export function jobSpan(job: ImagePullJob, now: Date): JobSpan | undefined {
  const ids = uidTraceIds(job.metadata?.uid);
  const created = Date.parse(job.metadata?.creationTimestamp ?? '');
  if (!ids || Number.isNaN(created)) return undefined;
  const st = job.status;
  const ended = Date.parse(st?.completionTime ?? job.metadata?.deletionTimestamp ?? '');
  const endTime = new Date(Number.isNaN(ended) ? now.getTime() : Math.max(ended, created));
  const failed = st?.failed ?? 0;
  const outcome = st?.completionTime ? 'completed' : 'deleted';
  const error =
    failed > 0
      ? `pull failed on ${failed} of ${st?.desired ?? 0} nodes`
      : outcome === 'completed' && (st?.succeeded ?? 0) < (st?.desired ?? 0)
        ? (st?.message ?? 'job ended before every node pulled')
        : undefined;
  return {
    ids,
    startTime: new Date(created),
    endTime,
    attributes: {
      'k8s.namespace.name': job.metadata?.namespace ?? '',
      'regatta.imagepulljob': job.metadata?.name ?? '',
      'regatta.image': job.spec.image,
      'regatta.completion_policy': job.spec.completionPolicy?.type ?? 'Always',
      'regatta.outcome': outcome,
      'regatta.desired': st?.desired ?? 0,
      'regatta.succeeded': st?.succeeded ?? 0,
      'regatta.failed': failed,
    },
    ...(error ? { error } : {}),
  };
}

/** Emits the job's root span with `tracer` (no-op with tracing off). */
export function emitJobSpan(tracer: Tracer, job: ImagePullJob, now: Date): void {
  const s = jobSpan(job, now);
  if (!s) return;
  const span = startSpanWithIds(tracer, JOB_SPAN_NAME, s.ids, {
    kind: SpanKind.INTERNAL,
    startTime: s.startTime,
    attributes: s.attributes,
  });
  if (s.error) span.setStatus({ code: SpanStatusCode.ERROR, message: s.error });
  span.end(s.endTime);
}
