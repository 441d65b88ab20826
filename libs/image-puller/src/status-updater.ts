// The per-node NodeImage status writer (`pkg/daemon/imagepuller/utils.go`, statusUpdater): every status the agent
// computes is offered here; it is written when it differs from the last one written (or that one is 12 h old) and
// the token bucket (0.5 writes/s, burst 5) has a token. A status offered while the bucket is empty is held as
// pending: the latest offer replaces it (coalescing), the agent offers again on its 3–5 s sync, and `flush` writes
// it on shutdown without asking the bucket, so nothing reported by a worker is lost. ADR 0041.
import {
  decideStatusWrite,
  sameJson,
  STATUS_WRITE_BURST,
  STATUS_WRITE_QPS,
  TokenBucket,
  type WriteDecision,
} from './rate-limit.js';
import type { NodeImageStatus } from './types.js';

/** Time and randomness of the updater (injected in tests). */
export interface UpdaterClock {
  now(): number;
  /** In [0, 1). */
  random(): number;
}

export const systemClock: UpdaterClock = { now: () => Date.now(), random: () => Math.random() };

export interface StatusUpdaterOptions {
  /** Writes the status (the NodeImage status subresource). A throw leaves the status pending. */
  write(status: NodeImageStatus): Promise<void>;
  clock?: UpdaterClock;
  qps?: number;
  burst?: number;
}

export class StatusUpdater {
  private readonly clock: UpdaterClock;
  private readonly bucket: TokenBucket;
  private lastWritten: NodeImageStatus | undefined;
  /** upstream starts 24 h in the past, so the first status is never `unchanged` for being recent */
  private lastWriteAt: number;
  private pendingStatus: NodeImageStatus | undefined;
  /** Status writes done. */
  writes = 0;

  constructor(private readonly o: StatusUpdaterOptions) {
    this.clock = o.clock ?? systemClock;
    this.bucket = new TokenBucket(o.qps ?? STATUS_WRITE_QPS, o.burst ?? STATUS_WRITE_BURST, this.clock.now());
    this.lastWriteAt = this.clock.now() - 24 * 3600_000;
  }

  /** The latest status offered and not yet written (a limited or failed write). */
  get pending(): NodeImageStatus | undefined {
    return this.pendingStatus;
  }

  /**
   * Offers `status`: `write` when written, `unchanged` when nothing needs writing, `limited` when held as pending
   * until the next offer (the agent re-syncs in 3–5 s while limited). A failed write throws and stays pending.
   */
  async offer(status: NodeImageStatus): Promise<WriteDecision> {
    const now = this.clock.now();
    const decision = decideStatusWrite({
      status,
      lastWritten: this.lastWritten,
      lastWriteAt: this.lastWriteAt,
      now,
      bucket: this.bucket,
      jitter: this.clock.random(),
    });
    if (decision === 'unchanged') {
      this.pendingStatus = undefined;
      return decision;
    }
    this.pendingStatus = status;
    if (decision === 'limited') return decision;
    await this.write(status, now);
    return decision;
  }

  /**
   * Writes `status` (default: the pending one) now, past the bucket, unless the last write already holds it; for
   * shutdown, so the last reports of the workers reach the NodeImage. Returns whether it wrote.
   */
  async flush(status: NodeImageStatus | undefined = this.pendingStatus): Promise<boolean> {
    if (!status || (this.lastWritten && sameJson(status, this.lastWritten))) {
      this.pendingStatus = undefined;
      return false;
    }
    this.pendingStatus = status;
    await this.write(status, this.clock.now());
    return true;
  }

  private async write(status: NodeImageStatus, now: number): Promise<void> {
    try {
      await this.o.write(status);
      this.lastWritten = status;
      this.writes += 1;
      if (this.pendingStatus === status) this.pendingStatus = undefined;
    } finally {
      // as upstream: the time of the attempt, written or not
      this.lastWriteAt = now;
    }
  }
}
