/**
 * The parts of a round's step context every workload kind builds the same way (docs/adr/0072-one-workload-round.md):
 * the pod-write controls bound to the workload's expectations, and its rollout trace opened from the revisions
 * (`RolloutTraceControl.sync`, one trace per rollout, ADR 0014's "rollout trace").
 */
import type { KubeObject } from '@regatta/kube';
import type { ReconcileContext } from '@regatta/runtime';
import type { RolloutTraceControl } from '../rollout-trace-control.js';
import type { RolloutAttributes, RolloutRecord } from '../rollout-tracer.js';
import type { KubeWriter } from '../types.js';
import type { WorkloadSync } from './context.js';
import { podWriteControls } from './pod-writes.js';

export interface WorkloadSyncInput {
  key: string;
  now: () => Date;
  log: ReconcileContext['log'];
  client: KubeWriter;
  traces: RolloutTraceControl;
  record: RolloutRecord | undefined;
  expectUpdated(obj: KubeObject): void;
}

/** The kind-independent half of a step context, requeue delays empty. */
export function workloadSync(input: WorkloadSyncInput): WorkloadSync {
  const { key, now, log, traces, record, expectUpdated } = input;
  return {
    key,
    now,
    log,
    ...podWriteControls(input.client, expectUpdated, now),
    traces,
    record,
    delays: [],
    expectUpdated,
  };
}

export interface TracedRollout {
  /** The open or newly begun rollout record. */
  record: RolloutRecord | undefined;
  /** The record when it is the update revision's (a rollout whose last pods are seen done after its end still gets their spans). */
  ofUpdate: RolloutRecord | undefined;
}

/** Begins (or keeps) the rollout trace from the current to the update revision. */
export async function traceRollout(
  traces: RolloutTraceControl,
  workload: KubeObject,
  key: string,
  attrs: Omit<RolloutAttributes, 'namespace' | 'name'>,
  log: ReconcileContext['log'],
): Promise<TracedRollout> {
  const record = await traces.sync(workload, key, attrs, log);
  return { record, ofUpdate: record && record.to === attrs.to ? record : undefined };
}
