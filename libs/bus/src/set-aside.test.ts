import { describe, expect, it } from 'vitest';
import { EnvelopeError } from './errors.js';
import { SetAsideKeys, setAsideReason } from './set-aside.js';

describe('SetAsideKeys', () => {
  it('reports a bad value once per key and revision, however often a re-watch reads it again', () => {
    const keys = new SetAsideKeys();
    expect(keys.add('default.zz-poison-1', 7)).toBe(true);
    expect(keys.add('default.zz-poison-1', 7)).toBe(false);
    expect(keys.add('default.zz-poison-1', 9)).toBe(true); // a new bad value is news
    expect(keys.add('default.other', 9)).toBe(true);
    expect(keys.size).toBe(2);
  });

  it('forgets a key once it gets a good value or is deleted; the same bad revision later is reported again', () => {
    const keys = new SetAsideKeys();
    keys.add('a', 1);
    keys.clear('a');
    expect(keys.has('a')).toBe(false);
    expect(keys.size).toBe(0);
    expect(keys.add('a', 1)).toBe(true);
  });

  it('lists its keys as a copy that may be cleared while iterating', () => {
    const keys = new SetAsideKeys();
    keys.add('a', 1);
    keys.add('b', 2);
    for (const k of keys.keys()) keys.clear(k);
    expect(keys.size).toBe(0);
  });
});

describe('setAsideReason', () => {
  it.each([
    [new EnvelopeError('b', 'k', 'not JSON'), 'envelope'],
    [new TypeError('o.metadata.ownerReferences.map is not a function'), 'shape'],
    ['a string thrown', 'shape'],
  ])('%s → %s', (err, reason) => {
    expect(setAsideReason(err)).toBe(reason);
  });
});
