import { describe, expect, it } from 'vitest';
import { faultView, NO_FAULTS, unreachableRegistry } from './faults.js';

describe('images from unreachable registries never pull', () => {
  it.each([
    ['invalid.registry.k8s.io/invalid/alpine:3.1', true],
    ['INVALID.registry.k8s.io/x', true],
    ['registry.invalid/app:1', true],
    ['registry.invalid:5000/app:1', true],
    ['nginx:1.27', false],
    ['registry.k8s.io/pause:3.10', false],
    ['invalid/alpine:3.1', false], // a Docker Hub repository named "invalid"
  ])('%s → %s', (image, fails) => {
    expect(unreachableRegistry(image)).toBe(fails);
    expect(faultView(NO_FAULTS).pullFails(image)).toBe(fails);
  });

  it('the failPullImages switch still adds its own images', () => {
    expect(faultView({ ...NO_FAULTS, failPullImages: ['nginx:1.27'] }).pullFails('nginx:1.27')).toBe(true);
  });
});
