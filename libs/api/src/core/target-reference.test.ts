import { describe, expect, it } from 'vitest';
import { groupOf, isGroupVersion, sameTarget } from './target-reference.js';

describe('target references', () => {
  it.each([
    ['apps/v1', true, 'apps'],
    ['v1', true, ''],
    ['apps.kruise.io/v1beta1', true, 'apps.kruise.io'],
    ['a/b/c', false, 'a'],
    ['/v1', false, ''],
    ['', false, ''],
  ])('%j: a group version %s, group %j', (v, ok, group) => {
    expect(isGroupVersion(v)).toBe(ok);
    expect(groupOf(v)).toBe(group);
  });

  it('are the same by group, kind and name, whatever the version', () => {
    const cs = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' };
    expect(sameTarget(cs, { ...cs, apiVersion: 'apps.kruise.io/v1beta1' })).toBe(true);
    expect(sameTarget(cs, { ...cs, apiVersion: 'apps/v1' })).toBe(false);
    expect(sameTarget(cs, { ...cs, name: 'api' })).toBe(false);
    expect(sameTarget(cs, undefined)).toBe(false);
    expect(sameTarget({ ...cs, apiVersion: 'x/y/z' }, { ...cs, apiVersion: 'x/y/z' })).toBe(false);
  });
});
