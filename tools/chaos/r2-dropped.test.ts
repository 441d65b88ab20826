import { describe, expect, it } from 'vitest';
import { droppedOnStore } from './r2-dropped.js';

describe('droppedOnStore: mutated fields the API server did not keep (finding 22)', () => {
  const sent = {
    spec: { namespace: '-ns', updateStrategy: { maxUnavailable: '120%' }, containers: [{ name: 'a' }] },
  };
  it.each([
    [
      'v1alpha1 spec.namespace dropped',
      { spec: { updateStrategy: { maxUnavailable: '120%' } } },
      ['spec.namespace = "-ns"'],
      ['spec.namespace'],
    ],
    [
      'one of two dropped',
      { spec: { updateStrategy: { maxUnavailable: '120%' } } },
      ['spec.namespace = "-ns"', 'spec.updateStrategy.maxUnavailable = "120%"'],
      ['spec.namespace'],
    ],
    ['all kept', sent, ['spec.namespace = "-ns"', 'spec.containers.0.name = "a"'], []],
    [
      'an array index dropped',
      { spec: { containers: [] } },
      ['spec.containers.0.name = "a"'],
      ['spec.containers.0.name'],
    ],
    ['a named mutation is never counted', {}, ['maxUnavailable 0 and maxSurge 0'], []],
    ['a path the sent object lacks too', {}, ['spec.other = 1'], []],
  ])('%s', (_, stored, mutations, want) => {
    expect(droppedOnStore(sent, stored, mutations)).toEqual(want);
  });
});
