import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '@regatta/kube';
import { selectorsOverlap } from './selector-overlap.js';

describe('selectorsOverlap (pkg/util/selector.go IsSelectorOverlapping, decided soundly)', () => {
  const rows: [string, LabelSelector | undefined, LabelSelector | undefined, boolean][] = [
    ['same labels', { matchLabels: { a: '1' } }, { matchLabels: { a: '1' } }, true],
    ['different value', { matchLabels: { a: '1' } }, { matchLabels: { a: '2' } }, false],
    ['different keys', { matchLabels: { a: '1' } }, { matchLabels: { b: '2' } }, true],
    ['nil selects all', undefined, { matchLabels: { a: '1' } }, true],
    ['In sets overlap', { matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, { matchExpressions: [{ key: 'a', operator: 'In', values: ['2', '3'] }] }, true],
    ['In sets disjoint', { matchExpressions: [{ key: 'a', operator: 'In', values: ['1'] }] }, { matchExpressions: [{ key: 'a', operator: 'In', values: ['3'] }] }, false],
    ['value excluded by NotIn', { matchLabels: { a: '1' } }, { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, false],
    ['NotIn leaves a value', { matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, true],
    ['Exists vs DoesNotExist', { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, false],
    ['label vs DoesNotExist', { matchLabels: { a: '1' } }, { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, false],
    ['Exists on a key the other does not name (upstream: disjoint)', { matchLabels: { b: '1' } }, { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, true],
  ];
  it.each(rows)('%s', (_name, a, b, want) => {
    expect(selectorsOverlap(a, b)).toBe(want);
    expect(selectorsOverlap(b, a)).toBe(want);
  });
});
