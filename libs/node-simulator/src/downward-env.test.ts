import { describe, expect, it } from 'vitest';
import { metadataEnvRefs, resolveMetadataEnv } from './downward-env.js';
import type { EnvVar } from './types.js';

const field = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const meta = {
  labels: { k: 'v', 'app.kubernetes.io/name': 'web' },
  annotations: { a: 'x', 'example.com/level': 'debug' },
};

describe('resolveMetadataEnv', () => {
  it.each<[string, EnvVar[] | undefined, Record<string, string>]>([
    ['no env', undefined, {}],
    ['a label', [field('K', "metadata.labels['k']")], { K: 'v' }],
    ['an annotation', [field('A', "metadata.annotations['a']")], { A: 'x' }],
    [
      'keys with dots and slashes',
      [
        field('NAME', "metadata.labels['app.kubernetes.io/name']"),
        field('LEVEL', "metadata.annotations['example.com/level']"),
      ],
      { NAME: 'web', LEVEL: 'debug' },
    ],
    ['a missing key resolves to empty', [field('M', "metadata.labels['missing']")], { M: '' }],
    [
      'other fieldRefs are not resolved',
      [field('N', 'metadata.name'), field('IP', 'status.podIP'), field('L', 'metadata.labels')],
      {},
    ],
    [
      'literal values and other sources are not metadata env',
      [
        { name: 'LIT', value: 'x' },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
      ],
      {},
    ],
    [
      'a later env of the same name wins',
      [field('K', "metadata.labels['k']"), field('K', "metadata.annotations['a']")],
      { K: 'x' },
    ],
  ])('%s', (_, env, want) => {
    expect(resolveMetadataEnv({ name: 'c', env }, meta)).toEqual(want);
  });

  it('resolves against a pod without labels or annotations', () => {
    expect(resolveMetadataEnv({ name: 'c', env: [field('K', "metadata.labels['k']")] }, {})).toEqual({
      K: '',
    });
  });
});

describe('metadataEnvRefs', () => {
  it('lists the label and annotation each env reads', () => {
    expect(
      metadataEnvRefs({
        name: 'c',
        env: [
          field('K', "metadata.labels['k']"),
          field('N', 'metadata.name'),
          field('A', "metadata.annotations['a']"),
        ],
      }),
    ).toEqual([
      { name: 'K', path: 'metadata.labels', key: 'k' },
      { name: 'A', path: 'metadata.annotations', key: 'a' },
    ]);
  });
});
