import { describe, expect, it } from 'vitest';
import { secretLeaks } from './secret-scan.js';

const needles = ['s3cret-value', Buffer.from('s3cret-value').toString('base64')];

describe('secretLeaks', () => {
  it('finds a datum in clear or base64 anywhere in a value', () => {
    expect(secretLeaks('{"metadata":{"annotations":{"x":"s3cret-value"}}}', needles)).toEqual([
      'holds "s3cret-value…"',
    ]);
    expect(secretLeaks(`raw ${needles[1]}`, needles)).toHaveLength(1);
  });

  it('flags a mirrored Secret that kept data or stringData, bare or in an envelope', () => {
    expect(secretLeaks(JSON.stringify({ kind: 'Secret', data: { k: 'eA==' } }), needles)).toEqual([
      'a Secret with data',
    ]);
    expect(
      secretLeaks(JSON.stringify({ object: { kind: 'Secret', stringData: { k: 'x' } } }), needles),
    ).toEqual(['a Secret with stringData']);
  });

  it('passes a scrubbed Secret and other objects', () => {
    expect(
      secretLeaks(JSON.stringify({ kind: 'Secret', metadata: { annotations: { h: 'abc' } } }), needles),
    ).toEqual([]);
    expect(secretLeaks(JSON.stringify({ kind: 'ConfigMap', data: { k: 'v' } }), needles)).toEqual([]);
    expect(secretLeaks('not json', needles)).toEqual([]);
  });
});
