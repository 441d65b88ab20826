import { describe, expect, it } from 'vitest';
import { countPodWrites, podWritesViolation, type PodWrite } from './r6-writes.js';

const KILL = 10_000;
/** Writes of one pod at the given times (ms), each answered 20 ms later unless `failed` (answered at the kill). */
const pod = (name: string, ...ats: (number | [number, 'failed'])[]): PodWrite[] =>
  ats.map((a) =>
    Array.isArray(a)
      ? { pod: name, at: a[0], end: KILL + 100, failed: true }
      : { pod: name, at: a, end: a + 20, failed: false },
  );

describe('countPodWrites (no extra pod writes after a restart mid-rollout)', () => {
  const cases: { what: string; writes: PodWrite[]; extra: string[]; inFlight: number }[] = [
    {
      what: 'the protocol: 3 writes, all before the kill',
      writes: pod('a', 1000, 1100, 1200),
      extra: [],
      inFlight: 0,
    },
    {
      what: 'the protocol across the kill: 1 before, 2 after',
      writes: pod('a', 1000, 12_000, 12_100),
      extra: [],
      inFlight: 0,
    },
    {
      what: 'a write cut by the kill (context canceled), done again after the restart',
      writes: pod('a', 1000, 1100, [9_990, 'failed'], 12_000),
      extra: [],
      inFlight: 1,
    },
    {
      what: 'a write applied while the kill came, its answer lost, done again',
      writes: [
        ...pod('a', 1000, 1100),
        { pod: 'a', at: 9_990, end: 10_050, failed: false },
        ...pod('a', 12_000),
      ],
      extra: [],
      inFlight: 1,
    },
    {
      what: 'a 4th write after the restart with nothing in flight: the violation',
      writes: pod('a', 1000, 1100, 1200, 12_000),
      extra: ['a'],
      inFlight: 0,
    },
    {
      what: 'a conflict after the restart (a stale cache) counts as a write',
      writes: [
        ...pod('a', 1000, 1100),
        { pod: 'a', at: 12_000, end: 12_010, failed: true },
        ...pod('a', 12_100),
      ],
      extra: ['a'],
      inFlight: 0,
    },
    {
      what: 'two writes more than the protocol even with one in flight',
      writes: pod('a', 1000, 1100, [9_990, 'failed'], 12_000, 12_100),
      extra: ['a'],
      inFlight: 1,
    },
  ];
  it.each(cases)('$what', ({ writes, extra, inFlight }) => {
    const c = countPodWrites(writes, KILL);
    expect(c.extra.map((x) => x.pod)).toEqual(extra);
    expect(c.inFlightAtKill).toBe(inFlight);
    expect(podWritesViolation(c, 0)?.kind).toBe(extra.length > 0 ? 'writes' : undefined);
  });

  it('reports no-fault when no write was seen (the audit log tested nothing)', () => {
    expect(podWritesViolation(countPodWrites([], KILL), 0)?.kind).toBe('no-fault');
  });
});
