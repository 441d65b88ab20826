import type { Container, Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import {
  containerPriorities,
  envFromMetadataHash,
  isContainerReferenceToMeta,
  splitSubscriptedPath,
} from './container-meta.js';

describe('splitSubscriptedPath', () => {
  it.each([
    ["metadata.labels['a']", ['metadata.labels', 'a']],
    ["metadata.annotations['x.io/y']", ['metadata.annotations', 'x.io/y']],
    ['metadata.name', undefined],
    ["['a']", undefined],
    ["metadata.labels['a", undefined],
  ])('%j', (path, expected) => expect(splitSubscriptedPath(path)).toEqual(expected));
});

describe('isContainerReferenceToMeta', () => {
  const c = (env: Container['env']): Container => ({ name: 'c', env });
  const ref = (name: string, path: string, value?: string) => ({
    name,
    ...(value ? { value } : {}),
    valueFrom: { fieldRef: { fieldPath: path } },
  });
  it.each([
    [c([ref('A', "metadata.labels['k']")]), 'metadata.labels', 'k', true],
    [c([ref('A', "metadata.labels['k']")]), 'metadata.annotations', 'k', false],
    [c([ref('A', "metadata.labels['k']", 'literal')]), 'metadata.labels', 'k', false],
    [c([ref('SIDECARSET_VERSION', "metadata.annotations['k']")]), 'metadata.annotations', 'k', false],
    [c([{ name: 'A', value: 'x' }]), 'metadata.labels', 'k', false],
  ] as const)('%#', (container, path, key, expected) => {
    expect(isContainerReferenceToMeta(container, path, key)).toBe(expected);
  });
});

describe('envFromMetadataHash', () => {
  const c: Container = {
    name: 'c',
    env: [
      { name: 'B', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['b']" } } },
      { name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.labels['a']" } } },
      { name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'L', value: 'literal' },
    ],
  };
  it('matches Go for [{A,"x<y"},{B,""}] (cross-checked: json.Marshal + DeepHashObject + FNV-1a)', () => {
    expect(envFromMetadataHash(c, { labels: { a: 'x<y' }, annotations: {} })).toBe(1725722999);
  });
  it('changes with a referenced value only', () => {
    const h = envFromMetadataHash(c, { labels: { a: '1', other: 'x' }, annotations: { b: '2' } });
    expect(envFromMetadataHash(c, { labels: { a: '1', other: 'y' }, annotations: { b: '2' } })).toBe(h);
    expect(envFromMetadataHash(c, { labels: { a: '1' }, annotations: { b: '3' } })).not.toBe(h);
  });
});

describe('containerPriorities', () => {
  const pod = (containers: Container[], annotations: Record<string, string> = {}): Pod => ({
    metadata: { annotations },
    spec: { containers },
  });
  const barrier = (key: string) => ({
    name: 'KRUISE_CONTAINER_BARRIER',
    valueFrom: { configMapKeyRef: { name: 'p-barrier', key } },
  });
  const prio = (v: string) => ({ name: 'KRUISE_CONTAINER_PRIORITY', value: v });
  const cases: [string, Pod, Record<string, number | undefined>][] = [
    [
      'barriers injected by the webhook',
      pod([{ name: 'a', env: [barrier('p_10')] }, { name: 'b', env: [barrier('p_-1')] }, { name: 'c' }]),
      { a: 10, b: -1, c: undefined },
    ],
    [
      'an unparsable barrier counts 0',
      pod([{ name: 'a', env: [barrier('p_x')] }, { name: 'b' }]),
      { a: 0, b: undefined },
    ],
    [
      'no barrier: KRUISE_CONTAINER_PRIORITY values that differ',
      pod([{ name: 'redis', env: [prio('100')] }, { name: 'nginx' }]),
      { redis: 100, nginx: 0 },
    ],
    [
      'no barrier: equal priorities mean none',
      pod([
        { name: 'a', env: [prio('5')] },
        { name: 'b', env: [prio('5')] },
      ]),
      { a: undefined, b: undefined },
    ],
    [
      'no barrier: Ordered launch priority',
      pod([{ name: 'a' }, { name: 'b' }, { name: 'c' }], {
        'apps.kruise.io/container-launch-priority': 'Ordered',
      }),
      { a: 0, b: -1, c: -2 },
    ],
    ['a single container has none', pod([{ name: 'a', env: [prio('5')] }]), { a: undefined }],
  ];
  it.each(cases)('%s', (_n, p, expected) => {
    expect(Object.fromEntries(containerPriorities(p))).toEqual(expected);
  });
});
