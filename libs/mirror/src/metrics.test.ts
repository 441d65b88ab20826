import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerMirrorMetrics } from './metrics.js';
import type { MirrorSet } from './mirror-set.js';

/** The parts of a mirror set the metrics read, as plain data. */
function counts(puts: number) {
  return {
    stats: () => ({ 'pods.v1': { lists: 1, puts, deletes: 0, errors: 0, skipped: { too_large: 2 } } }),
    refused: () => ({ unknown_kind: 3 }),
    running: ['pods.v1'],
  };
}

describe('mirror metrics', () => {
  it('exposes the *_total series as counters with the mirror set counts, and the kinds mirrored as a gauge', async () => {
    const registry = new Registry();
    let set = counts(5);
    registerMirrorMetrics(registry, {
      stats: () => set.stats(),
      refused: () => set.refused(),
      get running() {
        return set.running;
      },
    } as unknown as MirrorSet);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE regatta_watcher_puts_total counter');
    expect(text).toContain('regatta_watcher_puts_total{kind="pods.v1"} 5');
    expect(text).toContain('# TYPE regatta_mirror_objects_skipped_total counter');
    expect(text).toContain('regatta_mirror_objects_skipped_total{kind="pods.v1",reason="too_large"} 2');
    expect(text).toContain('regatta_mirror_registrations_refused_total{reason="unknown_kind"} 3');
    expect(text).toContain('# TYPE regatta_watcher_mirrored_kinds gauge');
    // leadership regained: the counts start again, a counter reset to Prometheus
    set = counts(1);
    expect(await registry.metrics()).toContain('regatta_watcher_puts_total{kind="pods.v1"} 1');
  });
});
