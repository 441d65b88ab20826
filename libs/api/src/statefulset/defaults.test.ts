// Every default of the Advanced StatefulSet mutating webhook (OpenKruise v1.9 `SetDefaultsStatefulSet`).
import { describe, expect, it } from 'vitest';
import { defaultStatefulSet, defaultStatefulSetForAdmission } from './defaults.js';
import { statefulSetAdmissionDefaults } from './admission.js';
import { type Editable, rawSts } from './test-objects.js';
import type { StatefulSet } from './types.js';

const specOf = (edit: (s: Editable) => void = () => undefined, options = {}) => defaultStatefulSet(rawSts(edit), options).spec;

describe('defaultStatefulSet', () => {
  it('fills every spec default of a bare object', () => {
    const spec = specOf((s) => delete s.spec['replicas']);
    expect(spec.replicas).toBe(1);
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.podManagementPolicy).toBe('OrderedReady');
    expect(spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
    expect(spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    expect(spec.volumeClaimUpdateStrategy).toBeUndefined();
    expect(spec.scaleStrategy).toBeUndefined();
    expect(spec.ordinals).toBeUndefined();
  });

  it.each<[string, (s: Editable) => void, (spec: StatefulSet['spec']) => unknown, unknown]>([
    ['keeps replicas 0', (s) => (s.spec['replicas'] = 0), (x) => x.replicas, 0],
    ['keeps Parallel', (s) => (s.spec['podManagementPolicy'] = 'Parallel'), (x) => x.podManagementPolicy, 'Parallel'],
    ['an empty podManagementPolicy becomes OrderedReady', (s) => (s.spec['podManagementPolicy'] = ''), (x) => x.podManagementPolicy, 'OrderedReady'],
    ['keeps revisionHistoryLimit 0', (s) => (s.spec['revisionHistoryLimit'] = 0), (x) => x.revisionHistoryLimit, 0],
    ['OnDelete gets no rollingUpdate', (s) => (s.spec['updateStrategy'] = { type: 'OnDelete' }), (x) => x.updateStrategy, { type: 'OnDelete' }],
    [
      'an empty type becomes RollingUpdate with defaults',
      (s) => (s.spec['updateStrategy'] = { type: '' }),
      (x) => x.updateStrategy,
      { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } },
    ],
    [
      'keeps the rollingUpdate values given, fills the others',
      (s) => (s.spec['updateStrategy'] = { rollingUpdate: { partition: 2, maxUnavailable: '50%', podUpdatePolicy: 'InPlaceIfPossible', paused: true } }),
      (x) => x.updateStrategy?.rollingUpdate,
      { partition: 2, maxUnavailable: '50%', podUpdatePolicy: 'InPlaceIfPossible', paused: true, minReadySeconds: 0 },
    ],
    ['no inPlaceUpdateStrategy is added for in-place policies', (s) => (s.spec['updateStrategy'] = { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } }), (x) => x.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy, undefined],
    [
      'fills the missing half of the retention policy',
      (s) => (s.spec['persistentVolumeClaimRetentionPolicy'] = { whenScaled: 'Delete' }),
      (x) => x.persistentVolumeClaimRetentionPolicy,
      { whenDeleted: 'Retain', whenScaled: 'Delete' },
    ],
    ['leaves scaleStrategy alone', (s) => (s.spec['scaleStrategy'] = { maxUnavailable: 2 }), (x) => x.scaleStrategy, { maxUnavailable: 2 }],
    [
      'marks claim templates Pending',
      (s) => (s.spec['volumeClaimTemplates'] = [{ metadata: { name: 'data' } }]),
      (x) => x.volumeClaimTemplates,
      [{ metadata: { name: 'data' }, status: { phase: 'Pending' } }],
    ],
  ])('%s', (_name, edit, read, expected) => {
    expect(read(specOf(edit))).toEqual(expected);
  });

  it('injects the pod-spec defaults into the template', () => {
    const pod = specOf().template.spec;
    expect(pod).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
    });
    // OpenKruise's SetDefaultPodSpec: Always for every container (for in-place updates), not the tag rule
    expect(pod?.containers[0]).toMatchObject({ imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' });
    expect(pod?.containers[0]?.ports?.[0]).toMatchObject({ protocol: 'TCP' });
  });

  it('gates: StatefulSetAutoDeletePVC off → no retention policy; StatefulSetAutoResizePVCGate on → OnDelete claim updates', () => {
    expect(specOf(() => undefined, { autoDeletePVC: false }).persistentVolumeClaimRetentionPolicy).toBeUndefined();
    expect(specOf(() => undefined, { autoResizePVC: true }).volumeClaimUpdateStrategy).toEqual({ type: 'OnDelete' });
    expect(specOf((s) => (s.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' }), { autoResizePVC: true }).volumeClaimUpdateStrategy).toEqual({
      type: 'OnPodRollingUpdate',
    });
  });

  it('does not change its input, and leaves wrongly typed members for validation', () => {
    const input = rawSts((s) => (s.spec['updateStrategy'] = 'fast'));
    const before = structuredClone(input);
    const out = defaultStatefulSet(input);
    expect(input).toEqual(before);
    expect(out.spec.updateStrategy).toBe('fast');
    expect(out.spec.replicas).toBe(3);
    expect(defaultStatefulSet(42 as unknown as StatefulSet)).toBe(42);
  });
});

describe('defaultStatefulSetForAdmission', () => {
  const old = defaultStatefulSet(rawSts());

  it('CREATE injects template defaults', () => {
    expect(defaultStatefulSetForAdmission(rawSts()).spec.template.spec?.restartPolicy).toBe('Always');
  });

  it('UPDATE injects template defaults only when the template changed', () => {
    const sameTemplate = rawSts((s) => (s.spec['replicas'] = 5));
    sameTemplate.spec.template = structuredClone(old.spec.template);
    delete sameTemplate.spec.template.spec?.restartPolicy;
    // the template differs from the old one (restartPolicy removed), so it is defaulted again
    expect(defaultStatefulSetForAdmission(sameTemplate, old).spec.template.spec?.restartPolicy).toBe('Always');
    const untouched = rawSts((s) => (s.spec['replicas'] = 5));
    const oldRaw = rawSts();
    expect(defaultStatefulSetForAdmission(untouched, oldRaw).spec.template.spec?.restartPolicy).toBeUndefined();
    expect(defaultStatefulSetForAdmission(untouched, oldRaw).spec.podManagementPolicy).toBe('OrderedReady');
  });

  it('TemplateNoDefaults never injects template defaults', () => {
    expect(defaultStatefulSetForAdmission(rawSts(), undefined, { templateNoDefaults: true }).spec.template.spec?.restartPolicy).toBeUndefined();
  });

  it('the admission entry defaults CREATE and UPDATE only', () => {
    expect(statefulSetAdmissionDefaults({ operation: 'CREATE', object: rawSts() })?.spec.replicas).toBe(3);
    expect(statefulSetAdmissionDefaults({ operation: 'DELETE', object: rawSts() })).toBeUndefined();
    expect(statefulSetAdmissionDefaults({ operation: 'UPDATE', object: null })).toBeUndefined();
  });
});
