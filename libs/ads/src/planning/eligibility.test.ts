// Node eligibility (docs/ads.md "Which nodes run the daemon"; OpenKruise/Kubernetes `nodeShouldRunDaemonPod`).
import { describe, expect, it } from 'vitest';
import { nodeShouldRunDaemonPod, withDaemonTolerations } from './eligibility.js';
import type { Node, SchedulingSpec, Taint } from './node.js';

const node = (
  over: { labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean; ready?: boolean } = {},
): Node => ({
  metadata: { name: 'n1', labels: over.labels ?? { 'kubernetes.io/hostname': 'n1', zone: 'a' } },
  spec: { taints: over.taints ?? [], ...(over.unschedulable ? { unschedulable: true } : {}) },
  status: { conditions: [{ type: 'Ready', status: over.ready === false ? 'False' : 'True' }] },
});
const run = { shouldRun: true, shouldContinueRunning: true };
const keep = { shouldRun: false, shouldContinueRunning: true };
const none = { shouldRun: false, shouldContinueRunning: false };

describe('nodeShouldRunDaemonPod', () => {
  const rows: [string, SchedulingSpec, Node, typeof run][] = [
    ['plain template, plain node', {}, node(), run],
    ['nodeName of another node', { nodeName: 'n2' }, node(), none],
    ['nodeName of this node', { nodeName: 'n1' }, node(), run],
    ['nodeSelector matches', { nodeSelector: { zone: 'a' } }, node(), run],
    ['nodeSelector does not match', { nodeSelector: { color: 'blue' } }, node(), none],
    [
      'required affinity In matches',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] },
              ],
            },
          },
        },
      },
      node(),
      run,
    ],
    [
      'required affinity: terms are ORed',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] },
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
              ],
            },
          },
        },
      },
      node(),
      run,
    ],
    [
      'required affinity NotIn excludes',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }],
            },
          },
        },
      },
      node(),
      none,
    ],
    [
      'required affinity DoesNotExist',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }],
            },
          },
        },
      },
      node(),
      run,
    ],
    [
      'untolerated NoSchedule taint: keeps running pods, no new pod',
      {},
      node({ taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }),
      keep,
    ],
    [
      'untolerated NoExecute taint: pods go',
      {},
      node({ taints: [{ key: 'dedicated', value: 'x', effect: 'NoExecute' }] }),
      none,
    ],
    [
      'PreferNoSchedule taint does not block',
      {},
      node({ taints: [{ key: 'dedicated', effect: 'PreferNoSchedule' }] }),
      run,
    ],
    [
      'tolerated NoSchedule taint (Equal)',
      { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }] },
      node({ taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }),
      run,
    ],
    [
      'toleration with another value does not tolerate',
      { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'y' }] },
      node({ taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }),
      keep,
    ],
    [
      'empty-key Exists tolerates everything',
      { tolerations: [{ operator: 'Exists' }] },
      node({ taints: [{ key: 'k', effect: 'NoExecute' }] }),
      run,
    ],
    [
      'cordoned node (unschedulable taint): default toleration',
      {},
      node({
        unschedulable: true,
        taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      }),
      run,
    ],
    ['cordoned node without the taint', {}, node({ unschedulable: true }), run],
    [
      'NotReady node (not-ready NoExecute taint): default toleration',
      {},
      node({ ready: false, taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] }),
      run,
    ],
    [
      'unreachable node: default toleration',
      {},
      node({ taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }),
      run,
    ],
    [
      'memory pressure: default toleration',
      {},
      node({ taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] }),
      run,
    ],
    [
      'network-unavailable, no hostNetwork',
      {},
      node({ taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] }),
      keep,
    ],
    [
      'network-unavailable, hostNetwork',
      { hostNetwork: true },
      node({ taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] }),
      run,
    ],
  ];
  it.each(rows)('%s', (_name, spec, n, want) => {
    expect(nodeShouldRunDaemonPod(spec, n)).toEqual(want);
  });
});

describe('tolerations', () => {
  it('defaults are added once, keeping the user toleration of the same key and effect', () => {
    const user = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 30,
    };
    const out = withDaemonTolerations([user], false);
    expect(out.filter((t) => t.key === 'node.kubernetes.io/not-ready')).toEqual([user]);
    expect(out).toHaveLength(6);
    expect(withDaemonTolerations([], true)).toHaveLength(7);
  });
});
