import { describe, expect, it } from 'vitest';
import { resolveRolloutParams } from './diff.js';
import type { CloneSetRolloutSpec } from '@regatta/rollout';

// `pkg/controller/cloneset/sync/cloneset_sync_utils.go` rounding: partition (Kruise scaler, ceil, "<100%" keeps one pod updated), maxSurge (k8s scaler, ceil),
// maxUnavailable (k8s scaler, ceil only without surge), scale maxUnavailable (ceil, default unlimited)
describe('resolveRolloutParams', () => {
  const cases: [string, CloneSetRolloutSpec, Partial<ReturnType<typeof resolveRolloutParams>>][] = [
    [
      'defaults: maxUnavailable 20% rounded up',
      { replicas: 3, updateStrategy: {} },
      { partition: 0, maxSurge: 0, maxUnavailable: 1, scaleMaxUnavailable: 2147483647 },
    ],
    ['no rollingUpdate: 20% rounded down', { replicas: 3, updateStrategy: null }, { maxUnavailable: 0 }],
    ['replicas default 1', { updateStrategy: {} }, { replicas: 1, maxUnavailable: 1 }],
    ['partition 99% of 5 → 4', { replicas: 5, updateStrategy: { partition: '99%' } }, { partition: 4 }],
    ['partition 90% of 4 → 3', { replicas: 4, updateStrategy: { partition: '90%' } }, { partition: 3 }],
    ['partition 99% of 1 → 1', { replicas: 1, updateStrategy: { partition: '99%' } }, { partition: 1 }],
    ['partition 10% of 6 → 1', { replicas: 6, updateStrategy: { partition: '10%' } }, { partition: 1 }],
    ['partition 7 of 5 → 5', { replicas: 5, updateStrategy: { partition: 7 } }, { partition: 5 }],
    [
      'partition 99.5% (Kruise float scaler) of 10 → 9',
      { replicas: 10, updateStrategy: { partition: '99.5%' } },
      { partition: 9 },
    ],
    [
      'maxUnavailable rounds down with surge',
      { replicas: 5, updateStrategy: { maxUnavailable: '30%', maxSurge: '30%' } },
      { maxSurge: 2, maxUnavailable: 1 },
    ],
    [
      'maxUnavailable rounds up without surge',
      { replicas: 5, updateStrategy: { maxUnavailable: '30%' } },
      { maxSurge: 0, maxUnavailable: 2 },
    ],
    [
      'paused forces maxSurge 0 (and maxUnavailable rounds up)',
      { replicas: 5, updateStrategy: { maxUnavailable: '30%', maxSurge: 3, paused: true } },
      { maxSurge: 0, maxUnavailable: 2 },
    ],
    [
      'a decimal maxSurge is an apimachinery error → 0',
      { replicas: 10, updateStrategy: { maxSurge: '30.5%' } },
      { maxSurge: 0, maxUnavailable: 2 },
    ],
    [
      'an invalid partition counts 0',
      { replicas: 10, updateStrategy: { partition: 'abc' } },
      { partition: 0 },
    ],
    [
      'scale maxUnavailable percent rounds up',
      { replicas: 5, updateStrategy: {}, scaleStrategy: { maxUnavailable: '30%' } },
      { scaleMaxUnavailable: 2 },
    ],
  ];
  it.each(cases)('%s', (_n, spec, expected) => {
    expect(resolveRolloutParams(spec)).toMatchObject(expected);
  });
});
