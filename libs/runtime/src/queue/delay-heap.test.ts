import { describe, expect, it } from 'vitest';
import { DelayHeap } from './delay-heap.js';

describe('DelayHeap', () => {
  it('pops ready keys earliest first, ties in insertion order', () => {
    const h = new DelayHeap();
    h.push('c', 30);
    h.push('a', 10);
    h.push('b', 10);
    h.push('d', 40);
    expect(h.peekTime()).toBe(10);
    expect(h.popReady(30)).toEqual(['a', 'b', 'c']);
    expect(h.size).toBe(1);
    expect(h.popReady(39)).toEqual([]);
    expect(h.popReady(40)).toEqual(['d']);
    expect(h.peekTime()).toBeUndefined();
  });

  it('holds a key once, keeping the earlier time', () => {
    const h = new DelayHeap();
    expect(h.push('a', 50)).toBe(true);
    expect(h.push('a', 80)).toBe(false);
    expect(h.push('a', 20)).toBe(true);
    expect(h.size).toBe(1);
    expect(h.peekTime()).toBe(20);
    expect(h.popReady(20)).toEqual(['a']);
  });

  it('matches a sorted reference on random input', () => {
    let seed = 42;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 20; round++) {
      const h = new DelayHeap();
      const ref = new Map<string, number>();
      for (let i = 0; i < 300; i++) {
        const key = `k${Math.floor(rand() * 100)}`;
        const at = Math.floor(rand() * 1000);
        h.push(key, at);
        ref.set(key, Math.min(ref.get(key) ?? Infinity, at));
        if (rand() < 0.1) {
          const cut = Math.floor(rand() * 1000);
          const expected = [...ref].filter(([, t]) => t <= cut).map(([k]) => k);
          const got = h.popReady(cut);
          expect(new Set(got)).toEqual(new Set(expected));
          const times = got.map((k) => ref.get(k) ?? 0);
          expect(times).toEqual([...times].sort((x, y) => x - y));
          for (const k of got) ref.delete(k);
        }
      }
      expect(h.size).toBe(ref.size);
    }
  });
});
