import { Gauge, type Registry } from 'prom-client';
import type { MirrorSet } from './mirror-set.js';

/** Exposes the mirror set's counters on a Prometheus registry (read at scrape time). */
export function registerMirrorMetrics(registry: Registry, set: MirrorSet): void {
  const byKind = (field: 'lists' | 'puts' | 'deletes' | 'errors') =>
    new Gauge({
      name: `regatta_watcher_${field}_total`,
      help: `Mirror ${field} per kind since this process became leader`,
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [kind, s] of Object.entries(set.stats())) this.set({ kind }, s[field]);
      },
    });
  for (const f of ['lists', 'puts', 'deletes', 'errors'] as const) byKind(f);
  new Gauge({
    name: 'regatta_watcher_mirrored_kinds',
    help: 'Kinds this watcher is mirroring (one API watch each)',
    registers: [registry],
    collect() {
      this.set(set.running.length);
    },
  });
}
