import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import {
  NAMESPACE_WARNING,
  VOLUME_TEMPLATES_WARNING,
  defaultSidecarSetForAdmission,
  validateSidecarSetAdmission,
} from './admission.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { ALLOW_ALL, validSidecarSet } from './test-objects.js';
import type { SidecarSet } from './types.js';

const raw = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'log-collector' },
  spec: {
    selector: { matchLabels: { app: 'x' } },
    namespace: 'team-a',
    containers: [{ name: 'filebeat', image: 'filebeat:7.14.0', volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }] }],
    volumeTemplates: [{ name: 'logs', emptyDir: {} }],
  },
};

describe('defaultSidecarSetForAdmission', () => {
  const { object, warnings } = defaultSidecarSetForAdmission(raw, 'v1alpha1');
  const out = object as unknown as SidecarSet & { spec: Record<string, unknown> };

  it('moves volumeTemplates into volumes and warns naming the real field', () => {
    expect(out.spec['volumeTemplates']).toBeUndefined();
    expect(out.spec.volumes).toEqual([{ name: 'logs', emptyDir: {} }]);
    expect(warnings).toContain(VOLUME_TEMPLATES_WARNING);
    expect(VOLUME_TEMPLATES_WARNING).toMatch(/spec\.volumes/);
  });

  it('appends the templates after the volumes already there', () => {
    const both = { ...raw, spec: { ...raw.spec, volumes: [{ name: 'a', emptyDir: {} }] } };
    expect((defaultSidecarSetForAdmission(both, 'v1beta1').object.spec as { volumes: { name: string }[] }).volumes.map((v) => v.name)).toEqual(['a', 'logs']);
  });

  it('converts v1alpha1 namespace into a namespaceSelector (v1alpha1 only)', () => {
    expect(out.spec['namespace']).toBeUndefined();
    expect(out.spec.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } });
    expect(warnings).toContain(NAMESPACE_WARNING);
    const { object: beta } = defaultSidecarSetForAdmission({ ...raw, apiVersion: 'apps.kruise.io/v1beta1' }, 'v1beta1');
    expect(beta.spec).not.toHaveProperty('namespaceSelector');
  });

  it('applies the defaults and writes both hash annotations of the defaulted containers', () => {
    expect(out.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
    expect(out.metadata?.annotations).toEqual({
      'kruise.io/sidecarset-hash': sidecarSetHash(out.spec),
      'kruise.io/sidecarset-hash-without-image': sidecarSetHashWithoutImage(out.spec),
    });
  });

  it('is idempotent and warns nothing for a clean object', () => {
    const again = defaultSidecarSetForAdmission(object, 'v1alpha1');
    expect(again.object).toEqual(object);
    expect(again.warnings).toEqual([]);
  });

  it('never throws', () => {
    for (const v of [null, 'x', [], { spec: [] }, { spec: { volumeTemplates: 1 } }, { spec: { containers: 'x' } }]) {
      expect(() => defaultSidecarSetForAdmission(v, 'v1beta1')).not.toThrow();
    }
  });
});

describe('validateSidecarSetAdmission', () => {
  it('CREATE: the defaulted seed-like object is allowed', () => {
    const { object } = defaultSidecarSetForAdmission(raw, 'v1alpha1');
    expect(validateSidecarSetAdmission({ operation: 'CREATE', object, version: 'v1alpha1' }).map(formatFieldError)).toEqual([]);
  });

  it('UPDATE: adds the immutable rules', () => {
    const old = validSidecarSet();
    const next = validSidecarSet();
    next.spec.containers![0]!.name = 'other';
    expect(validateSidecarSetAdmission({ operation: 'UPDATE', object: next, oldObject: old, version: 'v1beta1' }, ALLOW_ALL).map(formatFieldError)).toEqual([
      'spec.containers.name: Invalid value: "other": container other is not found',
    ]);
  });
});
