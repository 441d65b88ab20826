// Each pod's resize as the simulated kubelet keeps it (the pure steps are pod-resize.ts): what its node allocated to
// its containers and a resize that waits, the room the node's other running pods leave, and when a deferred resize
// is tried again. PodManager (pods.ts) asks it once per pod sync.
import { type ResizeState, allocatedRequests, initialResizeState, resizeStep } from './pod-resize.js';
import type { Pod } from './types.js';

/** How often a deferred resize is tried again (the kubelet retries when the node's pods change). */
const RESIZE_RETRY_MS = 1000;

export class PodResizes {
  private readonly states = new Map<string, ResizeState>();

  constructor(
    private readonly o: {
      /** Every pod the simulator knows. */
      pods: () => Pod[];
      /** Whether the pod of this UID runs (not terminal) on its node. */
      running: (uid: string) => boolean;
      allocatable: (node: string) => Record<string, number> | undefined;
    },
  ) {}

  forget(uid: string): void {
    this.states.delete(uid);
  }

  /** The pod's resize at this sync; none for a pod that stops. */
  sync(pod: Pod, uid: string, node: string, stopping: boolean): { state: ResizeState; restart: string[] } {
    const current = this.states.get(uid) ?? initialResizeState(pod);
    if (stopping) return { state: current, restart: [] };
    const step = resizeStep(pod, current, this.o.allocatable(node) ?? {}, () => {
      const sum: Record<string, number> = { cpu: 0, memory: 0 };
      for (const p of this.o.pods()) {
        const other = p.metadata.uid ?? '';
        if (p.spec?.nodeName !== node || other === uid || !this.o.running(other)) continue;
        const used = allocatedRequests(this.states.get(other) ?? initialResizeState(p));
        for (const [r, v] of Object.entries(used)) sum[r] = (sum[r] ?? 0) + v;
      }
      return sum;
    });
    this.states.set(uid, step.state);
    return step;
  }

  /** When the pod's sync should run again for its resize (a deferred one), or null. */
  retryAt(state: ResizeState, now: number): number | null {
    return state.pending?.reason === 'Deferred' ? now + RESIZE_RETRY_MS : null;
  }
}
