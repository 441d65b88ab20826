import { describe, expect, it } from 'vitest';
import { PodIpAllocator, nodeAddressing, prefixOctet } from './addressing.js';

describe('nodeAddressing', () => {
  it('gives node k of the default prefix 10.244.k.0/24 and 172.18.0.k', () => {
    expect(nodeAddressing('node', 3)).toEqual({
      podCIDR: '10.244.3.0/24',
      podPrefix: '10.244.3',
      internalIP: '172.18.0.3',
    });
  });

  it('gives other prefixes their own ranges, stable per prefix', () => {
    const a = nodeAddressing('sim-abc-', 1);
    expect(a).toEqual(nodeAddressing('sim-abc-', 1));
    expect(a.podCIDR).not.toBe(nodeAddressing('node', 1).podCIDR);
    expect(prefixOctet('sim-abc-')).toBeGreaterThanOrEqual(1);
    expect(prefixOctet('sim-abc-')).toBeLessThanOrEqual(111);
  });

  it('keeps large node counts distinct', () => {
    const cidrs = new Set(Array.from({ length: 600 }, (_, i) => nodeAddressing('node', i + 1).podCIDR));
    expect(cidrs.size).toBe(600);
  });
});

describe('PodIpAllocator', () => {
  it('hands out the lowest free address from .2, respects reservations and reuses released ones', () => {
    const a = new PodIpAllocator('10.244.1');
    a.reserve('10.244.1.2');
    expect(a.allocate()).toBe('10.244.1.3');
    expect(a.allocate()).toBe('10.244.1.4');
    a.release('10.244.1.3');
    expect(a.allocate()).toBe('10.244.1.3');
    expect(a.owns('10.244.1.9')).toBe(true);
    expect(a.owns('10.244.2.9')).toBe(false);
    expect(a.owns('10.244.1.255')).toBe(false);
  });

  it('does not fail when the range is exhausted', () => {
    const a = new PodIpAllocator('10.0.0');
    for (let i = 0; i < 253; i++) a.allocate();
    expect(a.allocate()).toBe('10.0.0.2');
  });
});
