import { describe, expect, it } from 'vitest';
import {
  InvalidSelectorError,
  type LabelSelector,
  compileLabelSelector,
  isSelectorEmpty,
  labelSelectorMatches,
  labelSelectorToString,
  selectsEverything,
  validateLabelSelector,
} from './selector.js';

describe('labelSelectorMatches', () => {
  const labels = { app: 'web', tier: 'front', 'apps.kruise.io/x': 'y' };
  const cases: [string, LabelSelector | null | undefined, Record<string, string> | undefined, boolean][] = [
    ['null selects nothing', null, labels, false],
    ['undefined selects nothing', undefined, labels, false],
    ['{} selects everything', {}, labels, true],
    ['{} selects unlabelled objects', {}, undefined, true],
    ['empty matchLabels selects everything', { matchLabels: {}, matchExpressions: [] }, labels, true],
    ['matchLabels equal', { matchLabels: { app: 'web' } }, labels, true],
    ['matchLabels differ', { matchLabels: { app: 'db' } }, labels, false],
    ['matchLabels key missing', { matchLabels: { zone: 'a' } }, labels, false],
    ['matchLabels all must hold', { matchLabels: { app: 'web', tier: 'back' } }, labels, false],
    ['In hit', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['back', 'front'] }] }, labels, true],
    ['In miss', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] }, labels, false],
    ['In needs the key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, labels, false],
    ['NotIn hit', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }] }, labels, true],
    ['NotIn miss', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels, false],
    ['NotIn holds when the key is absent', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels, true],
    ['Exists', { matchExpressions: [{ key: 'apps.kruise.io/x', operator: 'Exists' }] }, labels, true],
    ['Exists miss', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels, true],
    ['DoesNotExist miss', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, labels, false],
    ['DoesNotExist on no labels', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, undefined, true],
    [
      'labels and expressions combine',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] },
      labels,
      false,
    ],
    ['prototype keys are not labels', { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {}, false],
  ];
  it.each(cases)('%s', (_name, selector, l, expected) => {
    expect(labelSelectorMatches(selector, l)).toBe(expected);
  });

  it('throws a coded error for an invalid selector', () => {
    const bad = { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] };
    expect(() => labelSelectorMatches(bad, {})).toThrow(InvalidSelectorError);
    try {
      compileLabelSelector(bad);
    } catch (e) {
      expect((e as InvalidSelectorError).code).toBe('REGATTA_KUBE_INVALID_SELECTOR');
      expect((e as InvalidSelectorError).message).toContain('matchExpressions[0].operator');
    }
  });
});

describe('validateLabelSelector', () => {
  const cases: [string, LabelSelector, { type: string; field: string }[]][] = [
    ['valid', { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] }, []],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      [{ type: 'FieldValueRequired', field: 'spec.selector.matchExpressions[0].values' }],
    ],
    [
      'NotIn with empty values',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] },
      [{ type: 'FieldValueRequired', field: 'spec.selector.matchExpressions[0].values' }],
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      [{ type: 'FieldValueForbidden', field: 'spec.selector.matchExpressions[0].values' }],
    ],
    [
      'DoesNotExist with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'DoesNotExist', values: ['x'] }] },
      [{ type: 'FieldValueForbidden', field: 'spec.selector.matchExpressions[1].values' }],
    ],
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      [{ type: 'FieldValueInvalid', field: 'spec.selector.matchExpressions[0].operator' }],
    ],
    [
      'bad key',
      { matchExpressions: [{ key: '-a', operator: 'Exists' }] },
      [{ type: 'FieldValueInvalid', field: 'spec.selector.matchExpressions[0].key' }],
    ],
    [
      'bad value in expression',
      { matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', 'not ok'] }] },
      [{ type: 'FieldValueInvalid', field: 'spec.selector.matchExpressions[0].values[1]' }],
    ],
    ['bad matchLabels value', { matchLabels: { a: 'x'.repeat(64) } }, [{ type: 'FieldValueInvalid', field: 'spec.selector.matchLabels' }]],
    ['bad matchLabels key', { matchLabels: { 'a/b/c': 'x' } }, [{ type: 'FieldValueInvalid', field: 'spec.selector.matchLabels' }]],
  ];
  it.each(cases)('%s', (_name, selector, expected) => {
    const errs = validateLabelSelector(selector, 'spec.selector').map((e) => ({ type: e.type, field: e.field }));
    expect(errs).toEqual(expected);
  });

  it('accepts null (requiredness is the caller rule)', () => {
    expect(validateLabelSelector(null)).toEqual([]);
  });

  it('uses apimachinery detail texts', () => {
    const [req] = validateLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] });
    expect(req?.detail).toBe("must be specified when `operator` is 'In' or 'NotIn'");
    const [forb] = validateLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] });
    expect(forb?.detail).toBe("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  });
});

describe('labelSelectorToString', () => {
  const cases: [LabelSelector, string][] = [
    [{}, ''],
    [{ matchLabels: { a: 'b' } }, 'a=b'],
    [
      {
        matchLabels: { a: 'b' },
        matchExpressions: [
          { key: 'f', operator: 'DoesNotExist' },
          { key: 'c', operator: 'In', values: ['e', 'd'] },
        ],
      },
      'a=b,c in (d,e),!f',
    ],
    [{ matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['2', '1'] }] }, 'x notin (1,2)'],
    [{ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, 'x'],
    [{ matchLabels: { z: '1', b: '2', 'a.io/k': '3' } }, 'a.io/k=3,b=2,z=1'],
  ];
  it.each(cases)('%j → %s', (selector, expected) => {
    expect(labelSelectorToString(selector)).toBe(expected);
  });

  it('refuses a null selector instead of listing everything', () => {
    expect(() => labelSelectorToString(null)).toThrow(InvalidSelectorError);
  });
});

describe('emptiness', () => {
  const cases: [LabelSelector | null | undefined, boolean, boolean][] = [
    [null, true, false],
    [undefined, true, false],
    [{}, true, true],
    [{ matchLabels: {} }, true, true],
    [{ matchLabels: { a: 'b' } }, false, false],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, false, false],
  ];
  it.each(cases)('%j: empty=%s everything=%s', (selector, empty, everything) => {
    expect(isSelectorEmpty(selector)).toBe(empty);
    expect(selectsEverything(selector)).toBe(everything);
    if (selector != null) expect(compileLabelSelector(selector).everything).toBe(everything);
  });
});
