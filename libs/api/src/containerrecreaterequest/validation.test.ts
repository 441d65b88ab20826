import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../core/pod-types.js';
import { CrrKeys, type ContainerRecreateRequest } from './types.js';
import { defaultCrr, injectPod, validateCrrSpec, validateCrrUpdate } from './validation.js';

const crr = (spec: Record<string, unknown>): ContainerRecreateRequest =>
  ({
    metadata: { name: 'c', namespace: 'ns' },
    spec: { podName: 'p', containers: [{ name: 'app' }], ...spec },
  }) as never;
const fields = (errs: { field: string }[]) => errs.map((e) => e.field);

const pod: Pod = {
  metadata: { name: 'p', namespace: 'ns', uid: 'uid-1' },
  spec: {
    nodeName: 'node-1',
    terminationGracePeriodSeconds: 20,
    containers: [
      {
        name: 'app',
        image: 'nginx',
        ports: [{ containerPort: 80 }],
        lifecycle: { preStop: { httpGet: { path: '/q', port: 80 } } },
      },
      { name: 'sidecar', image: 'busybox', lifecycle: { preStop: { sleep: { seconds: 1 } } } },
      { name: 'fresh', image: 'busybox' },
    ],
  },
  status: {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'app',
        containerID: 'containerd://a',
        restartCount: 2,
        ready: true,
        image: 'nginx',
        imageID: '',
      },
      {
        name: 'sidecar',
        containerID: 'containerd://b',
        restartCount: 0,
        ready: true,
        image: 'busybox',
        imageID: '',
      },
      { name: 'fresh', restartCount: 0, ready: false, image: 'busybox', imageID: '' },
    ],
  },
} as never;

describe('validateCrrSpec', () => {
  it.each([
    ['valid', {}, []],
    ['no podName', { podName: '' }, ['spec.podName']],
    ['no containers', { containers: [] }, ['spec.containers']],
    ['duplicate container', { containers: [{ name: 'a' }, { name: 'a' }] }, ['spec.containers[1].name']],
    [
      'read-only statusContext',
      { containers: [{ name: 'a', statusContext: { containerID: 'x', restartCount: 0 } }] },
      ['spec.containers[0].statusContext'],
    ],
    ['activeDeadlineSeconds < 3', { activeDeadlineSeconds: 2 }, ['spec.activeDeadlineSeconds']],
    [
      'negative grace',
      { strategy: { terminationGracePeriodSeconds: -1 } },
      ['spec.strategy.terminationGracePeriodSeconds'],
    ],
    [
      'negative unready grace',
      { strategy: { unreadyGracePeriodSeconds: -1 } },
      ['spec.strategy.unreadyGracePeriodSeconds'],
    ],
    [
      'negative minStartedSeconds',
      { strategy: { minStartedSeconds: -1 } },
      ['spec.strategy.minStartedSeconds'],
    ],
    ['unknown failurePolicy', { strategy: { failurePolicy: 'Retry' } }, ['spec.strategy.failurePolicy']],
  ])('%s', (_n, spec, want) => {
    expect(fields(validateCrrSpec(crr(spec)))).toEqual(want);
  });

  it('after the mutating webhook (validating webhook), the read-only fields it wrote are expected', () => {
    const admitted = crr({ containers: [{ name: 'a', statusContext: { containerID: 'x', restartCount: 0 } }] });
    expect(validateCrrSpec(admitted, { mutated: true })).toEqual([]);
  });

  it('the seed’s crr-demo.yaml is valid as written', () => {
    const seed = parse(
      readFileSync(new URL('./fixtures/crr-demo.yaml', import.meta.url), 'utf8'),
    ) as ContainerRecreateRequest;
    expect(validateCrrSpec(seed)).toEqual([]);
    expect(seed.spec?.strategy).toMatchObject({
      failurePolicy: 'Fail',
      unreadyGracePeriodSeconds: 3,
      minStartedSeconds: 10,
    });
  });
});

describe('defaultCrr and injectPod', () => {
  it('defaults failurePolicy Fail and the active label', () => {
    const d = defaultCrr(crr({}));
    expect(d.spec?.strategy?.failurePolicy).toBe('Fail');
    expect(d.metadata?.labels?.[CrrKeys.Active]).toBe('true');
  });

  it('adds node, pod uid, grace period, preStop, ports and statusContext from the pod', () => {
    const { crr: out, errors } = injectPod(
      defaultCrr(crr({ containers: [{ name: 'app' }, { name: 'sidecar' }] })),
      pod,
    );
    expect(errors).toEqual([]);
    expect(out.metadata?.labels).toMatchObject({ [CrrKeys.NodeName]: 'node-1', [CrrKeys.PodUID]: 'uid-1' });
    expect(out.spec?.strategy?.terminationGracePeriodSeconds).toBe(20);
    expect(out.spec?.containers[0]).toEqual({
      name: 'app',
      preStop: { httpGet: { path: '/q', port: 80 } },
      ports: [{ containerPort: 80 }],
      statusContext: { containerID: 'containerd://a', restartCount: 2 },
    });
    // a sleep hook is not a ProbeHandler: not copied
    expect(out.spec?.containers[1]).toEqual({
      name: 'sidecar',
      statusContext: { containerID: 'containerd://b', restartCount: 0 },
    });
  });

  it('keeps the strategy’s own grace period', () => {
    const { crr: out } = injectPod(crr({ strategy: { terminationGracePeriodSeconds: 5 } }), pod);
    expect(out.spec?.strategy?.terminationGracePeriodSeconds).toBe(5);
  });

  it.each([
    ['pod missing', undefined, {}, 'spec.podName', 'no found Pod named p'],
    ['pod pending', { ...pod, spec: { ...pod.spec, nodeName: '' } }, {}, 'spec.podName', 'pending Pod'],
    [
      'pod finished',
      { ...pod, status: { ...pod.status, phase: 'Succeeded' } },
      {},
      'spec.podName',
      'inactive Pod',
    ],
    [
      'pod deleting',
      { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } },
      {},
      'spec.podName',
      'inactive Pod',
    ],
    [
      'unknown container',
      pod,
      { containers: [{ name: 'app' }, { name: 'nope' }] },
      'spec.containers[1].name',
      'container nope not found in Pod',
    ],
    [
      'container not started',
      pod,
      { containers: [{ name: 'fresh' }] },
      'spec.containers[0].name',
      'no containerID',
    ],
  ])('%s is refused with its field', (_n, p, spec, field, detail) => {
    const { errors } = injectPod(crr(spec), p as Pod | undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.field).toBe(field);
    expect(errors[0]!.detail).toContain(detail);
  });
});

describe('validateCrrUpdate', () => {
  const base = injectPod(defaultCrr(crr({})), pod).crr;
  it.each([
    ['status-only change', (c: ContainerRecreateRequest) => ({ ...c, status: { phase: 'Recreating' } }), []],
    [
      'spec change',
      (c: ContainerRecreateRequest) => ({ ...c, spec: { ...c.spec!, podName: 'q' } }),
      ['spec'],
    ],
    [
      'pod-uid label change',
      (c: ContainerRecreateRequest) => ({
        ...c,
        metadata: { ...c.metadata, labels: { ...c.metadata?.labels, [CrrKeys.PodUID]: 'x' } },
      }),
      [`metadata.labels[${CrrKeys.PodUID}]`],
    ],
  ])('%s', (_n, change, want) => {
    expect(fields(validateCrrUpdate(base, change(base) as ContainerRecreateRequest))).toEqual(want);
  });

  it('the unready-acquired annotation may be set once, not changed', () => {
    const set = { ...base, metadata: { ...base.metadata, annotations: { [CrrKeys.UnreadyAcquired]: 't1' } } };
    expect(validateCrrUpdate(base, set)).toEqual([]);
    const changed = {
      ...base,
      metadata: { ...base.metadata, annotations: { [CrrKeys.UnreadyAcquired]: 't2' } },
    };
    expect(fields(validateCrrUpdate(set, changed))).toEqual([
      `metadata.annotations[${CrrKeys.UnreadyAcquired}]`,
    ]);
  });
});
