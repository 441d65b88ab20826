// A BroadcastJob's trace (docs/broadcastjob.md "Traces"): trace id from the job's uid (libs/telemetry
// object-trace.ts), a root span `broadcastjob` from the job's creation to its completionTime, and one child span
// `broadcastjob.pod` per node's pod, from the pod's creation to its end (Succeeded, Failed or deleted). Each span is
// emitted once by this process, when what it covers is over.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Tracer } from '@opentelemetry/api';
import type { BroadcastJob, Pod } from '@regatta/api';
import { startSpanWithIds, uidTraceIds } from '@regatta/telemetry';
import { assignedNode } from './pods.js';

export const JOB_SPAN_NAME = 'broadcastjob';
export const POD_SPAN_NAME = 'broadcastjob.pod';

/** When a finished pod ended: the latest container finishedAt, else `fallback`. */
export function podEndTime(pod: Pod, fallback: Date): Date {
  const ends = (pod.status?.containerStatuses ?? [])
    .map((s) => Date.parse(s.state?.terminated?.finishedAt ?? ''))
    .filter((t) => !Number.isNaN(t));
  return ends.length > 0 ? new Date(Math.max(...ends)) : fallback;
}

export class JobTraces {
  readonly #tracer: Tracer;
  /** Per job key: the uids of the pods (and of the job) whose spans were emitted. */
  readonly #emitted = new Map<string, Set<string>>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** Emits the span of every finished or deleted pod not emitted yet. */
  pods(key: string, job: BroadcastJob, pods: readonly Pod[], now: Date): void {
    const emitted = this.#of(key);
    const ids = uidTraceIds(job.metadata?.uid);
    if (!ids) return;
    const parent = trace.setSpanContext(ROOT_CONTEXT, { ...ids, traceFlags: TraceFlags.SAMPLED, isRemote: false });
    for (const pod of pods) {
      const uid = pod.metadata?.uid ?? '';
      const phase = pod.status?.phase;
      const over = phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp;
      if (!uid || !over || emitted.has(uid)) continue;
      emitted.add(uid);
      const start = Date.parse(pod.metadata?.creationTimestamp ?? '');
      const span = this.#tracer.startSpan(
        POD_SPAN_NAME,
        {
          kind: SpanKind.INTERNAL,
          ...(Number.isNaN(start) ? {} : { startTime: new Date(start) }),
          attributes: {
            'k8s.namespace.name': pod.metadata?.namespace ?? '',
            'k8s.pod.name': pod.metadata?.name ?? '',
            'k8s.node.name': assignedNode(pod),
            'regatta.pod_phase': phase ?? 'Deleted',
          },
        },
        parent,
      );
      if (phase === 'Failed') span.setStatus({ code: SpanStatusCode.ERROR, message: pod.status?.reason ?? 'pod failed' });
      span.end(podEndTime(pod, now));
    }
  }

  /** Emits the job's root span once it has a completionTime. */
  job(key: string, job: BroadcastJob): void {
    const emitted = this.#of(key);
    const ids = uidTraceIds(job.metadata?.uid);
    const uid = job.metadata?.uid ?? '';
    const created = Date.parse(job.metadata?.creationTimestamp ?? '');
    const done = Date.parse(job.status?.completionTime ?? '');
    if (!ids || Number.isNaN(created) || Number.isNaN(done) || emitted.has(uid)) return;
    emitted.add(uid);
    const st = job.status;
    const span = startSpanWithIds(this.#tracer, JOB_SPAN_NAME, ids, {
      kind: SpanKind.INTERNAL,
      startTime: new Date(created),
      attributes: {
        'k8s.namespace.name': job.metadata?.namespace ?? '',
        'regatta.broadcastjob': job.metadata?.name ?? '',
        'regatta.phase': st?.phase ?? '',
        'regatta.desired': st?.desired ?? 0,
        'regatta.succeeded': st?.succeeded ?? 0,
        'regatta.failed': st?.failed ?? 0,
      },
    });
    if (st?.phase === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: st.conditions?.at(-1)?.message ?? 'job failed' });
    span.end(new Date(Math.max(done, created)));
  }

  /** The job is gone. */
  forget(key: string): void {
    this.#emitted.delete(key);
  }

  #of(key: string): Set<string> {
    let set = this.#emitted.get(key);
    if (!set) this.#emitted.set(key, (set = new Set()));
    return set;
  }
}
