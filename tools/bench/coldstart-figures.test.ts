import { describe, expect, it } from 'vitest';
import { cloneSetCurrent, replicasPerSet, requestsByClient } from './coldstart-figures.js';
import type { AuditRecord } from './rollout-audit.js';

describe('cloneSetCurrent', () => {
  const cs = (generation: number, status?: Record<string, number>) => ({
    metadata: { name: 'a', generation },
    spec: { replicas: 10 },
    ...(status ? { status } : {}),
  });
  const counts = { replicas: 10, readyReplicas: 10, updatedReplicas: 10 };
  it.each([
    ['no status yet', cs(1), false],
    [
      'the latest spec seen, every replica ready and updated',
      cs(2, { observedGeneration: 2, ...counts }),
      true,
    ],
    ['an older spec seen (the start has not reached it)', cs(2, { observedGeneration: 1, ...counts }), false],
    ['one replica not ready', cs(2, { observedGeneration: 2, ...counts, readyReplicas: 9 }), false],
    ['one replica not updated', cs(2, { observedGeneration: 2, ...counts, updatedReplicas: 9 }), false],
    ['one replica missing', cs(2, { observedGeneration: 2, ...counts, replicas: 9 }), false],
  ])('%s → %s', (_, c, want) => expect(cloneSetCurrent(c)).toBe(want));
});

describe('replicasPerSet', () => {
  it.each([
    [10_000, 1000, 1000, 10, 10],
    [1005, 100, 100, 11, 10],
    [5, 10, 5, 1, 1],
  ])('%i pods over %i sets: %i sets of %i…%i', (pods, sets, n, first, last) => {
    const xs = replicasPerSet(pods, sets);
    expect(xs).toHaveLength(n);
    expect(xs[0]).toBe(first);
    expect(xs.at(-1)).toBe(last);
    expect(xs.reduce((a, b) => a + b, 0)).toBe(pods);
  });
});

describe('requestsByClient', () => {
  const rec = (at: number, client: string, verb: string, resource: string, failed = false): AuditRecord => ({
    at,
    end: at + 1,
    client,
    part: '',
    verb,
    resource,
    name: '',
    userAgent: client,
    failed,
  });
  it('counts reads (watches apart) and writes per client inside the window only', () => {
    const t = requestsByClient(
      [
        rec(5, 'regatta-watcher', 'list', 'pods'),
        rec(10, 'regatta-watcher', 'list', 'pods'),
        rec(11, 'regatta-watcher', 'watch', 'pods'),
        rec(12, 'regatta-cloneset', 'get', 'leases'),
        rec(13, 'regatta-cloneset', 'update', 'clonesets/status'),
        rec(14, 'regatta-cloneset', 'update', 'clonesets/status', true),
        rec(31, 'regatta-cloneset', 'update', 'clonesets/status'),
      ],
      10,
      30,
    );
    expect(t.get('regatta-watcher')).toMatchObject({ reads: 2, watches: 1, writes: 0, failed: 0 });
    expect(t.get('regatta-cloneset')).toMatchObject({ reads: 1, watches: 0, writes: 2, failed: 1 });
    expect(t.get('regatta-cloneset')?.byKind.get('clonesets/status update')).toBe(2);
  });
});
