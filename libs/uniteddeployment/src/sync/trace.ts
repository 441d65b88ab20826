/**
 * A trace per UnitedDeployment change (service `regatta-uniteddeployment`): a root span `uniteddeployment.sync` for a
 * round that created, updated or deleted subset workloads, with a child span per write. A child links to the rollout
 * trace the subset workload carries (`regatta.dev/rollout-trace`, written by the CloneSet / Advanced StatefulSet
 * programs; docs/adr/0007), so a UnitedDeployment change leads to the rollouts it caused.
 */
import { ROOT_CONTEXT, type Link, type Tracer, trace } from '@opentelemetry/api';
import { ROLLOUT_TRACE_ANNOTATION, contextFromTraceparent, parseRolloutRecord } from '@regatta/workload';
import type { SubsetWorkload } from '../subset/workload.js';
import type { UnitedDeployment } from '../types.js';

export interface SubsetWrite {
  action: 'create' | 'update' | 'delete';
  subset: string;
  workload: SubsetWorkload;
  reason?: string;
}

function rolloutLink(workload: SubsetWorkload): Link[] {
  const record = parseRolloutRecord(workload.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const ctx = record ? contextFromTraceparent(record.traceparent) : undefined;
  const sc = ctx ? trace.getSpanContext(ctx) : undefined;
  return sc ? [{ context: sc, attributes: { 'uniteddeployment.link': 'subset-rollout' } }] : [];
}

export function traceSubsetWrites(
  tracer: Tracer | undefined,
  ud: UnitedDeployment,
  revision: string,
  writes: readonly SubsetWrite[],
  start: Date,
  end: Date,
): void {
  if (!tracer || writes.length === 0) return;
  const root = tracer.startSpan('uniteddeployment.sync', {
    startTime: start,
    attributes: {
      'k8s.namespace.name': ud.metadata?.namespace ?? '',
      'uniteddeployment.name': ud.metadata?.name ?? '',
      'uniteddeployment.revision': revision,
      'uniteddeployment.replicas': ud.spec.replicas ?? 0,
      'uniteddeployment.generation': ud.metadata?.generation ?? 0,
    },
  });
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  for (const w of writes) {
    tracer
      .startSpan(
        `uniteddeployment.subset-${w.action}`,
        {
          startTime: start,
          links: rolloutLink(w.workload),
          attributes: {
            'uniteddeployment.subset': w.subset,
            'uniteddeployment.workload': w.workload.metadata?.name ?? '',
            'uniteddeployment.workload.kind': w.workload.kind ?? '',
            ...(w.reason ? { 'uniteddeployment.reason': w.reason } : {}),
          },
        },
        parent,
      )
      .end(end);
  }
  root.end(end);
}
