import { describe, expect, it } from 'vitest';
import { type Condition, getCondition, isConditionTrue, removeCondition, setCondition } from './conditions.js';

const T0 = '2024-01-01T00:00:00Z';
const T1 = new Date('2024-01-01T00:05:00.123Z');
const T1S = '2024-01-01T00:05:00Z';

describe('setCondition', () => {
  const base: Condition[] = [
    { type: 'Ready', status: 'True', reason: 'A', message: 'm', lastTransitionTime: T0 },
    { type: 'Progressing', status: 'True', reason: 'X', lastTransitionTime: T0, lastUpdateTime: T0 },
  ];

  it('adds a new condition with lastTransitionTime = now (whole seconds)', () => {
    const out = setCondition(base, { type: 'Failed', status: 'True', reason: 'R' }, T1);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({ type: 'Failed', status: 'True', reason: 'R', lastTransitionTime: T1S });
  });

  it('keeps lastTransitionTime while the status is unchanged, taking reason and message', () => {
    const out = setCondition(base, { type: 'Ready', status: 'True', reason: 'B', message: 'n' }, T1);
    expect(out[0]).toEqual({ type: 'Ready', status: 'True', reason: 'B', message: 'n', lastTransitionTime: T0 });
  });

  it('moves lastTransitionTime when the status changes, in place', () => {
    const out = setCondition(base, { type: 'Ready', status: 'False', reason: 'B' }, T1);
    expect(out.map((c) => c.type)).toEqual(['Ready', 'Progressing']);
    expect(out[0]?.lastTransitionTime).toBe(T1S);
  });

  it('uses a given lastTransitionTime on a status change', () => {
    const out = setCondition(base, { type: 'Ready', status: 'False', lastTransitionTime: '2023-12-31T00:00:00Z' }, T1);
    expect(out[0]?.lastTransitionTime).toBe('2023-12-31T00:00:00Z');
  });

  it('keepWhileUnchanged: same status and reason keep the condition whole (no new message, no new time)', () => {
    const out = setCondition(base, { type: 'Ready', status: 'True', reason: 'A', message: 'other' }, T1, {
      keepWhileUnchanged: true,
    });
    expect(out).toEqual(base);
  });

  it('keepWhileUnchanged: a new reason with the same status keeps lastTransitionTime, takes the message', () => {
    const out = setCondition(base, { type: 'Ready', status: 'True', reason: 'B', message: 'n' }, T1, {
      keepWhileUnchanged: true,
    });
    expect(out[0]).toEqual({ type: 'Ready', status: 'True', reason: 'B', message: 'n', lastTransitionTime: T0 });
  });

  it('keepWhileUnchanged: a status change moves lastTransitionTime', () => {
    const out = setCondition(base, { type: 'Ready', status: 'False', reason: 'A' }, T1, { keepWhileUnchanged: true });
    expect(out[0]?.lastTransitionTime).toBe(T1S);
  });

  it('is pure', () => {
    const copy = structuredClone(base);
    setCondition(base, { type: 'Ready', status: 'False' }, T1);
    expect(base).toEqual(copy);
  });

  it('accepts a missing list', () => {
    expect(setCondition(undefined, { type: 'A', status: 'Unknown' }, T0)).toEqual([
      { type: 'A', status: 'Unknown', lastTransitionTime: T0 },
    ]);
  });

  const updates: [string, Condition, string][] = [
    ['same status and reason keeps lastUpdateTime', { type: 'Progressing', status: 'True', reason: 'X' }, T0],
    ['new reason moves lastUpdateTime', { type: 'Progressing', status: 'True', reason: 'Y' }, T1S],
    ['new status moves lastUpdateTime', { type: 'Progressing', status: 'False', reason: 'X' }, T1S],
  ];
  it.each(updates)('lastUpdateTime option: %s', (_name, cond, expected) => {
    const out = setCondition(base, cond, T1, { lastUpdateTime: true });
    expect(getCondition(out, 'Progressing')?.lastUpdateTime).toBe(expected);
    expect(getCondition(out, 'Progressing')?.lastTransitionTime).toBe(cond.status === 'True' ? T0 : T1S);
  });
});

describe('get / remove', () => {
  const list: Condition[] = [
    { type: 'A', status: 'True' },
    { type: 'B', status: 'False' },
  ];
  it('gets by type', () => {
    expect(getCondition(list, 'B')?.status).toBe('False');
    expect(getCondition(list, 'C')).toBeUndefined();
    expect(getCondition(null, 'A')).toBeUndefined();
    expect(isConditionTrue(list, 'A')).toBe(true);
    expect(isConditionTrue(list, 'B')).toBe(false);
  });
  it('removes by type into a new array', () => {
    expect(removeCondition(list, 'A')).toEqual([{ type: 'B', status: 'False' }]);
    expect(removeCondition(list, 'Z')).not.toBe(list);
    expect(removeCondition(undefined, 'A')).toEqual([]);
  });
});
