// All pulls of one node (`imagepuller_worker.go`, realPuller and realWorkerPool): per image of the NodeImage spec
// the tag workers tag-plan.ts asks for, and the statuses they report; the status the node writes is built from these.
import type { Tracer } from '@opentelemetry/api';
import type { AuthConfig } from '@regatta/cri';
import { ownValue } from '@regatta/kube';
import type { PullPool } from './pull-pool.js';
import type { ImageRuntime } from './runtime.js';
import { nodeImageStatus } from './status.js';
import { planTags } from './tag-plan.js';
import type { ImageSpec, ImageTagStatus, NodeImage, NodeImageStatus, ReferenceObject } from './types.js';
import { PullWorker, type PullEventSink } from './worker.js';

export interface PullerOptions {
  runtime: ImageRuntime;
  /** Bounded pool of pulls (`--max-workers-for-pull-image` > 0), shared by all images. */
  pool?: PullPool;
  events: PullEventSink;
  /** Credentials of an image's pull secrets, read from the API server (never the bus). */
  credentials(image: string, secrets: ReferenceObject[]): Promise<AuthConfig[]>;
  /** Called whenever a worker reports a new status (the agent then writes, rate-limited). */
  onStatus?: (status: ImageTagStatus) => void;
  log?: (msg: string, fields: Record<string, unknown>) => void;
  /** The node and the tracer of the pull spans (worker.ts). */
  node?: string;
  tracer?: Tracer;
}

class ImagePool {
  readonly workers = new Map<string, PullWorker>();
  readonly statuses = new Map<string, ImageTagStatus>();
}

export class ImagePuller {
  private readonly pools = new Map<string, ImagePool>();

  constructor(private readonly o: PullerOptions) {}

  /** Brings the workers in line with `nodeImage` (spec and the status observed on it). */
  async sync(nodeImage: NodeImage): Promise<void> {
    const images = nodeImage.spec?.images ?? {};
    for (const [name, pool] of this.pools) {
      if (ownValue(images, name)) continue;
      for (const w of pool.workers.values()) w.stop();
      this.pools.delete(name);
    }
    const errors: unknown[] = [];
    for (const [name, spec] of Object.entries(images)) {
      try {
        await this.syncImage(name, spec, ownValue(nodeImage.status?.imageStatuses, name));
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  }

  /** The status to write for `nodeImage`'s spec. */
  status(nodeImage: NodeImage): NodeImageStatus {
    const held = new Map([...this.pools].map(([name, p]) => [name, p.statuses] as const));
    return nodeImageStatus(nodeImage.spec?.images, held);
  }

  /** Tag workers not yet finished. */
  get activeWorkers(): number {
    let n = 0;
    for (const p of this.pools.values())
      for (const [tag, w] of p.workers) {
        const st = p.statuses.get(tag);
        if (w.active && !(st?.completionTime && st.version === w.version)) n += 1;
      }
    return n;
  }

  stop(): void {
    for (const p of this.pools.values()) for (const w of p.workers.values()) w.stop();
    this.pools.clear();
  }

  private async syncImage(name: string, spec: ImageSpec, observed: { tags: ImageTagStatus[] } | undefined) {
    let pool = this.pools.get(name);
    if (!pool) this.pools.set(name, (pool = new ImagePool()));
    const running = new Map([...pool.workers].map(([tag, w]) => [tag, w.version] as const));
    const plan = planTags(spec, observed, running);
    for (const tag of plan.stop) {
      pool.workers.get(tag)?.stop();
      pool.workers.delete(tag);
    }
    for (const st of plan.finished) pool.statuses.set(st.tag, st);
    for (const tag of [...pool.statuses.keys()]) if (!plan.tags.has(tag)) pool.statuses.delete(tag);
    if (plan.start.length === 0) return;
    // secrets are read when a pull starts: a failure here fails the sync, which is retried with backoff
    const auths = spec.pullSecrets?.length ? await this.o.credentials(name, spec.pullSecrets) : [];
    if (this.pools.get(name) !== pool) return; // the image left the spec meanwhile
    for (const tag of plan.start) {
      if (pool.workers.has(tag.tag)) continue;
      const p = pool;
      // a stopped worker reports nothing more (PullWorker.report), so every update is of the tag's current worker
      const worker = new PullWorker(name, tag, spec.sandboxConfig, auths, {
        runtime: this.o.runtime,
        ...(this.o.pool ? { pool: this.o.pool } : {}),
        events: this.o.events,
        update: (st) => {
          p.statuses.set(st.tag, st);
          this.o.onStatus?.(st);
        },
        ...(this.o.log ? { log: this.o.log } : {}),
        ...(this.o.node ? { node: this.o.node } : {}),
        ...(this.o.tracer ? { tracer: this.o.tracer } : {}),
      });
      pool.workers.set(tag.tag, worker);
    }
  }
}
