/**
 * Pure event de-duplication and aggregation, as client-go's EventCorrelator does it within one process:
 *
 * - identical events (same source, involved object, type, reason and message) are one Event whose `count` grows:
 *   the first is created, repeats are patched (count, lastTimestamp, message);
 * - once `maxSimilar` different messages for the same (source, object, type, reason) arrive within `similarWindowMs`,
 *   further ones are folded into a single Event with the message
 *   `(combined from similar events): <latest message>`;
 * - both caches are LRU-bounded.
 *
 * client-go's per-object spam filter (token bucket) is not reproduced.
 */
import { randomInt } from 'node:crypto';
import type { InvolvedObject } from './event-types.js';

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
  /** `create` a new Event named `name`, or `patch` the existing one. */
  action: 'create' | 'patch';
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

const SEP = '\u0000';

/** The identity of an event for de-duplication (client-go `getEventKey`). */
export function eventKey(e: EventInput): string {
  const o = e.involvedObject;
  return [e.component, e.host ?? '', o.kind, o.namespace ?? '', o.name, o.fieldPath ?? '', o.uid ?? '', o.apiVersion, e.type, e.reason, e.message].join(SEP);
}

/** The identity of similar events, the message left out (client-go `EventAggregatorByReasonFunc`). */
export function similarEventKey(e: EventInput): string {
  const o = e.involvedObject;
  return [e.component, e.host ?? '', o.kind, o.namespace ?? '', o.name, o.uid ?? '', o.apiVersion, e.type, e.reason].join(SEP);
}

/** The namespace an Event about this object lives in: the object's, or `default` for cluster-scoped objects. */
export function eventNamespace(o: InvolvedObject): string {
  return o.namespace || 'default';
}

class Lru<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly size: number) {}

  get(k: string): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }

  set(k: string, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    while (this.map.size > this.size) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  delete(k: string): void {
    this.map.delete(k);
  }
}

interface Observed {
  name: string;
  count: number;
  firstTimestamp: string;
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
  private seq: number;

  constructor(options: EventCorrelatorOptions = {}) {
    this.seq = options.nameOffset ?? randomInt(1_000_000);
    this.maxSimilar = options.maxSimilar ?? 10;
    this.windowMs = options.similarWindowMs ?? 600_000;
    this.observed = new Lru(options.cacheSize ?? 4096);
    this.similar = new Lru(options.cacheSize ?? 4096);
  }

  /** Records one occurrence at `now` and says how to write it. */
  observe(e: EventInput, now: Date): CorrelatedEvent {
    const ts = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
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
    if (prev !== undefined) {
      const next = { ...prev, count: prev.count + 1 };
      this.observed.set(key, next);
      return { action: 'patch', key, name: prev.name, namespace, message, count: next.count, firstTimestamp: prev.firstTimestamp, lastTimestamp: ts };
    }
    const name = this.newName(e.involvedObject.name, now);
    this.observed.set(key, { name, count: 1, firstTimestamp: ts });
    return { action: 'create', key, name, namespace, message, count: 1, firstTimestamp: ts, lastTimestamp: ts };
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
