import { describe, expect, it } from 'vitest';
import { fieldErrors } from './field-errors.js';
import { refuseInvalidSpec, SpecGuard, specProblemOf } from './spec-guard.js';

describe('specProblemOf', () => {
  const errs = (n: number) => Array.from({ length: n }, (_, i) => fieldErrors.required(`spec.f${i}`));
  it.each([
    [0, undefined],
    [1, 'spec.f0: Required value'],
    [3, 'spec.f0: Required value; spec.f1: Required value; spec.f2: Required value'],
    [5, 'spec.f0: Required value; spec.f1: Required value; spec.f2: Required value; and 2 more'],
  ])('%i field errors: %s', (n, want) => expect(specProblemOf('CloneSet', () => errs(n))).toBe(want));

  it('a validator that throws is the problem, said with the kind', () => {
    expect(
      specProblemOf('SidecarSet', () => {
        throw new TypeError('x is not iterable');
      }),
    ).toBe('the SidecarSet could not be validated (x is not iterable); check its spec against the SidecarSet schema');
  });
});

describe('SpecGuard', () => {
  it('checks an object once per generation, again when it changes or is recreated, and forgets it', () => {
    const seen: string[] = [];
    const guard = new SpecGuard<{ metadata: { uid: string; generation: number } }>((o) => {
      seen.push(`${o.metadata.uid}/${o.metadata.generation}`);
      return o.metadata.generation > 1 ? 'bad' : undefined;
    });
    const obj = (uid: string, generation: number) => ({ metadata: { uid, generation } });
    expect(guard.problem('ns/a', obj('u1', 1))).toBeUndefined();
    expect(guard.problem('ns/a', obj('u1', 1))).toBeUndefined();
    expect(guard.problem('ns/a', obj('u1', 2))).toBe('bad');
    expect(guard.problem('ns/a', obj('u2', 2))).toBe('bad');
    guard.forget('ns/a');
    expect(guard.problem('ns/a', obj('u2', 2))).toBe('bad');
    expect(seen).toEqual(['u1/1', 'u1/2', 'u2/2', 'u2/2']);
  });

  it('retainOnly forgets the keys that are not live, and keeps the verdicts of those that are', () => {
    let checks = 0;
    const guard = new SpecGuard<{ metadata: { uid: string; generation: number } }>(() => {
      checks++;
      return undefined;
    });
    const obj = { metadata: { uid: 'u', generation: 1 } };
    for (const key of ['a', 'b', 'c']) guard.problem(key, obj);
    guard.retainOnly(new Set(['b', 'x']));
    expect(guard.size).toBe(1);
    guard.problem('b', obj);
    expect(checks).toBe(3);
  });
});

describe('refuseInvalidSpec', () => {
  it('a Warning InvalidSpec saying what to fix, a log line, and nothing to retry', () => {
    const events: string[] = [];
    const lines: string[] = [];
    const recorder = {
      warning: async (_o: unknown, reason: string, message: string) => void events.push(`${reason}: ${message}`),
    };
    const log = { warn: (_f: object, msg: string) => void lines.push(msg) };
    const cs = { metadata: { name: 'web', namespace: 'ns' } };
    expect(refuseInvalidSpec(cs, 'CloneSet', 'spec.replicas: Invalid value: -1', recorder, log)).toEqual({});
    expect(events).toEqual([
      'InvalidSpec: not acting on this CloneSet until it is fixed: spec.replicas: Invalid value: -1',
    ]);
    expect(lines).toEqual(['not reconciling this CloneSet: it fails validation']);
  });
});
