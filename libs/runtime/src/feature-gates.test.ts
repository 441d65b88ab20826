import { describe, expect, it } from 'vitest';
import { parseFeatureGates } from './feature-gates.js';

const defaults = { PreparingUpdateAsUpdate: false, InPlaceUpdateEnvFromMetadata: true } as const;

describe('parseFeatureGates', () => {
  it.each([
    [undefined, { PreparingUpdateAsUpdate: false, InPlaceUpdateEnvFromMetadata: true }],
    ['', { PreparingUpdateAsUpdate: false, InPlaceUpdateEnvFromMetadata: true }],
    ['PreparingUpdateAsUpdate=true', { PreparingUpdateAsUpdate: true, InPlaceUpdateEnvFromMetadata: true }],
    [
      ' PreparingUpdateAsUpdate = TRUE , InPlaceUpdateEnvFromMetadata=false ,',
      { PreparingUpdateAsUpdate: true, InPlaceUpdateEnvFromMetadata: false },
    ],
    // another controller's gate (one value for a whole install, as kruise-manager's --feature-gates): no effect here
    ['ResourceDistributionGate=true,PreparingUpdateAsUpdate=true', { PreparingUpdateAsUpdate: true, InPlaceUpdateEnvFromMetadata: true }],
  ])('%j', (value, want) => {
    expect(parseFeatureGates('REGATTA_FEATURE_GATES', value, defaults)).toEqual(want);
  });

  it.each([
    [
      'Typo=true',
      /invalid REGATTA_FEATURE_GATES: unknown feature gate 'Typo' \(known: InPlaceUpdateEnvFromMetadata, PreparingUpdateAsUpdate\)/,
    ],
    ['PreparingUpdateAsUpdate', /feature gate 'PreparingUpdateAsUpdate' needs =true or =false/],
    ['PreparingUpdateAsUpdate=yes', /needs =true or =false, got 'PreparingUpdateAsUpdate=yes'/],
    ['ImagePullJobGate=maybe', /feature gate 'ImagePullJobGate' needs =true or =false/],
  ])('rejects %j', (value, message) => {
    expect(() => parseFeatureGates('REGATTA_FEATURE_GATES', value, defaults)).toThrow(message);
  });
});
