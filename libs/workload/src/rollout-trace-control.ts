/**
 * The rollout trace of a workload, with its writes (docs/adr/0007, docs/cloneset.md "Following a rollout"): the
 * record stored in the workload's {@link ROLLOUT_TRACE_ANNOTATION}, the root span begun when a new update revision
 * appears, the holds followed from the status, the end once every pod is updated and ready, and the per-pod spans
 * (pod update, lifecycle-hook wait). Without a tracer it only reads the stored record.
 */
import type { Attributes, Link } from '@opentelemetry/api';
import type { KubeObject } from '@regatta/kube';
import { INPLACE_UPDATE_STATE_KEY } from '@regatta/inplace-update';
import { LIFECYCLE_TIMESTAMP_KEY, LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';
import { activeHolds, syncHolds } from './rollout-holds.js';
import {
  ROLLOUT_TRACE_ANNOTATION,
  type RolloutAttributes,
  type RolloutRecord,
  type RolloutTracer,
  parseRolloutRecord,
} from './rollout-tracer.js';
import type { ControlLogger, KubeWriter, WorkloadKind } from './types.js';

export interface RolloutTraceDeps {
  client: Pick<KubeWriter, 'patch'>;
  kind: WorkloadKind;
  tracer?: RolloutTracer | undefined;
  now: () => Date;
}

/** What the rollout's end and holds are decided from (the status just computed, and the spec). */
export interface RolloutProgress {
  updateRevision: string;
  currentRevision: string;
  replicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  /** Replicas minus the resolved partition. */
  expectedUpdatedReplicas: number;
  paused: boolean;
}

export type HookKind = 'preDelete' | 'inPlaceUpdate';

export class RolloutTraceControl {
  readonly #d: RolloutTraceDeps;

  constructor(deps: RolloutTraceDeps) {
    this.#d = deps;
  }

  /** The record to act on: the stored one, or this process' fresher one. */
  current(workload: KubeObject, key: string): RolloutRecord | undefined {
    const stored = parseRolloutRecord(workload.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
    return this.#d.tracer ? this.#d.tracer.current(key, stored) : stored;
  }

  /**
   * The record for a reconcile that sees `from` → `to`: a new rollout begins (before any pod is touched, so the
   * first pod updates fall inside it) when `to` is not the record's; an open one for an older revision ends.
   */
  async sync(
    workload: KubeObject,
    key: string,
    attrs: Omit<RolloutAttributes, 'namespace' | 'name'>,
    log: ControlLogger,
  ): Promise<RolloutRecord | undefined> {
    const previous = this.current(workload, key);
    const tracer = this.#d.tracer;
    if (
      attrs.from === attrs.to ||
      previous?.to === attrs.to ||
      workload.metadata?.deletionTimestamp ||
      !tracer
    )
      return previous;
    return this.#begin(workload, key, attrs, previous, tracer, log);
  }

  /**
   * The record for a kind that traces every change of its spec (a UnitedDeployment): a new trace begins when the
   * workload's `metadata.generation` is not the record's, whether or not the revision moved.
   */
  async syncChange(
    workload: KubeObject,
    key: string,
    attrs: Omit<RolloutAttributes, 'namespace' | 'name' | 'generation'>,
    log: ControlLogger,
  ): Promise<RolloutRecord | undefined> {
    const previous = this.current(workload, key);
    const tracer = this.#d.tracer;
    const generation = workload.metadata?.generation;
    if (generation === undefined || previous?.generation === generation || workload.metadata?.deletionTimestamp || !tracer)
      return previous;
    return this.#begin(workload, key, { ...attrs, generation }, previous, tracer, log);
  }

  async #begin(
    workload: KubeObject,
    key: string,
    attrs: Omit<RolloutAttributes, 'namespace' | 'name'>,
    previous: RolloutRecord | undefined,
    tracer: RolloutTracer,
    log: ControlLogger,
  ): Promise<RolloutRecord> {
    const now = this.#d.now();
    if (previous && !previous.done) {
      for (const h of syncHolds(previous.holds, new Set(), now).ended)
        tracer.hold(previous, h.hold, new Date(h.start), now);
    }
    const record = tracer.begin(
      key,
      { namespace: workload.metadata?.namespace ?? '', name: workload.metadata?.name ?? '', ...attrs },
      now,
      previous,
    );
    await this.#store(workload, record, log);
    return record;
  }

  /** Follows the open rollout: its holds (pause, partition), and its end once every pod is updated and ready. */
  async follow(
    workload: KubeObject,
    key: string,
    record: RolloutRecord | undefined,
    s: RolloutProgress,
    log: ControlLogger,
  ): Promise<void> {
    const tracer = this.#d.tracer;
    if (!tracer || !record || record.done || record.to !== s.updateRevision) return;
    if (workload.metadata?.deletionTimestamp) return;
    const now = this.#d.now();
    const rolling = s.currentRevision !== s.updateRevision;
    const finished = !rolling && s.updatedReadyReplicas === s.replicas;
    const holds = syncHolds(record.holds, finished ? new Set() : activeHolds({ rolling, ...s }), now);
    for (const h of holds.ended) tracer.hold(record, h.hold, new Date(h.start), now);
    let next: RolloutRecord | undefined;
    if (finished) next = tracer.finish(key, record, now);
    else if (holds.changed) {
      const withHolds: RolloutRecord = { ...record };
      if (Object.keys(holds.open).length > 0) withHolds.holds = holds.open;
      else delete withHolds.holds;
      next = tracer.update(key, withHolds);
    }
    if (next) await this.#store(workload, next, log);
  }

  /**
   * A pod of the rollout reached Normal (or Updated): its update span, from the controller's write (the in-place
   * update's timestamp, or the pod's creation) until `now`. After the rollout ended, only updates that began before
   * its end belong to it.
   */
  podUpdated(record: RolloutRecord | undefined, pod: Pod, updateRevision: string, now: Date): void {
    const tracer = this.#d.tracer;
    if (!tracer || !record || !isPodAtRevision(pod, updateRevision)) return;
    const state = getPodLifecycleState(pod);
    const rolloutStart = Date.parse(record.start);
    const rolloutEnd = record.done && record.end ? Date.parse(record.end) : Number.POSITIVE_INFINITY;
    const belongs = (started: number) => started >= rolloutStart - 1000 && started <= rolloutEnd;
    const name = pod.metadata?.name ?? '';
    if (state === LifecycleState.Updating) {
      let started: number;
      try {
        const raw = pod.metadata?.annotations?.[INPLACE_UPDATE_STATE_KEY];
        started = Date.parse((JSON.parse(raw ?? '{}') as { updateTimestamp?: string }).updateTimestamp ?? '');
      } catch {
        started = Number.NaN;
      }
      if (belongs(started)) tracer.podUpdate(record, name, 'in-place', new Date(started), now);
    } else if (state === LifecycleState.PreparingNormal) {
      const created = Date.parse(pod.metadata?.creationTimestamp ?? '');
      if (belongs(created)) tracer.podUpdate(record, name, 'recreate', new Date(created), now);
    }
  }

  /**
   * A pod's update span with its start given by the caller (for kinds without lifecycle states on their pods, such as
   * the Advanced DaemonSet's per-node updates).
   */
  podSpan(
    record: RolloutRecord | undefined,
    pod: string,
    how: 'in-place' | 'recreate',
    start: Date,
    end: Date,
  ): void {
    if (!record || !this.#d.tracer) return;
    this.#d.tracer.podUpdate(record, pod, how, start, end);
  }

  /** A pod leaves a lifecycle hook's waiting state during a rollout: its wait, from the state's timestamp. */
  hookWait(record: RolloutRecord | undefined, pod: Pod, hook: HookKind): void {
    const since = Date.parse(pod.metadata?.annotations?.[LIFECYCLE_TIMESTAMP_KEY] ?? '');
    if (!record || record.done || !this.#d.tracer || Number.isNaN(since)) return;
    this.#d.tracer.hookWait(record, pod.metadata?.name ?? '', hook, new Date(since), this.#d.now());
  }

  /** A span of the rollout (see {@link RolloutTracer.child}). */
  span(
    record: RolloutRecord | undefined,
    name: string,
    start: Date,
    end: Date,
    attributes: Attributes,
    links: Link[] = [],
  ): void {
    if (!record || !this.#d.tracer) return;
    this.#d.tracer.child(record, name, start, end, attributes, links);
  }

  /** Forgets a deleted workload. */
  forget(key: string): void {
    this.#d.tracer?.forget(key);
  }

  /** Stores the record on the workload (best effort: the tracer keeps the freshest record meanwhile). */
  async #store(workload: KubeObject, next: RolloutRecord, log: ControlLogger): Promise<void> {
    await this.#d.client
      .patch(
        { ...this.#d.kind, namespace: workload.metadata?.namespace, name: workload.metadata?.name ?? '' },
        { metadata: { annotations: { [ROLLOUT_TRACE_ANNOTATION]: JSON.stringify(next) } } },
        { type: 'merge' },
      )
      .catch((err: unknown) => log.debug({ err }, 'could not store the rollout trace context'));
  }
}
