import { describe, expect, it } from 'vitest';
import {
  type LifecycleHook,
  isHookBlocking,
  isLifecycleMarkPodNotReady,
  isPodAllHooked,
  isPodHooked,
} from './hooks.js';
import type { Pod } from './pod.js';

const pod = (labels: Record<string, string> = {}, finalizers: string[] = []): Pod => ({
  metadata: { name: 'p', labels, finalizers },
});
const hook: LifecycleHook = { labelsHandler: { a: '1', b: '2' }, finalizersHandler: ['f1', 'f2'] };

describe('isPodHooked / isPodAllHooked', () => {
  const cases: [string, LifecycleHook | null, Pod, boolean, boolean][] = [
    ['no hook', null, pod({ a: '1' }), false, false],
    ['nothing present', hook, pod(), false, false],
    ['one label', hook, pod({ a: '1' }), true, false],
    ['one label, wrong value', hook, pod({ a: 'x' }), false, false],
    ['one finalizer', hook, pod({}, ['f2']), true, false],
    ['all marks', hook, pod({ a: '1', b: '2' }, ['f1', 'f2']), true, true],
    ['all labels, one finalizer missing', hook, pod({ a: '1', b: '2' }, ['f1']), true, false],
    ['empty hook', {}, pod(), false, true],
    [
      'empty label value matches a missing label (Go map read)',
      { labelsHandler: { gone: '' } },
      pod(),
      true,
      true,
    ],
  ];
  it.each(cases)('%s', (_n, h, p, hooked, allHooked) => {
    expect(isPodHooked(h, p)).toBe(hooked);
    expect(isPodAllHooked(h, p)).toBe(allHooked);
  });
});

describe('isHookBlocking', () => {
  const lifecycle = { preDelete: hook, inPlaceUpdate: hook, preNormal: hook };
  it.each([
    ['preDelete', pod({ a: '1' }), true],
    ['preDelete', pod(), false],
    ['inPlaceUpdate', pod({}, ['f1']), true],
    ['inPlaceUpdate', pod(), false],
    ['preNormal', pod({ a: '1' }), true],
    ['preNormal', pod({ a: '1', b: '2' }, ['f1', 'f2']), false],
  ] as const)('%s on %j → %s', (name, p, expected) => {
    expect(isHookBlocking(p, name, lifecycle)).toBe(expected);
  });
  it('never blocks without the hook', () => {
    expect(isHookBlocking(pod({ a: '1' }), 'preDelete', {})).toBe(false);
    expect(isHookBlocking(pod(), 'preNormal', null)).toBe(false);
  });
});

describe('isLifecycleMarkPodNotReady', () => {
  it.each([
    [null, false],
    [{ preNormal: { markPodNotReady: true } }, false],
    [{ preDelete: { markPodNotReady: true } }, true],
    [{ inPlaceUpdate: { markPodNotReady: true } }, true],
    [{ preDelete: { markPodNotReady: false } }, false],
  ])('%j → %s', (lifecycle, expected) => {
    expect(isLifecycleMarkPodNotReady(lifecycle)).toBe(expected);
  });
});
