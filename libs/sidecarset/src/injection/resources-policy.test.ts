// OpenKruise pkg/webhook/pod/mutating/sidecarset_resources_test.go, as tables.
import { describe, expect, it } from 'vitest';
import { InjectionError } from './errors.js';
import { parseQuantity, withResourcesPolicy } from './resources-policy.js';
import type { Pod, SidecarContainer } from './types.js';

const pod: Pod = {
  metadata: { name: 'p' },
  spec: {
    initContainers: [
      {
        name: 'native',
        image: 'i',
        restartPolicy: 'Always',
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m' } },
      },
      { name: 'plain-init', image: 'i', resources: { limits: { cpu: '8' } } },
    ],
    containers: [
      {
        name: 'app-1',
        image: 'i',
        resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' } },
      },
      { name: 'app-2', image: 'i', resources: { limits: { cpu: '2' }, requests: { cpu: '1' } } },
      { name: 'envoy', image: 'i', resources: { limits: { cpu: '4', memory: '4Gi' } } },
    ],
  },
};
const sidecar = (policy: SidecarContainer['resourcesPolicy']): SidecarContainer => ({
  name: 'envoy',
  image: 'e',
  resourcesPolicy: policy,
});
const sidecarNames = new Set(['envoy']);

describe('withResourcesPolicy', () => {
  it.each([
    {
      case: 'sum over app-.*: cpu limit summed, memory limit unlimited (app-2 has none), requests summed',
      policy: {
        targetContainersMode: 'sum',
        targetContainersNameRegex: '^app-.*$',
        resourcesExpr: {
          limits: { cpu: 'cpu*0.5', memory: 'memory*0.5' },
          requests: { cpu: 'cpu*0.5', memory: 'memory*0.5' },
        },
      },
      want: { limits: { cpu: '1500m' }, requests: { cpu: '750m', memory: '268435456' } },
    },
    {
      case: 'max with the native sidecar init container (plain init containers and Kruise sidecars ignored)',
      policy: {
        targetContainersMode: 'max',
        resourcesExpr: { limits: { cpu: 'max(cpu*0.5, 100m)' }, requests: { cpu: 'cpu - 50m' } },
      },
      want: { limits: { cpu: '1' }, requests: { cpu: '950m' } },
    },
    {
      case: 'complex expression on one container',
      policy: {
        targetContainersMode: 'sum',
        targetContainersNameRegex: '^app-1$',
        resourcesExpr: { limits: { memory: 'min(memory/4, 200Mi) + 10Mi' } },
      },
      want: { limits: { memory: String(210 * 2 ** 20) } },
    },
  ])('$case', ({ policy, want }) => {
    expect(
      withResourcesPolicy(sidecar(policy as SidecarContainer['resourcesPolicy']), pod, sidecarNames)
        .resources,
    ).toEqual(want);
  });

  it('no target container refuses the pod', () => {
    const policy = {
      targetContainersMode: 'sum' as const,
      targetContainersNameRegex: '^nothing$',
      resourcesExpr: { limits: { cpu: 'cpu' } },
    };
    expect(() => withResourcesPolicy(sidecar(policy), pod, sidecarNames)).toThrow(InjectionError);
  });
});

describe('parseQuantity', () => {
  it.each([
    ['50%', 0.5],
    ['12.5%', 0.125],
    ['100m', 0.1],
    ['1Gi', 2 ** 30],
  ])('%s → %d', (q, want) => {
    expect(parseQuantity(q)).toBeCloseTo(want, 9);
  });
});
