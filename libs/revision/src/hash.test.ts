import { describe, expect, it } from 'vitest';
import { Fnv32, SAFE_ALPHABET, deepHashJsonBytes, fnv1_32, fnv1a_32, safeEncodeString } from './hash.js';

describe('FNV 32-bit', () => {
  // published test vectors (Fowler/Noll/Vo)
  const vectors: [string, number, number][] = [
    ['', 0x811c9dc5, 0x811c9dc5],
    ['a', 0x050c5d7e, 0xe40c292c],
    ['foobar', 0x31f0b262, 0xbf9cf968],
  ];
  it.each(vectors)('%j → fnv1 %i, fnv1a %i', (s, v1, v1a) => {
    expect(fnv1_32(s)).toBe(v1);
    expect(fnv1a_32(s)).toBe(v1a);
  });

  it('writes incrementally like one write of the concatenation', () => {
    expect(new Fnv32('fnv1').write('foo').write('bar').sum32()).toBe(fnv1_32('foobar'));
    expect(new Fnv32('fnv1a').write(new TextEncoder().encode('foo')).write('bar').sum32()).toBe(
      fnv1a_32('foobar'),
    );
  });

  it('hashes strings as UTF-8', () => {
    expect(fnv1_32('é')).toBe(fnv1_32(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('safeEncodeString', () => {
  it('maps decimal digits as the spec lists (0→4 … 9→f)', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
  it('only produces characters of the safe alphabet', () => {
    expect([...safeEncodeString('any String: 42!')].every((c) => SAFE_ALPHABET.includes(c))).toBe(true);
  });
});

describe('deepHashJsonBytes (DeepHashObject over a []byte)', () => {
  it('hashes the spew rendering "([]uint8)[…]" with FNV-1a', () => {
    expect(deepHashJsonBytes('{}')).toBe(fnv1a_32('([]uint8)[123 125]'));
  });
  it('matches Go for an env list (cross-checked with go-spew and encoding/json)', () => {
    expect(deepHashJsonBytes('[{"name":"A","value":"x\\u003cy"},{"name":"B"}]')).toBe(1725722999);
  });
});
