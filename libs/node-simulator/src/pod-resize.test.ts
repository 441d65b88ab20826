import { describe, expect, it } from 'vitest';
import {
  initialResizeState,
  quantityValue,
  resizeConditions,
  resizeStep,
  withAllocated,
} from './pod-resize.js';
import type { Container, Pod } from './types.js';

const container = (cpuLimit: string, extra: Partial<Container> = {}): Container => ({
  name: 'app',
  image: 'nginx',
  resources: { limits: { cpu: cpuLimit, memory: '1Gi' }, requests: { cpu: '100m', memory: '512Mi' } },
  ...extra,
});
const pod = (c: Container): Pod => ({ metadata: { name: 'p', uid: 'u' }, spec: { containers: [c] } });
const node = { cpu: 4000, memory: 16 * 1024 ** 3 };

describe('quantityValue', () => {
  it.each([
    ['500m', 'cpu', 500],
    ['2', 'cpu', 2000],
    ['0.5', 'cpu', 500],
    ['1Gi', 'memory', 1024 ** 3],
    ['512Mi', 'memory', 512 * 1024 ** 2],
    ['1G', 'memory', 1e9],
    [undefined, 'cpu', 0],
  ] as const)('%s %s', (q, r, want) => expect(quantityValue(q, r)).toBe(want));
});

describe('resizeStep', () => {
  const start = initialResizeState(pod(container('1')));
  const cases: [string, Container, Record<string, number>, Record<string, number>, unknown][] = [
    ['nothing changed', container('1'), node, { cpu: 0, memory: 0 }, { actuated: false, pending: undefined }],
    [
      'limit raised, room: actuated',
      container('2'),
      node,
      { cpu: 0, memory: 0 },
      { actuated: true, pending: undefined },
    ],
    [
      'request beyond the node: infeasible',
      container('8', {
        resources: { limits: { cpu: '8', memory: '1Gi' }, requests: { cpu: '6', memory: '512Mi' } },
      }),
      node,
      { cpu: 0, memory: 0 },
      { actuated: false, pending: 'Infeasible' },
    ],
    [
      'other pods hold the room: deferred',
      container('3', {
        resources: { limits: { cpu: '3', memory: '1Gi' }, requests: { cpu: '3', memory: '512Mi' } },
      }),
      node,
      { cpu: 2000, memory: 0 },
      { actuated: false, pending: 'Deferred' },
    ],
  ];
  it.each(cases)('%s', (_, c, allocatable, others, want) => {
    const step = resizeStep(pod(c), start, allocatable, () => others);
    const w = want as { actuated: boolean; pending?: string };
    expect(step.actuated).toBe(w.actuated);
    expect(step.state.pending?.reason).toBe(w.pending);
    if (w.actuated) expect(step.state.allocated['app']?.limits['cpu']).toBe(c.resources?.limits?.['cpu']);
    else expect(step.state.allocated).toEqual(start.allocated);
  });

  it('restarts only the containers whose resize policy says so for a changed resource', () => {
    const policy = {
      resizePolicy: [
        { resourceName: 'cpu', restartPolicy: 'NotRequired' },
        { resourceName: 'memory', restartPolicy: 'RestartContainer' },
      ],
    };
    expect(resizeStep(pod(container('2', policy)), start, node, () => ({})).restart).toEqual([]);
    const memory = container('1', {
      ...policy,
      resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '100m', memory: '512Mi' } },
    });
    expect(resizeStep(pod(memory), start, node, () => ({})).restart).toEqual(['app']);
  });

  it('reports the allocated resources and the pending condition', () => {
    const big = container('8', {
      resources: { limits: { cpu: '8', memory: '1Gi' }, requests: { cpu: '2', memory: '512Mi' } },
    });
    const step = resizeStep(pod(big), start, { cpu: 1000, memory: node.memory }, () => ({}));
    expect(withAllocated(big, step.state)?.resources?.limits?.['cpu']).toBe('1');
    expect(resizeConditions(step.state)).toEqual([
      expect.objectContaining({ type: 'PodResizePending', reason: 'Infeasible' }),
    ]);
    const done = resizeStep(pod(container('1')), step.state, node, () => ({}));
    expect(resizeConditions(done.state)).toEqual([]);
  });

  it('adopts what the status reports on a restart', () => {
    const p: Pod = {
      ...pod(container('2')),
      status: { containerStatuses: [{ name: 'app', resources: { limits: { cpu: '1' } } } as never] },
    };
    expect(initialResizeState(p).allocated['app']?.limits).toEqual({ cpu: '1' });
  });
});
