/**
 * client-go's per-source, per-object event rate limit (`EventSourceObjectSpamFilter` in
 * k8s.io/client-go/tools/record/events_cache.go): each (source, involved object, type) has a token bucket that
 * starts full at `burst` and refills at `qps` tokens a second. An occurrence that finds no token is not written; the
 * correlator still counts it, so the next write carries the count. client-go's defaults: 25 at once, then one every
 * five minutes.
 */
import type { EventInput } from './event-correlator.js';
import { Lru } from './lru.js';

export interface SpamFilterOptions {
  /** Occurrences one (source, object, type) may write at once; client-go: 25. */
  burst?: number;
  /** Tokens per second the bucket refills with; client-go: 1/300. */
  qps?: number;
  /** Buckets kept (least recently used dropped); client-go: 4096. */
  cacheSize?: number;
}

/** Joins the parts of the correlator's keys (a character no name or reason holds). */
export const SEP = '\u0000';

/** The bucket an event draws from (client-go `getSpamKey`): source, involved object and type, not reason or message. */
export function spamKey(e: EventInput): string {
  const o = e.involvedObject;
  return [
    e.component,
    e.host ?? '',
    o.kind,
    o.namespace ?? '',
    o.name,
    o.uid ?? '',
    o.apiVersion,
    e.type,
  ].join(SEP);
}

interface Bucket {
  tokens: number;
  atMs: number;
}

export class EventSpamFilter {
  private readonly burst: number;
  private readonly perMs: number;
  private readonly buckets: Lru<Bucket>;

  constructor(options: SpamFilterOptions = {}) {
    this.burst = options.burst ?? 25;
    this.perMs = (options.qps ?? 1 / 300) / 1000;
    this.buckets = new Lru(options.cacheSize ?? 4096);
  }

  /** Takes a token for this occurrence at `now`: false when there is none, and the occurrence is not to be written. */
  accept(e: EventInput, now: Date): boolean {
    const key = spamKey(e);
    const nowMs = now.getTime();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, atMs: nowMs };
    const tokens = Math.min(this.burst, bucket.tokens + Math.max(0, nowMs - bucket.atMs) * this.perMs);
    const accepted = tokens >= 1;
    this.buckets.set(key, { tokens: accepted ? tokens - 1 : tokens, atMs: nowMs });
    return accepted;
  }
}
