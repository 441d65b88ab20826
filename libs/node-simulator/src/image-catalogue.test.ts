import { describe, expect, it } from 'vitest';
import { canonicalImage, exitsWithoutCommand, SAME_IMAGE } from './image-catalogue.js';
import { normalizeImage } from './image-ref.js';

describe('image catalogue', () => {
  it('maps every alias to the first reference of its group, and other references to themselves', () => {
    expect(canonicalImage('docker.io/library/nginx:alpine')).toBe('docker.io/library/nginx:mainline-alpine');
    expect(canonicalImage('docker.io/library/nginx:mainline-alpine')).toBe(
      'docker.io/library/nginx:mainline-alpine',
    );
    expect(canonicalImage('docker.io/library/nginx:1.25')).toBe('docker.io/library/nginx:1.25');
  });

  it('holds normalized references only, each in one group', () => {
    const all = SAME_IMAGE.flat();
    for (const ref of all) expect(normalizeImage(ref)).toBe(ref);
    expect(new Set(all).size).toBe(all.length);
  });

  it('knows the images whose own command exits at once', () => {
    expect(exitsWithoutCommand('docker.io/library/busybox')).toBe(true);
    expect(exitsWithoutCommand('registry.k8s.io/e2e-test-images/busybox')).toBe(true);
    expect(exitsWithoutCommand('docker.io/library/nginx')).toBe(false);
  });
});
