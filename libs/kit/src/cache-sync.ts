/**
 * A controller acts only on caches that follow their buckets (docs/adr/0068-a-bad-bus-entry-is-set-aside.md):
 * while one of a program's caches re-reads its bucket after an interruption, or cannot (its watch keeps failing),
 * every reconcile is held and retried, so no controller creates what a cache merely fails to show. Also the
 * metrics a person reads to see it: `regatta_cache_in_sync{cache}`, `regatta_cache_pending_changes{cache}`,
 * `regatta_cache_entries_set_aside{cache}` and
 * `regatta_cache_entries_set_aside_total{cache,reason}`.
 */
import type { SetAsideEntry } from '@regatta/bus';
import type { Logger, Reconciler } from '@regatta/runtime';
import { Counter, Gauge, type Registry } from 'prom-client';

/** What the gate and the metrics read of a cache. */
export interface CacheSyncState {
  readonly inSync: boolean;
  readonly setAsideCount: number;
  /** Changes delivered by the bus, not applied yet. */
  readonly pending?: number;
}

/** How long a held reconcile waits before it looks again. */
export const HOLD_RETRY_MS = 1_000;

/** The names of the caches that do not follow their buckets now, sorted. */
export function cachesOutOfSync(caches: ReadonlyMap<string, CacheSyncState>): string[] {
  return [...caches].flatMap(([name, c]) => (c.inSync ? [] : [name])).sort();
}

/**
 * `reconciler`, held (requeued after {@link HOLD_RETRY_MS}, nothing read or written) while any of `caches` is out
 * of sync. Says so once when it starts holding and once when it stops.
 */
export function holdWhileOutOfSync(
  reconciler: Reconciler,
  caches: ReadonlyMap<string, CacheSyncState>,
  log: Logger,
): Reconciler {
  let holding = false;
  return {
    reconcile(req, ctx) {
      const behind = cachesOutOfSync(caches);
      if (behind.length > 0) {
        if (!holding)
          log.warn(
            { caches: behind },
            'holding reconciles: these caches are not in sync with the bus (see the cache trouble logged before)',
          );
        holding = true;
        return Promise.resolve({ requeueAfterMs: HOLD_RETRY_MS });
      }
      if (holding) log.info('caches in sync again; reconciling');
      holding = false;
      return reconciler.reconcile(req, ctx);
    },
  };
}

/**
 * The caches' metrics, and the `onSetAside` each cache takes: it logs the entry (once per key and revision, as the
 * cache reports it) and counts it.
 */
export function cacheSyncMetrics(
  registry: Registry,
  caches: ReadonlyMap<string, CacheSyncState>,
  log: Logger,
): (cache: string) => (entry: SetAsideEntry) => void {
  new Gauge({
    name: 'regatta_cache_in_sync',
    help: 'Whether the cache follows its bus bucket (1) or is re-reading it or failing to (0); reconciles wait for 1',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, c] of caches) this.set({ cache }, c.inSync ? 1 : 0);
    },
  });
  new Gauge({
    name: 'regatta_cache_pending_changes',
    help: 'Changes the bus has delivered to the cache that it has not applied yet (a growing value: the program falls behind)',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, c] of caches) this.set({ cache }, c.pending ?? 0);
    },
  });
  new Gauge({
    name: 'regatta_cache_entries_set_aside',
    help: 'Keys of the bucket whose newest value could not be read; the cache keeps their last good object',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, c] of caches) this.set({ cache }, c.setAsideCount);
    },
  });
  const total = new Counter({
    name: 'regatta_cache_entries_set_aside_total',
    help: 'Bus values set aside, by reason: envelope (not a Regatta envelope) or shape (an object the program cannot read)',
    labelNames: ['cache', 'reason'],
    registers: [registry],
  });
  return (cache) => (entry) => {
    total.inc({ cache, reason: entry.reason });
    log.error(
      {
        cache,
        bucket: entry.bucket,
        key: entry.key,
        revision: entry.revision,
        reason: entry.reason,
        err: entry.error,
      },
      'a bus entry cannot be read and is set aside; the rest of the kind goes on. The object stays as last read ' +
        '(or absent) until the watcher writes it again: on any change to it, or when the watcher restarts',
    );
  };
}
