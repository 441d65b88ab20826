import { describe, expect, it } from 'vitest';
import { PatchStrategy } from '@kubernetes/client-node';
import { PATCH_CONTENT_TYPES } from './patch.js';
import { apiVersionPath, fieldSelectorToString, knownResource, resourcePath } from './resources.js';

describe('resource mapping', () => {
  const known: [string, string, string, boolean][] = [
    ['v1', 'Pod', 'pods', true],
    ['v1', 'PersistentVolume', 'persistentvolumes', false],
    ['v1', 'Namespace', 'namespaces', false],
    ['apps/v1', 'ControllerRevision', 'controllerrevisions', true],
    ['coordination.k8s.io/v1', 'Lease', 'leases', true],
    ['storage.k8s.io/v1', 'StorageClass', 'storageclasses', false],
    ['apps.kruise.io/v1alpha1', 'CloneSet', 'clonesets', true],
    ['apps.kruise.io/v1beta1', 'CloneSet', 'clonesets', true],
    ['apps.kruise.io/v1beta1', 'StatefulSet', 'statefulsets', true],
    ['apps.kruise.io/v1alpha1', 'DaemonSet', 'daemonsets', true],
    ['apps.kruise.io/v1alpha1', 'SidecarSet', 'sidecarsets', false],
    ['apps.kruise.io/v1alpha1', 'UnitedDeployment', 'uniteddeployments', true],
    ['apps.kruise.io/v1alpha1', 'ResourceDistribution', 'resourcedistributions', false],
    ['apps.kruise.io/v1alpha1', 'ImagePullJob', 'imagepulljobs', true],
    ['apps.kruise.io/v1alpha1', 'NodeImage', 'nodeimages', false],
  ];
  it.each(known)('%s %s → %s (namespaced %s)', (apiVersion, kind, plural, namespaced) => {
    expect(knownResource(apiVersion, kind)).toMatchObject({ plural, namespaced });
  });

  it('keeps groups apart and leaves unknown kinds to discovery', () => {
    expect(knownResource('apps/v1', 'StatefulSet')?.group).toBe('apps');
    expect(knownResource('apps.kruise.io/v1beta1', 'StatefulSet')?.group).toBe('apps.kruise.io');
    expect(knownResource('v1', 'CloneSet')).toBeUndefined();
    expect(knownResource('example.com/v1', 'Widget')).toBeUndefined();
  });
});

describe('paths', () => {
  const must = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('missing mapping');
    return v;
  };
  const pods = must(knownResource('v1', 'Pod'));
  const cs = must(knownResource('apps.kruise.io/v1alpha1', 'CloneSet'));
  const ni = must(knownResource('apps.kruise.io/v1alpha1', 'NodeImage'));
  const cases: [string, string][] = [
    [apiVersionPath('v1'), '/api/v1'],
    [apiVersionPath('apps/v1'), '/apis/apps/v1'],
    [resourcePath(pods, 'v1', 'ns', 'p'), '/api/v1/namespaces/ns/pods/p'],
    [resourcePath(pods, 'v1', undefined), '/api/v1/pods'],
    [resourcePath(pods, 'v1', 'ns'), '/api/v1/namespaces/ns/pods'],
    [resourcePath(cs, 'apps.kruise.io/v1alpha1', 'ns', 'web', 'status'), '/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets/web/status'],
    [resourcePath(ni, 'apps.kruise.io/v1alpha1', 'ignored', 'node-1'), '/apis/apps.kruise.io/v1alpha1/nodeimages/node-1'],
    [resourcePath(pods, 'v1', 'n s', 'a/b'), '/api/v1/namespaces/n%20s/pods/a%2Fb'],
  ];
  it.each(cases)('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('escapes field selector values', () => {
    expect(fieldSelectorToString({ 'spec.nodeName': 'n1', 'metadata.name': 'a,b=c\\d' })).toBe(
      'spec.nodeName=n1,metadata.name=a\\,b\\=c\\\\d',
    );
  });

  it('patch content types match client-node', () => {
    expect(PATCH_CONTENT_TYPES).toEqual({
      json: PatchStrategy.JsonPatch,
      merge: PatchStrategy.MergePatch,
      strategic: PatchStrategy.StrategicMergePatch,
      apply: PatchStrategy.ServerSideApply,
    });
  });
});
