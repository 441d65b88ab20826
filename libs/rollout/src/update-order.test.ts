import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import type { UpdatePriorityStrategy, UpdateScatterTerm } from './types.js';
import {
  comparePriority,
  intFromStringSuffix,
  scatterByTerm,
  scatterTerms,
  sortByPriority,
  sortByScatter,
} from './update-order.js';

const withLabels = (labels: Record<string, string>): Pod => ({ metadata: { labels } });
const weights: UpdatePriorityStrategy = {
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key: 'bar' } } },
  ],
};
const weights3 = (w3: number): UpdatePriorityStrategy => ({
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key1: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key2: 'bar' } } },
    { weight: w3, matchSelector: { matchLabels: { key3: 'baz' } } },
  ],
});
const order: UpdatePriorityStrategy = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };

// upstream priority compare table (12 cases): `i first?` with the "keep order" default true
describe('comparePriority', () => {
  const cases: [UpdatePriorityStrategy, Record<string, string>, Record<string, string>, boolean][] = [
    [weights, {}, {}, true],
    [weights, { key: 'foo' }, { key: 'foo' }, true],
    [weights, { key: 'bar' }, { key: 'foo' }, false],
    [weights, {}, { key: 'bar' }, false],
    [weights, {}, { key: 'foo' }, false],
    [weights3(15), { key1: 'foo' }, { key2: 'bar', key3: 'baz' }, false],
    [weights3(5), { key2: 'bar', key3: 'baz' }, { key1: 'foo' }, false],
    [order, {}, {}, true],
    [order, { key1: 'o-10' }, { key1: 'o-5' }, true],
    [order, { key1: 'o-10' }, { key1: 'o-10' }, true],
    [order, { key1: 'o-10' }, { key1: 'o-20' }, false],
    [order, { key2: 'o-20' }, { key1: 'o-10' }, false],
    [order, { key2: 'o-20' }, { key2: 'o-10' }, true],
  ];
  it.each(cases)('%# %j vs %j', (strategy, a, b, aFirst) => {
    expect(comparePriority(withLabels(a), withLabels(b), strategy) <= 0).toBe(aFirst);
  });

  it('sorts pods without any ordered key before keyed ones, as upstream codes it', () => {
    const pods = [withLabels({ key1: 'x-1' }), withLabels({}), withLabels({ key2: 'y-9' })];
    expect(sortByPriority(pods, [0, 1, 2], order)).toEqual([1, 0, 2]);
  });

  it('reads the numeric suffix of a label value', () => {
    expect([
      intFromStringSuffix('sts-10'),
      intFromStringSuffix('abc'),
      intFromStringSuffix('7'),
      intFromStringSuffix('a1b'),
    ]).toEqual([10, 0, 7, 0]);
  });
});

// upstream TestGenerateRules (2 active cases)
describe('scatterTerms', () => {
  it.each([
    [
      [{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }],
      [{ key: 'labelA', value: 'AAA' }],
      [{ key: 'labelA', value: 'AAA' }],
    ],
    [
      [{}, {}, { labelB: 'B' }, { labelB: 'BBB' }, { labelA: 'AAA' }, { labelA: 'AAA' }],
      [
        { key: 'labelA', value: 'AAA' },
        { key: 'labelB', value: 'BBB' },
      ],
      [
        { key: 'labelA', value: 'AAA' },
        { key: 'labelB', value: 'BBB' },
      ],
    ],
  ] as [Record<string, string>[], UpdateScatterTerm[], UpdateScatterTerm[]][])(
    '%#',
    (labels, strategy, expected) => {
      const pods = labels.map(withLabels);
      expect(
        scatterTerms(
          pods,
          pods.map((_, i) => i),
          strategy,
        ),
      ).toEqual(expected);
    },
  );
  it('orders terms by matched count', () => {
    const pods = ([{ b: '1' }, { b: '1' }, { a: '1' }] as Record<string, string>[]).map(withLabels);
    expect(
      scatterTerms(
        pods,
        [0, 1, 2],
        [
          { key: 'a', value: '1' },
          { key: 'b', value: '1' },
        ],
      ),
    ).toEqual([
      { key: 'b', value: '1' },
      { key: 'a', value: '1' },
    ]);
  });
});

// upstream TestScatterPodsByRule (12 cases)
describe('scatterByTerm', () => {
  const cases: [string, string[], number[]][] = [
    ['no label', [''], [0]],
    ['only one scattered pod', ['labelA=AAA'], [0]],
    ['odd scattered pod + odd ordinary pod', ['labelA=AAA', 'bbb'], [0, 1]],
    [
      'even scattered pods + even ordinary pods',
      ['', '', '', '', 'labelA=AAA', 'labelA=AAA'],
      [4, 0, 1, 2, 3, 5],
    ],
    [
      'odd scattered pods + odd ordinary pods',
      ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [3, 0, 1, 4, 2, 5],
    ],
    [
      'even scattered pods + odd ordinary pods',
      ['', '', '', 'labelA=AAA', '', '', 'labelA=AAA'],
      [3, 0, 1, 2, 4, 5, 6],
    ],
    [
      'odd scattered pods + even ordinary pods',
      ['', '', '', '', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [6, 0, 1, 2, 7, 3, 4, 5, 8],
    ],
    [
      'even scattered + even ordinary, more scattered',
      ['', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 3, 0, 4, 1, 5],
    ],
    [
      'odd scattered + odd ordinary, more scattered (first 6 pods)',
      ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [3, 0, 1, 4, 2, 5],
    ],
    [
      'even scattered + odd ordinary, more scattered',
      ['', '', 'labelA=AAA', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 4, 0, 5, 6, 1, 7, 3, 8],
    ],
    [
      'odd scattered + even ordinary, more scattered',
      ['', 'labelA=AAA', '', 'labelA=AAA', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [1, 0, 3, 2, 6, 4, 7, 5, 8],
    ],
    [
      'invalid label',
      ['', '', '', '', 'ee', 'a', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA,labelB=BBB'],
      [7, 0, 1, 2, 3, 8, 4, 5, 6, 9],
    ],
  ];
  it.each(cases)('%s', (_n, specs, expected) => {
    const pods = specs.map((s) =>
      withLabels(
        Object.fromEntries(
          s
            .split(',')
            .map((kv) => kv.split('='))
            .filter((kv): kv is [string, string] => kv.length === 2),
        ),
      ),
    );
    const term = { key: 'labelA', value: 'AAA' };
    expect(
      scatterByTerm(
        pods,
        pods.map((_, i) => i),
        term,
      ),
    ).toEqual(expected);
    expect(
      sortByScatter(
        pods,
        pods.map((_, i) => i),
        [term],
      ),
    ).toEqual(expected);
  });
});
