import { describe, expect, it } from 'vitest';
import { identityOf, writesAfterResume, zombieViolation } from './r9-zombie.js';

describe('identityOf: the replica a user agent names', () => {
  it.each([
    ['regatta-cloneset/chaos-cloneset', 'chaos-cloneset'],
    ['regatta-cloneset/chaos-cloneset-2/leader-election', 'chaos-cloneset-2'],
    ['regatta-cloneset', undefined],
    ['kube-controller-manager/v1.36.3 (linux/amd64) kubernetes/abc/replicaset-controller', undefined],
  ])('%s → %s', (ua, want) => {
    expect(identityOf(ua)).toBe(want);
  });
});

describe('writesAfterResume', () => {
  const rec = (at: number, userAgent: string, resource = 'pods', verb = 'patch', name = 'p1') => ({
    at,
    userAgent,
    resource,
    verb,
    name,
  });
  const o = { identity: 'chaos-cloneset', fromMs: 100, toMs: 200 };

  it('counts the paused replica’s writes from its resume on, not its Lease writes, not the other replica’s', () => {
    const writes = writesAfterResume(
      [
        rec(90, 'regatta-cloneset/chaos-cloneset'), // before the resume: before the pause, in flight
        rec(120, 'regatta-cloneset/chaos-cloneset/leader-election', 'leases', 'update', 'regatta-cloneset'),
        rec(130, 'regatta-cloneset/chaos-cloneset-2'), // the successor
        rec(140, 'regatta-cloneset/chaos-cloneset', 'pods/status'),
        rec(150, 'regatta-cloneset/chaos-cloneset', 'events', 'create', 'cs.1'),
        rec(250, 'regatta-cloneset/chaos-cloneset'), // its next life, started again
      ],
      o,
    );
    expect(writes).toEqual([
      { at: 140, what: 'patch pods/status p1' },
      { at: 150, what: 'create events cs.1' },
    ]);
  });

  it('a zombie violation names the writes; none without writes', () => {
    expect(zombieViolation([], 1)).toBeUndefined();
    expect(zombieViolation([{ at: 140, what: 'patch pods p1' }], 1)).toEqual({
      kind: 'zombie',
      at: 1,
      count: 1,
      detail: 'the paused leader wrote 1 time(s) after it resumed: patch pods p1',
    });
  });
});
