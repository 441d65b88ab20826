/**
 * Rollout traces of a SidecarSet (docs/adr/0007): one trace per new latest revision (a sidecar change), a span per
 * pod upgrade from the controller's write (the hash entry's `updateTimestamp`) until the pod is seen updated,
 * consistent and ready. Only pods this process saw in progress get a span, so a restart does not repeat them.
 */
import type { Pod } from '@regatta/lifecycle';
import type { RolloutRecord, RolloutTraceControl } from '@regatta/workload';
import {
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarPodReady,
  podHashEntries,
} from '../pod-state.js';
import type { SidecarSetStatusView } from '../types.js';
import { type UpgradeSync, podKey } from './context.js';

export class SidecarSetTraces {
  readonly #control: RolloutTraceControl;
  /** Per SidecarSet: the rollout (its `to`) and the pods seen upgrading in it. */
  readonly #inFlight = new Map<string, { to: string; pods: Set<string> }>();

  constructor(control: RolloutTraceControl) {
    this.#control = control;
  }

  /** The rollout record: a new trace when the latest revision differs from the one the status showed. */
  async begin(s: UpgradeSync, latestRevision: string, matched: number): Promise<RolloutRecord | undefined> {
    const previous = s.set.status?.latestRevision ?? '';
    const strategy = s.set.spec?.updateStrategy;
    return this.#control.sync(
      s.set,
      s.key,
      {
        from: previous === '' ? latestRevision : previous,
        to: latestRevision,
        strategy: strategy?.type ?? 'RollingUpdate',
        replicas: matched,
        partition: String(strategy?.partition ?? 0),
      },
      s.log,
    );
  }

  /** Spans for pods done since last seen upgrading; the rollout's holds and end. */
  async follow(
    s: UpgradeSync,
    record: RolloutRecord | undefined,
    pods: readonly Pod[],
    status: Required<SidecarSetStatusView>,
    expectedUpdated: number,
  ): Promise<void> {
    if (!record) return;
    let flight = this.#inFlight.get(s.key);
    if (!flight || flight.to !== record.to) {
      flight = { to: record.to, pods: new Set() };
      this.#inFlight.set(s.key, flight);
    }
    const name = s.set.metadata?.name ?? '';
    for (const pod of pods) {
      if (!isPodSidecarUpdated(s.set, pod)) continue;
      const k = podKey(pod);
      const done = isPodStateConsistent(s.set, pod) && isSidecarPodReady(s.set, pod);
      if (!done) {
        flight.pods.add(k);
        continue;
      }
      if (!flight.pods.delete(k)) continue;
      const start = Date.parse(podHashEntries(pod)[name]?.updateTimestamp ?? '');
      if (!Number.isNaN(start))
        this.#control.podSpan(record, pod.metadata?.name ?? '', 'in-place', new Date(start), s.now());
    }
    const finished = status.updatedPods >= status.matchedPods;
    await this.#control.follow(
      s.set,
      s.key,
      record,
      {
        updateRevision: status.latestRevision,
        currentRevision: finished ? status.latestRevision : record.from,
        replicas: status.matchedPods,
        updatedReplicas: status.updatedPods,
        updatedReadyReplicas: status.updatedReadyPods,
        expectedUpdatedReplicas: expectedUpdated,
        paused: s.set.spec?.updateStrategy?.paused === true,
      },
      s.log,
    );
  }

  /** Marks a pod written this round as in flight. */
  started(key: string, to: string | undefined, pod: Pod): void {
    const flight = this.#inFlight.get(key);
    if (flight && flight.to === to) flight.pods.add(podKey(pod));
  }

  forget(key: string): void {
    this.#inFlight.delete(key);
    this.#control.forget(key);
  }
}
