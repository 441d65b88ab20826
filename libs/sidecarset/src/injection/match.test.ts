// Selection of a pod's SidecarSets (match.ts): the selectors compiled once per selector object, not per request.
import { describe, expect, it } from 'vitest';
import { compiledSelector, podMatchesSidecarSet } from './match.js';
import type { AnySidecarSet, Pod } from './types.js';

const pod = (labels: Record<string, string>): Pod =>
  ({ metadata: { name: 'p', namespace: 'ns', labels } }) as Pod;
const set = (selector: AnySidecarSet['spec']['selector']): AnySidecarSet =>
  ({ metadata: { name: 's' }, spec: { selector, containers: [] } }) as unknown as AnySidecarSet;

describe('compiledSelector', () => {
  it('compiles a selector object once', () => {
    const selector = { matchLabels: { app: 'nginx' } };
    const compiled = compiledSelector(selector);
    expect(compiled?.toString()).toBe('app=nginx');
    expect(compiledSelector(selector)).toBe(compiled);
    // an equal selector of another SidecarSet version is compiled for itself
    expect(compiledSelector({ matchLabels: { app: 'nginx' } })).not.toBe(compiled);
  });
  it.each([
    ['none', undefined],
    ['null', null],
    [
      'invalid (In without values)',
      { matchExpressions: [{ key: 'app', operator: 'In' as const, values: [] }] },
    ],
  ])('%s: undefined, every time', (_, selector) => {
    expect(compiledSelector(selector)).toBeUndefined();
    expect(compiledSelector(selector)).toBeUndefined();
  });
});

describe('podMatchesSidecarSet', () => {
  it.each([
    ['labels selected', { matchLabels: { app: 'nginx' } }, { app: 'nginx' }, true],
    ['labels not selected', { matchLabels: { app: 'nginx' } }, { app: 'other' }, false],
    ['an empty selector selects nothing', {}, { app: 'nginx' }, false],
    [
      'an invalid selector selects nothing',
      { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] },
      { app: 'nginx' },
      false,
    ],
  ])('%s', (_, selector, labels, want) => {
    const s = set(selector as AnySidecarSet['spec']['selector']);
    expect(podMatchesSidecarSet(pod(labels), s, {})).toBe(want);
    expect(podMatchesSidecarSet(pod(labels), s, {})).toBe(want); // the second time from the compiled selector
  });
});
