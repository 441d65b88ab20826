import { describe, expect, it } from 'vitest';
import {
  collectionOf,
  cutPoint,
  decideWatcherFault,
  eventsIn,
  goneEventLine,
  resourceVersionOf,
} from './api-faults-watcher.js';
import { seededRandom } from './schedule.js';

const enc = (s: string) => new TextEncoder().encode(s);
const WATCH = '/api/v1/pods?allowWatchBookmarks=true&resourceVersion=42&timeoutSeconds=300&watch=true';
const LIST = '/api/v1/pods?limit=500';

describe('decideWatcherFault', () => {
  it('spares the Lease, Events and writes, and breaks nothing at rate 0', () => {
    const always = () => 0;
    for (const [method, path] of [
      ['GET', '/apis/coordination.k8s.io/v1/namespaces/regatta-system/leases/regatta-watcher'],
      ['PUT', '/apis/coordination.k8s.io/v1/namespaces/regatta-system/leases/regatta-watcher'],
      ['POST', '/api/v1/namespaces/x/events'],
    ] as const)
      expect(decideWatcherFault(always, { method, path, reestablish: false }, 1)).toBeUndefined();
    expect(
      decideWatcherFault(seededRandom(1), { method: 'GET', path: WATCH, reestablish: true }, 0),
    ).toBeUndefined();
  });

  it('gives lists 429, 500 and delays; watches also drops and clean ends, and 410 only when resumed', () => {
    const rand = seededRandom(7);
    const seen = { list: new Set<string>(), first: new Set<string>(), resumed: new Set<string>() };
    for (let i = 0; i < 600; i++) {
      seen.list.add(
        decideWatcherFault(rand, { method: 'GET', path: LIST, reestablish: false }, 0.5)?.kind ?? 'none',
      );
      seen.first.add(decideWatcherFault(rand, { method: 'GET', path: WATCH, reestablish: false }, 0.5)!.kind);
      seen.resumed.add(
        decideWatcherFault(rand, { method: 'GET', path: WATCH, reestablish: true }, 0.5)!.kind,
      );
    }
    expect(seen.list).toEqual(new Set(['429', '500', 'delay', 'none']));
    expect(seen.first).toEqual(new Set(['drop-watch', 'end-watch', '429', '500', 'delay']));
    expect(seen.resumed).toEqual(new Set(['drop-watch', 'end-watch', '410', '429', '500', 'delay']));
  });

  it('cuts every other watch after 1–60 events or 2–60 s, and delays 0.5–5 s', () => {
    const rand = seededRandom(11);
    let cuts = 0;
    for (let i = 0; i < 500; i++) {
      const f = decideWatcherFault(rand, { method: 'GET', path: WATCH, reestablish: false }, 0.1);
      expect(f).toBeDefined();
      if (f?.kind === 'drop-watch' || f?.kind === 'end-watch') {
        cuts++;
        expect(f.afterEvents).toBeGreaterThanOrEqual(1);
        expect(f.afterEvents).toBeLessThanOrEqual(60);
        expect(f.afterMs).toBeGreaterThanOrEqual(2000);
        expect(f.afterMs).toBeLessThanOrEqual(60_000);
      }
      if (f?.kind === 'delay') {
        expect(f.ms).toBeGreaterThanOrEqual(500);
        expect(f.ms).toBeLessThanOrEqual(5000);
      }
    }
    expect(cuts).toBeGreaterThan(400);
  });

  it('breaks about `rate` of the lists, and answers about `rate` of the resumed watches 410', () => {
    const rand = seededRandom(5);
    let lists = 0;
    let gone = 0;
    for (let i = 0; i < 10_000; i++) {
      if (decideWatcherFault(rand, { method: 'GET', path: LIST, reestablish: false }, 0.3)) lists++;
      if (decideWatcherFault(rand, { method: 'GET', path: WATCH, reestablish: true }, 0.3)?.kind === '410')
        gone++;
    }
    for (const n of [lists, gone]) {
      expect(n).toBeGreaterThan(2800);
      expect(n).toBeLessThan(3200);
    }
  });
});

describe('cutPoint', () => {
  const chunk = enc('{"a":1}\n{"b":2}\n{"c":3}\n');
  it.each([
    // eventsBefore, afterEvents, midEvent → bytes forwarded before the cut
    [0, 1, false, 8],
    [0, 2, false, 16],
    [1, 2, false, 8],
    [0, 1, true, 8 + 3], // half of the next event's 7 bytes
    [0, 3, true, 24], // no next event in the chunk: cut at the boundary
    [0, 4, false, undefined],
    [5, 3, false, 8], // already past the target: at the first boundary
  ])('after %i events, cut after event %i (mid-event %s) → %s', (before, after, mid, want) => {
    expect(cutPoint(chunk, before, after, mid)).toBe(want);
  });

  it('finds the cut in a chunk that begins mid-event', () => {
    expect(cutPoint(enc('1}\n{"b":2}\n'), 0, 1, false)).toBe(3);
  });
});

describe('helpers', () => {
  it('eventsIn counts whole lines', () => {
    expect(eventsIn(enc('{"a":1}\n{"b"'))).toBe(1);
  });

  it('the 410 line is an ERROR event with a 410 Expired Status', () => {
    const line = goneEventLine('42');
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', reason: 'Expired', code: 410 },
    });
  });

  it('reads the collection and the resourceVersion of a path', () => {
    expect(collectionOf(WATCH)).toBe('/api/v1/pods');
    expect(resourceVersionOf(WATCH)).toBe('42');
    expect(resourceVersionOf(LIST)).toBe('');
  });
});
