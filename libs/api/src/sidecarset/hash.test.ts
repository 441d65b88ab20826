import { describe, expect, it } from 'vitest';
import { canonicalJson, sidecarSetHash, sidecarSetHashAnnotations, sidecarSetHashWithoutImage } from './hash.js';

const base = { containers: [{ name: 'sidecar', image: 'busybox:1.28', env: [{ name: 'A', value: '1' }] }] };

describe('SidecarSet hashes (pkg/control/sidecarcontrol/hash.go)', () => {
  it('are 64 characters of the apimachinery safe alphabet, and deterministic', () => {
    const h = sidecarSetHash(base);
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
    expect(sidecarSetHash(structuredClone(base))).toBe(h);
    expect(sidecarSetHashWithoutImage(base)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
  });

  it('do not depend on the order of object keys', () => {
    const reordered = { containers: [{ env: [{ value: '1', name: 'A' }], image: 'busybox:1.28', name: 'sidecar' }] };
    expect(sidecarSetHash(reordered)).toBe(sidecarSetHash(base));
    expect(canonicalJson({ b: 1, a: [2, { d: null, c: 'x' }] })).toBe('{"a":[2,{"c":"x"}],"b":1}');
  });

  const cases: [string, object, { hash: boolean; withoutImage: boolean }][] = [
    ['image only', { containers: [{ ...base.containers[0], image: 'busybox:1.35' }] }, { hash: true, withoutImage: false }],
    ['env', { containers: [{ ...base.containers[0], env: [{ name: 'A', value: '2' }] }] }, { hash: true, withoutImage: true }],
    ['a second container', { containers: [...base.containers, { name: 'b', image: 'x' }] }, { hash: true, withoutImage: true }],
    ['a plain init container (not hashed)', { ...base, initContainers: [{ name: 'init', image: 'x' }] }, { hash: false, withoutImage: false }],
    ['a native sidecar init container', { ...base, initContainers: [{ name: 'init', image: 'x', restartPolicy: 'Always' }] }, { hash: true, withoutImage: true }],
  ];
  it.each(cases)('change: %s', (_name, changed, want) => {
    expect(sidecarSetHash(changed) !== sidecarSetHash(base)).toBe(want.hash);
    expect(sidecarSetHashWithoutImage(changed) !== sidecarSetHashWithoutImage(base)).toBe(want.withoutImage);
  });

  it('init containers are all hashed once one is a native sidecar, images blanked in the without-image hash', () => {
    const a = { ...base, initContainers: [{ name: 'n', image: 'x', restartPolicy: 'Always' }, { name: 'p', image: 'y' }] };
    const b = { ...base, initContainers: [{ name: 'n', image: 'x', restartPolicy: 'Always' }, { name: 'p', image: 'z' }] };
    expect(sidecarSetHash(a)).not.toBe(sidecarSetHash(b));
    expect(sidecarSetHashWithoutImage(a)).toBe(sidecarSetHashWithoutImage(b));
  });

  it('gives both annotations', () => {
    expect(sidecarSetHashAnnotations(base)).toEqual({
      'kruise.io/sidecarset-hash': sidecarSetHash(base),
      'kruise.io/sidecarset-hash-without-image': sidecarSetHashWithoutImage(base),
    });
  });
});
