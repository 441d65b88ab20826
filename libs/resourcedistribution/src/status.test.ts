// §7.1 status and §7.3 step 5 (calculateNewStatus), and the slow-start batches (syncItSlowly).
import { describe, expect, it } from 'vitest';
import { inSlowStartBatches } from './batches.js';
import { distributionConditions, distributionStatus, statusChanged } from './status.js';

const T0 = new Date('2026-12-03T08:00:00Z');
const T1 = new Date('2026-12-03T09:00:00Z');

describe('distributionConditions: all six, in the fixed order', () => {
  it('no failure: every condition False with reason Succeeded', () => {
    const c = distributionConditions([], undefined, T0);
    expect(c.map((x) => [x.type, x.status, x.reason])).toEqual([
      ['GetResourceFailed', 'False', 'Succeeded'],
      ['CreateResourceFailed', 'False', 'Succeeded'],
      ['UpdateResourceFailed', 'False', 'Succeeded'],
      ['DeleteResourceFailed', 'False', 'Succeeded'],
      ['ConflictOccurred', 'False', 'Succeeded'],
      ['NamespaceNotExists', 'False', 'Succeeded'],
    ]);
    expect(c.every((x) => x.lastTransitionTime === '2026-12-03T08:00:00Z' && !x.failedNamespaces)).toBe(true);
  });
  it('failures: True, reason = the last error, the namespaces in both version names', () => {
    const c = distributionConditions(
      [
        { namespace: 'ns-2', condition: 'ConflictOccurred', message: 'first' },
        { namespace: 'ns-3', condition: 'ConflictOccurred', message: 'last' },
        { namespace: 'ghost', condition: 'NamespaceNotExists', message: 'namespace not found or is terminating' },
      ],
      undefined,
      T0,
    );
    expect(c[4]).toEqual({ type: 'ConflictOccurred', status: 'True', reason: 'last', failedNamespaces: ['ns-2', 'ns-3'], failedNamespace: ['ns-2', 'ns-3'], lastTransitionTime: '2026-12-03T08:00:00Z' });
    expect(c[5]?.failedNamespaces).toEqual(['ghost']);
    expect(c[0]?.status).toBe('False');
  });
  it('lastTransitionTime moves only when the status flips', () => {
    const before = distributionConditions([{ namespace: 'a', condition: 'CreateResourceFailed', message: 'x' }], undefined, T0);
    const after = distributionConditions([{ namespace: 'b', condition: 'UpdateResourceFailed', message: 'y' }], before, T1);
    expect(after.map((c) => c.lastTransitionTime)).toEqual([
      '2026-12-03T08:00:00Z',
      '2026-12-03T09:00:00Z', // True → False
      '2026-12-03T09:00:00Z', // False → True
      '2026-12-03T08:00:00Z',
      '2026-12-03T08:00:00Z',
      '2026-12-03T08:00:00Z',
    ]);
  });
});

describe('distributionStatus', () => {
  it('failed = desired − succeeded, observedGeneration, and no write when nothing changed', () => {
    const s = distributionStatus({ desired: 4, succeeded: 3, failures: [{ namespace: 'n', condition: 'NamespaceNotExists', message: 'm' }], generation: 2 }, undefined, T0);
    expect([s.desired, s.succeeded, s.failed, s.observedGeneration]).toEqual([4, 3, 1, 2]);
    const again = distributionStatus({ desired: 4, succeeded: 3, failures: [{ namespace: 'n', condition: 'NamespaceNotExists', message: 'm' }], generation: 2 }, s, T1);
    expect(statusChanged(s, again)).toBe(false);
    expect(statusChanged(s, { ...again, succeeded: 4 })).toBe(true);
  });
});

describe('inSlowStartBatches (syncItSlowly)', () => {
  it('batches of 1, 2, 4, … and every item is tried even after failures', async () => {
    const items = Array.from({ length: 10 }, (_, i) => `ns-${i}`);
    const running: number[] = [];
    let now = 0;
    const out = await inSlowStartBatches(items, async (ns) => {
      now++;
      running.push(now);
      await Promise.resolve();
      now--;
      return ns.endsWith('0') || ns.endsWith('3') ? 'failed' : 'ok';
    });
    expect(out).toHaveLength(10);
    expect(out.filter((x) => x === 'failed')).toHaveLength(2);
    expect(Math.max(...running)).toBe(4); // sizes 1, 2, 4, 3
  });
  it('a batch never exceeds maxBatch', async () => {
    let inFlight = 0;
    let seen = 0;
    await inSlowStartBatches(
      Array.from({ length: 10 }, (_, i) => `ns-${i}`),
      async () => {
        inFlight++;
        seen = Math.max(seen, inFlight);
        await Promise.resolve();
        inFlight--;
      },
      { maxBatch: 3 },
    );
    expect(seen).toBe(3);
  });
  it('nothing to do', async () => {
    expect(await inSlowStartBatches([], async () => 1)).toEqual([]);
  });
});
