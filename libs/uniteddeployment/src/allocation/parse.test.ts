import { describe, expect, it } from 'vitest';
import { SubsetReplicasError } from '../errors.js';
import { parseSubsetReplicas } from './parse.js';

describe('parseSubsetReplicas (spec §6.1)', () => {
  it.each([
    [3, '25%', 1],
    [4, '25%', 1],
    [1, '25%', 0],
    [10, '40%', 4],
    [10, '10%', 1],
    [2, '25%', 1],
    [10, '0%', 0],
    [10, '100%', 10],
    [-1, 7, 7],
    [5, 0, 0],
  ] as const)('%i replicas, %s → %i', (ud, value, expected) => {
    expect(parseSubsetReplicas(ud, value)).toBe(expected);
  });

  it.each([
    [10, -1, 'subset replicas (-1) should not be less than 0'],
    [-1, '10%', 'subsetReplicas (10%) should not be string when unitedDeployment replicas is empty'],
    [10, '5', "subset replicas (5) only support integer value or percentage value with a suffix '%'"],
    [
      10,
      '1.5%',
      'subset replicas (1.5%) should be correct percentage integer: strconv.ParseInt: parsing "1.5": invalid syntax',
    ],
    [10, '101%', 'subset replicas (101%) should be in range [0, 100]'],
    [10, '-1%', 'subset replicas (-1%) should be in range [0, 100]'],
  ] as const)('%i replicas, %s → error', (ud, value, message) => {
    expect(() => parseSubsetReplicas(ud, value)).toThrow(new SubsetReplicasError(message));
  });
});
