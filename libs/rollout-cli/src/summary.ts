/** The text `regatta rollout status` prints: one summary block per look at the workload. */
import { ROLLOUT_TRACE_ANNOTATION, parseRolloutRecord } from '@regatta/workload';
import type { KindInfo } from './kinds.js';
import type { RolloutProgress, Workload } from './progress.js';

export interface RolloutTraceRef {
  traceId: string;
  /** Jaeger's page of the trace, when a Jaeger address was given. */
  link?: string;
  done: boolean;
}

/** The trace of the workload's latest rollout, read from `regatta.dev/rollout-trace` (docs/adr/0007). */
export function rolloutTraceOf(w: Workload, jaeger?: string): RolloutTraceRef | undefined {
  const record = parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const traceId = record ? /^00-([0-9a-f]{32})-/.exec(record.traceparent)?.[1] : undefined;
  if (!record || !traceId) return undefined;
  return {
    traceId,
    done: record.done === true,
    ...(jaeger ? { link: `${jaeger.replace(/\/+$/, '')}/trace/${traceId}` } : {}),
  };
}

/** The summary lines, kubectl-like: a headline, then the counts, partition, pause, revisions and trace. */
export function formatSummary(info: KindInfo, name: string, p: RolloutProgress, trace?: RolloutTraceRef): string {
  const unit = p.kind === 'DaemonSet' ? 'nodes' : p.kind === 'SidecarSet' ? 'pods' : 'replicas';
  const counts =
    p.kind === 'SidecarSet'
      ? `${p.desired} matched, ${p.updated} updated (${p.expectedUpdated} expected), ${p.ready} ready, ` +
        `${p.updatedReady ?? 0} updated and ready`
      : `${p.desired} desired, ${p.updated} updated (${p.expectedUpdated} expected), ${p.ready} ready` +
        (p.available === undefined ? '' : `, ${p.available} available`);
  const headline = p.complete
    ? `${info.title} ${JSON.stringify(name)} successfully rolled out`
    : `Waiting for ${info.title} ${JSON.stringify(name)} rollout to finish: ${p.pending.join('; ')}`;
  const lines = [
    headline,
    `  ${`${unit}:`.padEnd(18)} ${counts}`,
    `  partition:         ${p.partition}`,
    `  paused:            ${p.paused}`,
    `  updateRevision:    ${p.updateRevision ?? '<none>'}`,
    `  currentRevision:   ${p.currentRevision ?? '<none>'}`,
    `  generation:        ${p.generation} (observed ${p.observedGeneration})`,
  ];
  if (trace) {
    lines.push(`  rollout trace:     ${trace.traceId}${trace.done ? ' (done)' : ''}`);
    if (trace.link) lines.push(`  jaeger:            ${trace.link}`);
  }
  return lines.join('\n');
}
