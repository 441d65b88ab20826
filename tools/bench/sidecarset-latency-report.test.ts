import { describe, expect, it } from 'vitest';
import { summarize } from './common.js';
import { compareLatency } from './sidecarset-figures.js';
import { reportSidecarSetLatency } from './sidecarset-latency-report.js';
import { INJECTED_AS_CREATED, type ScsLatencyPhase, type ScsLatencyResult } from './sidecarset-latency.js';

const histogram = (count: number, over5ms: number) => ({
  count,
  sum: count * 0.004,
  buckets: [
    { le: 0.005, count: count - over5ms },
    { le: 0.025, count },
  ],
});

const phase = (
  name: string,
  group: number,
  ms: number,
  o: Partial<ScsLatencyPhase> = {},
): ScsLatencyPhase => {
  const latencies = Array.from({ length: 100 }, (_, i) => ms + i / 100);
  return {
    name,
    group,
    latencies,
    summary: summarize(latencies),
    injected: 0,
    otherCpu: 0,
    regattaCpu: 10,
    webhookCalls: 0,
    webhookMeanMs: NaN,
    webhookHistogram: histogram(0, 0),
    matchConditions: 0,
    matchConditionMeanMs: NaN,
    podBytes: 990,
    managedFieldsBytes: 535,
    ...o,
  };
};

const withProgram = {
  loop: {
    delayP50Ms: 10,
    delayP99Ms: 40,
    delayMaxMs: 80,
    gcCount: 30,
    gcMs: 120,
    gcOver1Ms: 19,
    gcOver10Ms: 3,
    gcMajor: 1,
    gcMajorMs: 37.1,
  },
};
const served = {
  ...withProgram,
  webhookCalls: 100,
  webhookMeanMs: 4,
  webhookHistogram: histogram(100, 12),
  serverConnections: 0,
  serverConnectionsSinceStart: 1,
  serverLatency: histogram(100, 3),
};

describe('reportSidecarSetLatency', () => {
  const phases = [
    phase('baseline (before)', 0, 5),
    phase('unselected', 1, 6, served),
    phase('selected', 1, 10, { ...served, injected: 100, podBytes: 1846 }),
    phase('unselected, alone', 2, 5, withProgram),
    phase('no webhook, program running: label no', 3, 5, withProgram),
    phase('no webhook, program running: label yes', 3, 5, withProgram),
    phase(INJECTED_AS_CREATED, 3, 6, { ...withProgram, injected: 100, managedFieldsBytes: 1001 }),
    phase('baseline (after)', 4, 5),
  ];
  const of = (n: string) => phases.find((p) => p.name === n)?.latencies ?? [];
  const r: ScsLatencyResult = {
    pods: 100,
    warmup: 10,
    phases,
    comparison: compareLatency(of('baseline (before)'), of('unselected'), of('selected')),
    sameProcesses: compareLatency(
      of('no webhook, program running: label no'),
      of('unselected, alone'),
      of('selected'),
    ),
    split: { largerPod: { p50: 1, p99: 1 }, webhookCall: { p50: 4, p99: 4 } },
    programNodeArgs: '',
    restarts: 0,
  };
  const text = reportSidecarSetLatency(r);
  const line = (start: string) => text.split('\n').find((l) => l.startsWith(start)) ?? '';

  it('splits the added time into the larger pod and the webhook call', () => {
    expect(line('larger pod').split(/\s{2,}/)).toEqual([
      'larger pod (injected as created − a2 label yes)',
      '1.0',
      '1.0',
    ]);
    expect(
      line('webhook call')
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(['4.0', '4.0']);
  });

  it("gives the API server's calls and the program's requests above each bucket bound, with the connections", () => {
    const rows = text.split('\n').filter((l) => l.startsWith('unselected + selected'));
    expect(rows[0]?.split(/\s{2,}/)).toEqual(['unselected + selected', '100', '4.00', '12', '0', '0', 'n/a']);
    expect(rows[1]?.split(/\s{2,}/).at(-1)).toBe('1 (37.1)');
    expect(rows[2]?.split(/\s{2,}/)).toEqual(['unselected + selected', '100', '0 (1)', '4.000', '3', '0']);
  });

  it('says when the program ran with other Node flags', () => {
    expect(text).toContain('the sidecarset program ran with Node flags "" (not the run\'s)');
  });
});
