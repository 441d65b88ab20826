/**
 * Pure event de-duplication and aggregation, as client-go's EventCorrelator does it within one process:
 *
 * - identical events (same source, involved object, type, reason and message) are one Event whose `count` grows:
 *   the first is created, repeats are patched (count, lastTimestamp, message);
 * - once `maxSimilar` different messages for the same (source, object, type, reason) arrive within `similarWindowMs`,
 *   further ones are folded into a single Event with the message
 *   `(combined from similar events): <latest message>`;
 * - each (source, object, type) writes at most `spam.burst` occurrences at once, then one per `1 / spam.qps` seconds
 *   (client-go's spam filter, {@link EventSpamFilter}); an occurrence it holds back is counted but not written;
 * - the caches are LRU-bounded.
 */
import { randomInt } from 'node:crypto';
import { EventSpamFilter, SEP, spamKey, type SpamFilterOptions } from './event-spam-filter.js';
import type { InvolvedObject } from './event-types.js';
import { Lru } from './lru.js';
import { toRfc3339 } from './time.js';

export interface EventCorrelatorOptions {
  /** Distinct messages per (object, reason) before combining; client-go: 10. */
  maxSimilar?: number;
  /** Window for counting similar messages; client-go: 10 minutes. */
  similarWindowMs?: number;
  /** Entries per cache; client-go: 4096. */
  cacheSize?: number;
  /**
   * Where this correlator's sub-millisecond name counter starts, in [0, 1e6); random by default, so two recorders
   * (two agents, two replicas) naming an event about the same object in the same millisecond rarely pick the same
   * name. Fixed only by tests.
   */
  nameOffset?: number;
  /** client-go's per-object rate limit (25 at once, then one per 5 minutes); `false` writes every occurrence. */
  spam?: SpamFilterOptions | false;
}

export interface EventInput {
  component: string;
  host?: string;
  involvedObject: InvolvedObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface CorrelatedEvent {
  /**
   * `create` a new Event named `name`, `patch` the existing one, or `skip`: the spam filter holds this occurrence back
   * (the count keeps it; the next written occurrence carries it).
   */
  action: 'create' | 'patch' | 'skip';
  /** The cache key; pass it back to {@link EventCorrelator.forget} / {@link EventCorrelator.rename}. */
  key: string;
  name: string;
  namespace: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

export const COMBINED_PREFIX = '(combined from similar events): ';


/** The identity of an event for de-duplication (client-go `getEventKey`). */
export function eventKey(e: EventInput): string {
  const o = e.involvedObject;
  return [e.component, e.host ?? '', o.kind, o.namespace ?? '', o.name, o.fieldPath ?? '', o.uid ?? '', o.apiVersion, e.type, e.reason, e.message].join(SEP);
}

/** The identity of similar events, the message left out (client-go `EventAggregatorByReasonFunc`): the spam key and the reason. */
export function similarEventKey(e: EventInput): string {
  return `${spamKey(e)}${SEP}${e.reason}`;
}

/** The namespace an Event about this object lives in: the object's, or `default` for cluster-scoped objects. */
export function eventNamespace(o: InvolvedObject): string {
  return o.namespace || 'default';
}

interface Observed {
  name: string;
  count: number;
  firstTimestamp: string;
  /** False while every occurrence so far was held back: the next written one creates the Event. */
  created: boolean;
}

interface SimilarRecord {
  messages: Set<string>;
  lastMs: number;
}

export class EventCorrelator {
  private readonly maxSimilar: number;
  private readonly windowMs: number;
  private readonly observed: Lru<Observed>;
  private readonly similar: Lru<SimilarRecord>;
  private readonly spam: EventSpamFilter | undefined;
  private seq: number;

  constructor(options: EventCorrelatorOptions = {}) {
    this.seq = options.nameOffset ?? randomInt(1_000_000);
    this.maxSimilar = options.maxSimilar ?? 10;
    this.windowMs = options.similarWindowMs ?? 600_000;
    this.observed = new Lru(options.cacheSize ?? 4096);
    this.similar = new Lru(options.cacheSize ?? 4096);
    this.spam = options.spam === false ? undefined : new EventSpamFilter(options.spam);
  }

  /** Records one occurrence at `now` and says how to write it. */
  observe(e: EventInput, now: Date): CorrelatedEvent {
    const ts = toRfc3339(now);
    let key = eventKey(e);
    let message = e.message;
    const simKey = similarEventKey(e);
    let rec = this.similar.get(simKey);
    if (rec === undefined || now.getTime() - rec.lastMs > this.windowMs) rec = { messages: new Set(), lastMs: now.getTime() };
    rec.messages.add(e.message);
    rec.lastMs = now.getTime();
    if (rec.messages.size >= this.maxSimilar) {
      // keep the set bounded, as client-go does, and fold this occurrence into the combined event
      const first = rec.messages.values().next().value;
      if (first !== undefined) rec.messages.delete(first);
      key = simKey;
      message = COMBINED_PREFIX + e.message;
    }
    this.similar.set(simKey, rec);

    const namespace = eventNamespace(e.involvedObject);
    const prev = this.observed.get(key);
    const name = prev?.name ?? this.newName(e.involvedObject.name, now);
    const count = (prev?.count ?? 0) + 1;
    const firstTimestamp = prev?.firstTimestamp ?? ts;
    const written = this.spam?.accept(e, now) ?? true;
    const created = prev?.created ?? false;
    this.observed.set(key, { name, count, firstTimestamp, created: created || written });
    const action = !written ? 'skip' : created ? 'patch' : 'create';
    return { action, key, name, namespace, message, count, firstTimestamp, lastTimestamp: ts };
  }

  /** Forgets a key whose create failed, so the next occurrence creates again. */
  forget(key: string): void {
    this.observed.delete(key);
  }

  /**
   * The patched Event had vanished (events expire after an hour): returns a fresh name to create it under, keeping
   * the count, and remembers it.
   */
  rename(key: string, objectName: string, now: Date): string {
    const prev = this.observed.get(key);
    const name = this.newName(objectName, now);
    if (prev !== undefined) this.observed.set(key, { ...prev, name });
    return name;
  }

  /**
   * `<object>.<hex nanoseconds>` like client-go, within 253 characters: unique within this correlator; another
   * process may still pick the same name, which the recorder meets with a new one.
   */
  private newName(objectName: string, now: Date): string {
    const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    const suffix = nanos.toString(16);
    const base = objectName.slice(0, 253 - 1 - suffix.length).replace(/[^a-z0-9]+$/, '');
    return `${base}.${suffix}`;
  }
}
