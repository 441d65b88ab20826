// OpenKruise pkg/webhook/pod/mutating/container_launch_priority_initialization_test.go and
// pkg/controller/containerlaunchpriority/container_launch_priority_controller_test.go, as tables.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../injection/types.js';
import { LaunchPriorityError, launchPriorities, withLaunchBarriers } from './barrier-env.js';
import { nextBarrierStep } from './next-barrier.js';

function pod(
  containers: { name: string; priority?: string }[],
  annotations: Record<string, string> = {},
): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', annotations },
    spec: {
      containers: containers.map((c) => ({
        name: c.name,
        image: 'i',
        ...(c.priority !== undefined
          ? { env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: c.priority }] }
          : {}),
      })),
    },
  };
}
const ordered = { 'apps.kruise.io/container-launch-priority': 'Ordered' };

describe('launchPriorities', () => {
  it.each([
    {
      case: 'Ordered → -i',
      p: pod([{ name: 'a' }, { name: 'b' }, { name: 'c' }], ordered),
      want: [0, -1, -2],
    },
    { case: 'env values that differ', p: pod([{ name: 'a', priority: '10' }, { name: 'b' }]), want: [10, 0] },
    {
      case: 'equal values → none',
      p: pod([
        { name: 'a', priority: '5' },
        { name: 'b', priority: '5' },
      ]),
      want: undefined,
    },
    { case: 'all zero → none', p: pod([{ name: 'a', priority: '0' }, { name: 'b' }]), want: undefined },
    { case: 'one container → none', p: pod([{ name: 'a' }], ordered), want: undefined },
    { case: 'nothing asked', p: pod([{ name: 'a' }, { name: 'b' }]), want: undefined },
  ])('$case', ({ p, want }) => expect(launchPriorities(p)).toEqual(want));

  it('a priority that is not an integer refuses the pod', () => {
    expect(() => launchPriorities(pod([{ name: 'a', priority: 'high' }, { name: 'b' }]))).toThrow(
      LaunchPriorityError,
    );
  });
});

describe('withLaunchBarriers', () => {
  it('gives each container KRUISE_CONTAINER_BARRIER on <pod>-barrier key p_<priority>, once', () => {
    const out = withLaunchBarriers(pod([{ name: 'sidecar', priority: '10' }, { name: 'main' }]))!;
    expect(out.spec!.containers!.map((c) => c.env)).toEqual([
      [
        { name: 'KRUISE_CONTAINER_PRIORITY', value: '10' },
        {
          name: 'KRUISE_CONTAINER_BARRIER',
          valueFrom: { configMapKeyRef: { name: 'web-barrier', key: 'p_10' } },
        },
      ],
      [
        {
          name: 'KRUISE_CONTAINER_BARRIER',
          valueFrom: { configMapKeyRef: { name: 'web-barrier', key: 'p_0' } },
        },
      ],
    ]);
    expect(withLaunchBarriers(out)).toEqual(out);
  });
  it('names a pod that has only generateName (the barrier needs the name)', () => {
    const p = pod([{ name: 'a' }, { name: 'b' }], ordered);
    p.metadata = { generateName: 'web-', annotations: ordered };
    const out = withLaunchBarriers(p, () => 0)!;
    expect(out.metadata!.name).toBe('web-bbbbb');
    expect(JSON.stringify(out.spec!.containers![1]!.env)).toContain('web-bbbbb-barrier');
  });
});

describe('nextBarrierStep', () => {
  const p = withLaunchBarriers(pod([{ name: 'a' }, { name: 'b' }, { name: 'c' }], ordered))!;
  const ready = (...names: string[]): Pod => ({
    ...p,
    status: { containerStatuses: names.map((name) => ({ name, ready: true })) } as Pod['status'],
  });
  it.each([
    {
      case: 'nothing released: release the highest',
      pod: ready(),
      data: {},
      want: { release: 'p_0', completed: false },
    },
    { case: 'a released, not ready: wait', pod: ready(), data: { p_0: 'true' }, want: { completed: false } },
    {
      case: 'a ready: release b',
      pod: ready('a'),
      data: { p_0: 'true' },
      want: { release: 'p_-1', completed: false },
    },
    {
      case: 'a, b ready: release c, completed',
      pod: ready('a', 'b'),
      data: { p_0: 'true', 'p_-1': 'true' },
      want: { release: 'p_-2', completed: true },
    },
    { case: 'all ready', pod: ready('a', 'b', 'c'), data: {}, want: { completed: true } },
  ])('$case', ({ pod: input, data, want }) =>
    expect(nextBarrierStep(input, data as Record<string, string>)).toEqual(want),
  );
});
