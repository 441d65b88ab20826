import { Counter, Gauge, type Registry } from 'prom-client';
import type { MirrorSet } from './mirror-set.js';

/**
 * Exposes the mirror set's counters on a Prometheus registry, read at scrape time. The `*_total` series are counters
 * (what `_total` promises to `rate()`): each is set to the mirror set's count, which starts again from 0 when this
 * process becomes leader again, and Prometheus takes that drop as a counter reset.
 */
export function registerMirrorMetrics(registry: Registry, set: MirrorSet): void {
  const byKind = (field: 'lists' | 'puts' | 'deletes' | 'errors') =>
    new Counter({
      name: `regatta_watcher_${field}_total`,
      help: `Mirror ${field} per kind since this process became leader`,
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [kind, s] of Object.entries(set.stats())) this.inc({ kind }, s[field]);
      },
    });
  for (const f of ['lists', 'puts', 'deletes', 'errors'] as const) byKind(f);
  new Counter({
    name: 'regatta_mirror_objects_skipped_total',
    help: 'Object versions the watcher set aside instead of mirroring (reason too_large: over the bus value limit)',
    labelNames: ['kind', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, s] of Object.entries(set.stats()))
        for (const [reason, n] of Object.entries(s.skipped)) this.inc({ kind, reason }, n);
    },
  });
  new Counter({
    name: 'regatta_mirror_registrations_refused_total',
    help: 'Registration entries or registered kinds the watcher refused (invalid, unknown_kind, not_allowed, no_secret_hash_key)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(set.refused())) this.inc({ reason }, n);
    },
  });
  new Gauge({
    name: 'regatta_watcher_mirrored_kinds',
    help: 'Kinds this watcher is mirroring (one API watch each)',
    registers: [registry],
    collect() {
      this.set(set.running.length);
    },
  });
}
