import { describe, expect, it } from 'vitest';
import { kibPerPod } from './memory-rollout.js';

describe('kibPerPod', () => {
  it.each([
    [100 * 2 ** 20, 150 * 2 ** 20, 1000, 51.2],
    [100 * 2 ** 20, 90 * 2 ** 20, 1000, -10.24],
    [100 * 2 ** 20, undefined, 1000, NaN],
    [undefined, 100 * 2 ** 20, 1000, NaN],
    [0, 2 ** 20, 0, NaN],
  ])('idle %d, with the pods %d, %d pods: %d KiB a pod', (idle, loaded, n, want) => {
    if (Number.isNaN(want)) expect(kibPerPod(idle, loaded, n)).toBeNaN();
    else expect(kibPerPod(idle, loaded, n)).toBeCloseTo(want, 6);
  });
});
