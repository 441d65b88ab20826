// CRI StopContainer calls on a simulated node (cri-server.ts): the stops a pod's next sync applies (as the kubelet
// stops a container: preStop hook, SIGTERM, SIGKILL after the grace period), and the callers waiting for their
// container to stop.
import type { PodRuntime } from './runtime-state.js';
import { runningContainerById } from './runtime-cri.js';

export class CriStops {
  /** StopContainer calls not applied yet, by pod UID then container name (grace period in ms). */
  private readonly pending = new Map<string, Map<string, number>>();
  /** Callers of StopContainer waiting for their container to stop, by runtime container id. */
  private readonly waiters = new Map<string, { uid: string; resolve: () => void }[]>();

  /**
   * Asks to stop the container `id` of pod `uid` (its runtime `rt`). Undefined when it has exited already; else
   * resolves once it has stopped. A container already stopping is waited for, not stopped again.
   */
  request(uid: string, rt: PodRuntime, id: string, graceSeconds: number): Promise<void> | undefined {
    const running = runningContainerById(rt, id);
    if (!running) return undefined;
    if (!(running.state.kind === 'running' && running.state.killed)) {
      const stops = this.pending.get(uid) ?? new Map<string, number>();
      stops.set(running.name, Math.max(0, graceSeconds) * 1000);
      this.pending.set(uid, stops);
    }
    return new Promise<void>((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push({ uid, resolve });
      this.waiters.set(id, list);
    });
  }

  /** The stops of a pod not applied yet (grace period in ms by container name), taken: its sync applies them. */
  take(uid: string): Map<string, number> | undefined {
    const stops = this.pending.get(uid);
    this.pending.delete(uid);
    return stops;
  }

  /** Resolves the waiters of pod `uid` whose container no longer runs in `rt` (all of them without a runtime). */
  wake(uid: string, rt: PodRuntime | undefined): void {
    for (const [id, list] of this.waiters) {
      if (rt && runningContainerById(rt, id)) continue;
      const keep = list.filter((w) => w.uid !== uid);
      for (const w of list) if (w.uid === uid) w.resolve();
      if (keep.length) this.waiters.set(id, keep);
      else this.waiters.delete(id);
    }
  }

  /** The simulator stops: every waiter is resolved. */
  stop(): void {
    for (const list of this.waiters.values()) for (const w of list) w.resolve();
    this.waiters.clear();
  }
}
