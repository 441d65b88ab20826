import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';
import { RolloutUsageError } from './errors.js';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['250ms', 250],
  ])('%s → %i ms', (v, ms) => {
    expect(parseDuration(v)).toBe(ms);
  });

  it.each(['', '5', 'ten', '5x', '-1s'])('%j is refused', (v) => {
    expect(() => parseDuration(v)).toThrow(RolloutUsageError);
  });
});
