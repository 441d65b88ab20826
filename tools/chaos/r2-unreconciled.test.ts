import { describe, expect, it } from 'vitest';
import { unreconciledVerdict, unreconciledViolation, type NamedEvent } from './r2-unreconciled.js';

const warning = (name: string, reason: string, message: string): NamedEvent => ({
  involvedObject: { name },
  type: 'Warning',
  reason,
  message,
});

describe('unreconciledVerdict (an accepted object left waiting is handled only when its controller refused it)', () => {
  const cases: { what: string; events: NamedEvent[]; refused: string[]; unreconciled: string[] }[] = [
    { what: 'no event at all', events: [], refused: [], unreconciled: ['a'] },
    {
      what: 'the guard refused it, naming a field',
      events: [
        warning('a', 'InvalidSpec', 'spec.replicas: Invalid value: 2147483647: must be at most 1000000'),
      ],
      refused: ['a'],
      unreconciled: [],
    },
    {
      what: 'a refusal that names no field is no refusal',
      events: [warning('a', 'InvalidSpec', 'the spec is invalid')],
      refused: [],
      unreconciled: ['a'],
    },
    {
      what: "another object's refusal does not count",
      events: [warning('b', 'InvalidSpec', 'spec.replicas: Invalid value: -1')],
      refused: [],
      unreconciled: ['a'],
    },
    {
      what: 'a warning of another reason does not count',
      events: [warning('a', 'FailedCreate', 'spec.template: pods "x" is forbidden: exceeded quota')],
      refused: [],
      unreconciled: ['a'],
    },
    {
      what: 'a Normal event of the reason does not count',
      events: [{ ...warning('a', 'InvalidSpec', 'spec.replicas: Invalid value'), type: 'Normal' }],
      refused: [],
      unreconciled: ['a'],
    },
  ];
  it.each(cases)('$what', ({ events, refused, unreconciled }) => {
    expect(unreconciledVerdict(['a'], events)).toEqual({ refused, unreconciled });
  });
});

describe('unreconciledViolation', () => {
  it('is none when every object was handled', () => {
    expect(unreconciledViolation('CloneSet', [], 120, 0)).toBeUndefined();
  });
  it('counts every object and names at most 20', () => {
    const names = Array.from({ length: 25 }, (_, i) => `fz-${i}`);
    const v = unreconciledViolation('CloneSet', names, 120, 7);
    expect(v).toMatchObject({ kind: 'unreconciled', at: 7, count: 25 });
    expect(v?.detail).toContain('within 120 s: fz-0, fz-1');
    expect(v?.detail).toContain('fz-19 and 5 more');
    expect(v?.detail).not.toContain('fz-20,');
  });
});
