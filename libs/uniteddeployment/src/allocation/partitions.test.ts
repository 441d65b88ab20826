import { describe, expect, it } from 'vitest';
import { allocateReplicas, nextPartitions } from './allocate.js';
import { specOf } from './test-helpers.js';

describe('nextPartitions (spec §6.4 step 8, §6.6)', () => {
  const manual = (partitions: Record<string, number>) => ({
    updateStrategy: { type: 'Manual' as const, manualUpdate: { partitions } },
  });

  it('takes the Manual partitions, 0 for subsets without one', () => {
    const spec = specOf(10, [{ name: 'a' }, { name: 'b' }], manual({ a: 4, b: 3 }));
    expect(nextPartitions(spec, allocateReplicas(spec))).toEqual({ a: 4, b: 3 });
    const reset = specOf(10, [{ name: 'a' }, { name: 'b' }], manual({ b: 3 }));
    expect(nextPartitions(reset, allocateReplicas(reset))).toEqual({ a: 0, b: 3 });
  });

  // controller test *SubsetCount: "10%", subset-c removed → a=1, partition capped to 1
  it('caps a partition at the subset replicas', () => {
    const spec = specOf(10, [{ name: 'a', replicas: '10%' }, { name: 'b' }], manual({ a: 2 }));
    const replicas = allocateReplicas(spec);
    expect(replicas).toEqual({ a: 1, b: 9 });
    expect(nextPartitions(spec, replicas)).toEqual({ a: 1, b: 0 });
  });

  it('is 0 everywhere without the Manual type', () => {
    const spec = specOf(10, [{ name: 'a' }], { updateStrategy: { manualUpdate: { partitions: { a: 3 } } } });
    expect(nextPartitions(spec, { a: 10 })).toEqual({ a: 0 });
  });
});
