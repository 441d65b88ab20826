// Status writes of the puller (`pkg/daemon/imagepuller/utils.go`, statusUpdater): a token bucket of 0.5 writes per
// second with a burst of 5; a status equal to the last one written is re-written only after 12 h plus up to 60 min.

export const STATUS_WRITE_QPS = 0.5;
export const STATUS_WRITE_BURST = 5;
export const UNCHANGED_REWRITE_MS = 12 * 3600_000;
export const UNCHANGED_REWRITE_JITTER_MS = 3600_000;

/** A token bucket (golang.org/x/time/rate's Limiter.Allow) over an explicit clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token if one is there. */
  allow(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export type WriteDecision = 'unchanged' | 'limited' | 'write';

/**
 * Whether to write `status` now. `unchanged`: equal to the last written and not due for the periodic re-write;
 * `limited`: the bucket is empty (try again in a few seconds). `jitter` in [0, 1).
 */
export function decideStatusWrite(o: {
  status: unknown;
  lastWritten: unknown;
  lastWriteAt: number;
  now: number;
  bucket: TokenBucket;
  jitter: number;
}): WriteDecision {
  if (sameJson(o.status, o.lastWritten)) {
    const refresh = UNCHANGED_REWRITE_MS + Math.floor(o.jitter * UNCHANGED_REWRITE_JITTER_MS);
    if (o.now - o.lastWriteAt < refresh) return 'unchanged';
  }
  return o.bucket.allow(o.now) ? 'write' : 'limited';
}

/** JSON equality with object keys in any order (what `util.IsJSONObjectEqual` compares). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([p], [q]) => (p < q ? -1 : 1)))
      : x,
  );
}

/** When to look again: 3–5 s while pulling or limited, else 20–30 min (`imagepuller_controller.go`). */
export function requeueAfterMs(busy: boolean, jitter: number): number {
  return busy ? 3000 + Math.floor(jitter * 2000) : 20 * 60_000 + Math.floor(jitter * 600_000);
}

/** The per-key backoff after a failed sync: 0.5 s doubling up to 50 s (plus up to 5 s drawn once). */
export function syncBackoffMs(failures: number, capJitter = 0): number {
  return Math.min(500 * 2 ** Math.min(failures, 20), 50_000 + Math.floor(capJitter * 5000));
}

/**
 * The earliest a tag's final phase is written, counted from the spec change that started it: upstream's shortest
 * sync interval (3 s). A job over nodes that already hold the image does not complete sooner than upstream's would
 * (its synced pull secrets are still there when OpenKruise's e2e specs look; docs/adr/0041).
 */
export const FINAL_REPORT_MIN_MS = 3000;

/**
 * When to sync after a worker's report (docs/adr/0041, amended): a final phase (Succeeded, Failed) as soon as
 * FINAL_REPORT_MIN_MS have passed since the spec change, so the job controller sees it without waiting for the
 * 3–5 s cadence; any other report (Waiting, Pulling, progress) on that cadence. The write still goes through the
 * token bucket, so a node never writes more than its burst and 0.5 per second.
 */
export function reportSyncDelayMs(o: {
  final: boolean;
  specChangedAt: number;
  now: number;
  jitter: number;
}): number {
  if (!o.final) return requeueAfterMs(true, o.jitter);
  return Math.max(0, o.specChangedAt + FINAL_REPORT_MIN_MS - o.now);
}
