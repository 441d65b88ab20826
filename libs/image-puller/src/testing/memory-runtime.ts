// A container runtime in memory for the puller's unit tables (the CRI itself is exercised against the node
// simulator's socket in libs/node-simulator and the agent's scenario test).
import type { ImageRuntime, PullRequest } from '../runtime.js';

/** An in-memory runtime: `outcomes` per pull call (an Error fails it), images present after a good pull. */
export class MemoryRuntime implements ImageRuntime {
  readonly present = new Set<string>();
  readonly pulls: string[] = [];
  running = 0;
  maxRunning = 0;
  constructor(
    private readonly outcomes: (Error | 'ok')[] = [],
    private readonly onPull?: (ref: string, req: PullRequest) => Promise<void>,
  ) {}
  async imageId(ref: string) {
    return this.present.has(ref) ? 'sha256:abc' : undefined;
  }
  async pull(ref: string, req: PullRequest) {
    this.pulls.push(ref);
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      await this.onPull?.(ref, req);
      const o = this.outcomes.shift() ?? 'ok';
      if (o instanceof Error) throw o;
      this.present.add(ref);
    } finally {
      this.running -= 1;
    }
  }
}
