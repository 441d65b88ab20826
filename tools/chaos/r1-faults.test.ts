import { describe, expect, it } from 'vitest';
import type { ApiProxy } from './api-proxy.js';
import { apiFaultFigures, startRowApiFaults, watcherFaultRate, type ApiFaultCounts } from './r1-faults.js';

describe('watcherFaultRate', () => {
  it.each([
    [0, 0],
    [0.01, 0.1],
    [0.03, 0.3],
    [0.05, 0.5],
    [0.1, 0.5],
  ])('programs at %d: the watcher link at %d', (p, q) => {
    expect(watcherFaultRate(p)).toBeCloseTo(q, 10);
  });
});

describe('apiFaultFigures', () => {
  const off: ApiFaultCounts = { program: undefined, watcher: undefined };
  const on: ApiFaultCounts = {
    program: { rate: 0.05, faults: ['429', '500 after', '429'] },
    watcher: { rate: 0.5, faults: ['drop-watch', '410'], lists: 12, watches: 30 },
  };
  it.each<[string, string, ApiFaultCounts, [string, string][]]>([
    [
      'off',
      'cloneset program only',
      off,
      [
        ['API faults (cloneset program only)', 'off (--api-faults)'],
        ["API faults (watcher's link)", 'off (--api-faults)'],
        ["the watcher's lists / watches", 'n/a (no proxy)'],
      ],
    ],
    [
      'on',
      'sidecarset program only',
      on,
      [
        ['API faults (sidecarset program only)', '3 at 0.05 per request: 429 2, 500 after 1'],
        ["API faults (watcher's link)", '2 (rate 0.5, every watch cut): drop-watch 1, 410 1'],
        ["the watcher's lists / watches", '12 / 30'],
      ],
    ],
    [
      'on, none met',
      'uniteddeployment and cloneset programs',
      { program: { rate: 0.03, faults: [] }, watcher: { rate: 0.3, faults: [], lists: 0, watches: 0 } },
      [
        ['API faults (uniteddeployment and cloneset programs)', '0 at 0.03 per request: none'],
        ["API faults (watcher's link)", '0 (rate 0.3, every watch cut): none'],
        ["the watcher's lists / watches", '0 / 0'],
      ],
    ],
  ])('%s', (_, programs, counts, figures) => {
    expect(apiFaultFigures(programs, counts)).toEqual(figures);
  });
});

describe('startRowApiFaults', () => {
  const fakeProxy = (injected: string[], lists = 0, watches = 0): ApiProxy => ({
    kubeconfig: '',
    injected,
    requests: { lists, watches },
    rate: 0,
    proxied: async (_kubeconfig, file) => file,
    close: async () => undefined,
  });

  it('raises both rates for the row, counts only what came after, and stops', () => {
    const program = fakeProxy(['429']);
    const watcher = fakeProxy(['410'], 5, 7);
    const row = startRowApiFaults(program, watcher, 0.03);
    expect([program.rate, watcher.rate]).toEqual([0.03, watcherFaultRate(0.03)]);
    program.injected.push('500 before', '409');
    watcher.injected.push('delay');
    watcher.requests.lists += 2;
    watcher.requests.watches += 3;
    row.stop();
    expect([program.rate, watcher.rate]).toEqual([0, 0]);
    expect(row.counts()).toEqual({
      program: { rate: 0.03, faults: ['500 before', '409'] },
      watcher: { rate: watcherFaultRate(0.03), faults: ['delay'], lists: 2, watches: 3 },
    });
  });

  it('without proxies (--api-faults off) counts nothing', () => {
    const row = startRowApiFaults(undefined, undefined, 0);
    row.stop();
    expect(row.counts()).toEqual({ program: undefined, watcher: undefined });
  });
});
