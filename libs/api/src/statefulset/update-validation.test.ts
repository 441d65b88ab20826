// UPDATE rules of the Advanced StatefulSet webhook: immutable fields, InPlaceOnly, claim-template resize, and the
// admission entry.
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { statefulSetAdmissionErrors } from './admission.js';
import { defaultStatefulSet } from './defaults.js';
import { type Editable, type Json, rawSts, rollingUpdate } from './test-objects.js';
import type { StatefulSet } from './types.js';
import { type StatefulSetValidationContext, statefulSetInPlaceOnlyViolation, validateStatefulSetUpdate } from './update-validation.js';

const FORBIDDEN =
  "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', " +
  "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and " +
  "'updateStrategy' are forbidden";

const base = (edit: (s: Editable) => void = () => undefined): StatefulSet =>
  defaultStatefulSet(
    rawSts((s) => {
      s.spec['podManagementPolicy'] = 'Parallel';
      s.spec.template.spec['readinessGates'] = [{ conditionType: 'InPlaceUpdateReady' }];
      edit(s);
    }),
  );
/** The errors of updating `base(setup)` to `base(setup)` changed by `change`. */
function updateErrors(change: (s: Editable) => void, setup: (s: Editable) => void = () => undefined, ctx: StatefulSetValidationContext = {}): string[] {
  const old = base(setup);
  const next = structuredClone(old) as unknown as Editable;
  change(next);
  return validateStatefulSetUpdate(next, old, ctx).map(formatFieldError);
}
const container = (s: Editable): Json => (s.spec.template.spec['containers'] as Json[])[0] as Json;
const inPlaceOnly = (s: Editable): void => void (rollingUpdate(s)['podUpdatePolicy'] = 'InPlaceOnly');

describe('validateStatefulSetUpdate', () => {
  it.each<[string, (s: Editable) => void]>([
    ['replicas', (s) => (s.spec['replicas'] = 7)],
    ['ordinals', (s) => (s.spec['ordinals'] = { start: 3 })],
    ['template', (s) => (container(s)['image'] = 'nginx:1.26')],
    ['reserveOrdinals', (s) => (s.spec['reserveOrdinals'] = [1, '4-6'])],
    ['lifecycle', (s) => (s.spec['lifecycle'] = { preDelete: { finalizersHandler: ['x.io/hold'] } })],
    ['revisionHistoryLimit', (s) => (s.spec['revisionHistoryLimit'] = 3)],
    ['persistentVolumeClaimRetentionPolicy', (s) => (s.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Delete', whenScaled: 'Delete' })],
    ['volumeClaimTemplates', (s) => (s.spec['volumeClaimTemplates'] = [{ metadata: { name: 'data' } }])],
    ['volumeClaimUpdateStrategy', (s) => (s.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' })],
    ['updateStrategy', (s) => Object.assign(rollingUpdate(s), { partition: 2, maxUnavailable: '50%', paused: true })],
    ['scaleStrategy', (s) => (s.spec['scaleStrategy'] = { maxUnavailable: 2 })],
  ])('allows changing %s', (_field, change) => {
    expect(updateErrors(change)).toEqual([]);
  });

  it.each<[string, (s: Editable) => void, string[]]>([
    [
      'selector',
      (s) => {
        s.spec['selector'] = { matchLabels: { app: 'web', v: '2' } };
        (s.spec.template.metadata['labels'] as Json)['v'] = '2';
      },
      [`spec.selector: ${FORBIDDEN}`],
    ],
    ['serviceName', (s) => (s.spec['serviceName'] = 'other'), [`spec.serviceName: ${FORBIDDEN}`]],
    ['podManagementPolicy', (s) => (s.spec['podManagementPolicy'] = 'OrderedReady'), [`spec.podManagementPolicy: ${FORBIDDEN}`]],
    ['an unknown spec member', (s) => (s.spec['extra'] = 1), [`spec.extra: ${FORBIDDEN}`]],
  ])('forbids changing %s, naming the field', (_field, change, expected) => {
    expect(updateErrors(change)).toEqual(expected);
  });

  it('treats absent and empty alike (Go semantics) and a missing podManagementPolicy as OrderedReady', () => {
    const old = defaultStatefulSet(rawSts());
    const next = structuredClone(old);
    delete next.spec.podManagementPolicy;
    (next.spec as Json)['serviceName'] = 'nginx-headless';
    expect(validateStatefulSetUpdate(next, old).map(formatFieldError)).toEqual([]);
    const emptyName = structuredClone(old);
    (emptyName.spec as Json)['serviceName'] = '';
    const noName = structuredClone(old);
    delete noName.spec.serviceName;
    expect(validateStatefulSetUpdate(emptyName, noName).map(formatFieldError)).toEqual([]);
  });

  it('runs the CREATE rules too, but not the name length', () => {
    expect(updateErrors((s) => (s.spec['replicas'] = -1))).toEqual(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
    const long = 'a'.repeat(60);
    expect(updateErrors((s) => (s.spec['replicas'] = 2), (s) => (s.metadata['name'] = long))).toEqual([]);
  });

  it('exempts reserved template labels the old object already had (ratchet)', () => {
    const withLabel = (s: Editable): void => void ((s.spec.template.metadata['labels'] as Json)['apps.kubernetes.io/pod-index'] = '0');
    expect(updateErrors((s) => (s.spec['replicas'] = 4), withLabel)).toEqual([]);
    expect(updateErrors(withLabel)).toEqual([
      'spec.template.metadata.labels[apps.kubernetes.io/pod-index]: Forbidden: is set by the StatefulSet controller on its pods; remove it from the template',
    ]);
  });

  describe('InPlaceOnly: only container images may change in the template', () => {
    it.each<[string, (s: Editable) => void, string[]]>([
      ['an image', (s) => (container(s)['image'] = 'nginx:1.26'), []],
      ['template labels (metadata is not the pod spec)', (s) => ((s.spec.template.metadata['labels'] as Json)['x'] = 'y'), []],
      [
        'an env var added',
        (s) => (container(s)['env'] = [{ name: 'A', value: '1' }]),
        [
          'spec.template.spec.containers[0].env: Forbidden: invalid template modified with InPlaceOnly strategy: add /containers/0/env, ' +
            'currently only image update is allowed for InPlaceOnly',
        ],
      ],
      [
        'a pull policy replaced',
        (s) => (container(s)['imagePullPolicy'] = 'IfNotPresent'),
        [
          'spec.template.spec.containers[0].imagePullPolicy: Forbidden: invalid template modified with InPlaceOnly strategy: replace ' +
            '/containers/0/imagePullPolicy, currently only image update is allowed for InPlaceOnly',
        ],
      ],
    ])('%s', (_name, change, expected) => {
      expect(updateErrors(change, inPlaceOnly)).toEqual(expected);
    });

    it('two images at once', () => {
      const setup = (s: Editable): void => {
        inPlaceOnly(s);
        (s.spec.template.spec['containers'] as Json[]).push({ name: 'b', image: 'b:1' });
      };
      const change = (s: Editable): void => {
        const cs = s.spec.template.spec['containers'] as Json[];
        (cs[0] as Json)['image'] = 'nginx:1.26';
        (cs[1] as Json)['image'] = 'b:2';
      };
      expect(updateErrors(change, setup)).toEqual([]);
    });

    it('applies when the new object switches to InPlaceOnly, not when it leaves it', () => {
      expect(updateErrors((s) => (inPlaceOnly(s), (container(s)['env'] = [{ name: 'A', value: '1' }])))).toHaveLength(1);
      expect(
        updateErrors((s) => ((rollingUpdate(s)['podUpdatePolicy'] = 'ReCreate'), (container(s)['env'] = [{ name: 'A', value: '1' }])), inPlaceOnly),
      ).toEqual([]);
    });

    it('names the first offending change', () => {
      const old = base(inPlaceOnly);
      const next = structuredClone(old) as unknown as Editable;
      next.spec.template.spec['hostname'] = 'h';
      expect(statefulSetInPlaceOnlyViolation(old, next)).toEqual({ op: 'add', path: '/hostname' });
      expect(statefulSetInPlaceOnlyViolation(old, old)).toBeUndefined();
    });
  });

  describe('claim templates with StatefulSetAutoResizePVCGate and OnPodRollingUpdate', () => {
    const vct = (name: string, storage: string, sc?: string): Json => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], ...(sc ? { storageClassName: sc } : {}), resources: { requests: { storage } } },
    });
    const setup = (s: Editable): void => {
      s.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' };
      s.spec['volumeClaimTemplates'] = [vct('data', '1Gi', 'can_expand'), vct('logs', '1Gi', 'cannot_expand')];
    };
    const classes: StatefulSetValidationContext = {
      autoResizePVC: true,
      getStorageClass: (name) =>
        name === undefined ? null : name === 'can_expand' || name === 'cannot_expand' ? { name, allowVolumeExpansion: name === 'can_expand' } : null,
    };
    const claims = (s: Editable): Json[] => s.spec['volumeClaimTemplates'] as Json[];

    it.each<[string, (s: Editable) => void, string[]]>([
      ['expanding on a class that allows it', (s) => ((claims(s)[0] as Json)['spec'] = (vct('data', '20Gi', 'can_expand') as Json)['spec']), []],
      [
        'expanding on a class that does not',
        (s) => ((claims(s)[1] as Json)['spec'] = (vct('logs', '20Gi', 'cannot_expand') as Json)['spec']),
        ['spec.volumeClaimTemplates[1].spec.resources.requests.storage: Forbidden: storage class cannot_expand does not support volume expansion'],
      ],
      [
        'adding a template',
        (s) => claims(s).push(vct('more', '1Gi')),
        [expect.stringMatching(/^spec\.volumeClaimTemplates: Invalid value: .*: volumeClaimTemplate can not be added or deleted when OnRollingUpdate$/) as unknown as string],
      ],
      [
        'renaming a template',
        (s) => (((claims(s)[0] as Json)['metadata'] as Json)['name'] = 'data2'),
        ['spec.volumeClaimTemplates[0].metadata.name: Forbidden: volumeClaimTemplate name can not be modified'],
      ],
      [
        'changing the access modes',
        (s) => ((((claims(s)[0] as Json)['spec'] as Json)['accessModes'] as string[])[0] = 'ReadWriteMany'),
        ['spec.volumeClaimTemplates[0]: Invalid value: "data": volumeClaimTemplate can not be modified when OnRollingUpdate'],
      ],
    ])('%s', (_name, change, expected) => {
      expect(updateErrors(change, setup, classes)).toEqual(expected);
    });

    it('checks nothing with the gate off or with OnDelete', () => {
      expect(updateErrors((s) => claims(s).push(vct('more', '1Gi')), setup)).toEqual([]);
      expect(
        updateErrors(
          (s) => claims(s).push(vct('more', '1Gi')),
          (s) => (setup(s), (s.spec['volumeClaimUpdateStrategy'] = { type: 'OnDelete' })),
          classes,
        ),
      ).toEqual([]);
    });
  });
});

describe('statefulSetAdmissionErrors', () => {
  it('validates CREATE and UPDATE, admits everything else', () => {
    const bad = rawSts((s) => (s.spec['replicas'] = -1));
    const good = defaultStatefulSet(rawSts());
    expect(statefulSetAdmissionErrors({ operation: 'CREATE', object: bad }).map((e) => e.field)).toEqual(['spec.replicas']);
    expect(statefulSetAdmissionErrors({ operation: 'UPDATE', object: bad, oldObject: good }).map((e) => e.field)).toEqual(['spec.replicas']);
    expect(statefulSetAdmissionErrors({ operation: 'UPDATE', object: bad }).map((e) => e.field)).toEqual(['spec.replicas']);
    expect(statefulSetAdmissionErrors({ operation: 'DELETE', oldObject: bad })).toEqual([]);
  });
});

