import { SAFE_ALPHABET } from '@regatta/revision';
import { describe, expect, it } from 'vitest';
import {
  INSTANCE_ID_LABEL,
  InstanceIdError,
  availableInstanceIds,
  generateInstanceId,
  instanceIdOf,
  podNameFor,
} from './instance-id.js';

const obj = (id: string) => ({ metadata: { labels: { [INSTANCE_ID_LABEL]: id } } });
const seq = (values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};

describe('instance ids', () => {
  it('are 5 characters of the safe alphabet from the random source', () => {
    expect(generateInstanceId(seq([0]))).toBe('bbbbb');
    expect(generateInstanceId(seq([0.9999]))).toBe('99999');
    expect(generateInstanceId(Math.random)).toMatch(new RegExp(`^[${SAFE_ALPHABET}]{5}$`));
    expect(podNameFor('web', 'abcde')).toBe('web-abcde');
    expect(instanceIdOf(obj('x'))).toBe('x');
    expect(instanceIdOf({})).toBe('');
  });

  // TestGetOrGenAvailableIDs: pods {a,b}, PVCs {b,c}, need 2 → c plus one random id
  it('reuses the id of a PVC without pod, then generates one', () => {
    const ids = availableInstanceIds(2, [obj('a'), obj('b')], [obj('b'), obj('c')], seq([0.5]));
    expect(ids).toHaveLength(2);
    expect(ids).toContain('c');
    expect(ids.filter((id) => id !== 'c')[0]).toMatch(/^[a-z0-9]{5}$/);
  });

  it('never returns an id in use or twice, and returns them sorted', () => {
    const taken = generateInstanceId(seq([0]));
    const ids = availableInstanceIds(
      3,
      [obj(taken)],
      [],
      seq([0, 0, 0, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2]),
    );
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(taken);
    expect([...ids].sort()).toEqual(ids);
  });

  it('reuses free PVC ids in sorted order', () => {
    expect(availableInstanceIds(2, [], [obj('z'), obj('m'), obj('q')], seq([0]))).toEqual(['m', 'q']);
  });

  it('gives up on a random source that keeps colliding', () => {
    expect(() => availableInstanceIds(2, [], [], seq([0]))).toThrow(InstanceIdError);
  });
});
