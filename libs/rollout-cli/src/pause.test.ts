import { describe, expect, it } from 'vitest';
import { RolloutUsageError } from './errors.js';
import { parseTarget } from './kinds.js';
import { pausePatch } from './pause.js';

describe('pausePatch', () => {
  it.each([
    ['clone/a', true, { spec: { updateStrategy: { paused: true } } }],
    ['clone/a', false, { spec: { updateStrategy: { paused: false } } }],
    ['asts/a', true, { spec: { updateStrategy: { rollingUpdate: { paused: true } } } }],
    ['ads/a', false, { spec: { updateStrategy: { rollingUpdate: { paused: false } } } }],
  ])('%s paused=%s', (arg, paused, patch) => {
    expect(pausePatch(parseTarget(arg).info, paused)).toEqual(patch);
  });

  it('refuses a UnitedDeployment, which has no pause switch', () => {
    expect(() => pausePatch(parseTarget('ud/a').info, true)).toThrow(RolloutUsageError);
    expect(() => pausePatch(parseTarget('ud/a').info, true)).toThrow(/manualUpdate\.partitions/);
  });
});
