import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import {
  crdDeletionProblem,
  crdListVersion,
  namespaceDeletionProblem,
  podOwnerDeletionProblem,
  protectionOf,
  workloadDeletionProblem,
} from './decisions.js';

const KEY = 'policy.kruise.io/delete-protection';
const obj = (value?: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name: 'x', ...(value === undefined ? {} : { labels: { [KEY]: value } }), ...extra },
});
const pod = (phase: string, deleting = false): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    status: { phase },
  }) as KubeObject;
const pvc = (phase: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c' },
    status: { phase },
  }) as KubeObject;

describe('protectionOf', () => {
  it.each([
    [undefined, undefined],
    ['Always', 'Always'],
    ['Cascading', 'Cascading'],
    ['always', undefined],
    ['', undefined],
  ])('label %s → %s', (value, want) => expect(protectionOf(obj(value))).toBe(want));
  it('an object being deleted asks for nothing', () =>
    expect(protectionOf(obj('Always', { deletionTimestamp: '2026-01-01T00:00:00Z' }))).toBeUndefined());
});

describe('workloadDeletionProblem (upstream ValidateWorkloadDeletion)', () => {
  it.each([
    [undefined, 3, undefined],
    ['Always', 0, `forbidden by ResourcesProtectionDeletion for ${KEY}=Always`],
    ['Always', undefined, `forbidden by ResourcesProtectionDeletion for ${KEY}=Always`],
    ['Cascading', 2, `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and replicas 2>0`],
    ['Cascading', 0, undefined],
    ['Cascading', undefined, undefined],
    ['Other', 5, undefined],
  ])('label %s, replicas %s', (value, replicas, want) =>
    expect(workloadDeletionProblem(obj(value), replicas)).toBe(want),
  );
});

describe('namespaceDeletionProblem (upstream ValidateNamespaceDeletion)', () => {
  it.each([
    ['unlabelled, running pod', undefined, [pod('Running')], [], undefined],
    ['Always, empty', 'Always', [], [], `forbidden by ResourcesProtectionDeletion for ${KEY}=Always`],
    [
      'Cascading, running and pending pods',
      'Cascading',
      [pod('Running'), pod('Pending'), pod('Succeeded')],
      [],
      `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and active pods 2>0`,
    ],
    [
      'Cascading, only finished or terminating pods',
      'Cascading',
      [pod('Failed'), pod('Running', true)],
      [],
      undefined,
    ],
    [
      'Cascading, a Bound claim',
      'Cascading',
      [],
      [pvc('Bound'), pvc('Pending')],
      `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and "Bound" status pvc 1>0`,
    ],
    ['Cascading, empty', 'Cascading', [], [pvc('Pending')], undefined],
  ])('%s', (_what, value, pods, claims, want) =>
    expect(namespaceDeletionProblem(obj(value), pods, claims)).toBe(want),
  );
});

describe('crdDeletionProblem (upstream ValidateCRDDeletion)', () => {
  const cr = (deleting = false) =>
    obj(undefined, deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {});
  it.each([
    ['Always', true, [cr()], `forbidden by ResourcesProtectionDeletion for ${KEY}=Always`],
    ['Cascading', false, [], 'feature-gate DeletionProtectionForCRDCascadingGate is not enabled'],
    [
      'Cascading',
      true,
      [cr(), cr(), cr(true)],
      `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and active CRs 2>0`,
    ],
    ['Cascading', true, [cr(true)], undefined],
    [undefined, true, [cr()], undefined],
  ])('label %s, CRD gate %s', (value, crdCascading, objects, want) =>
    expect(crdDeletionProblem(obj(value), objects, { crdCascading })).toBe(want),
  );
  it('lists with the storage version, else the first served', () => {
    const crd = (versions: unknown[]) => ({ ...obj(), spec: { versions } }) as KubeObject;
    expect(
      crdListVersion(
        crd([
          { name: 'v1', served: true },
          { name: 'v2', served: true, storage: true },
        ]),
      ),
    ).toBe('v2');
    expect(
      crdListVersion(
        crd([
          { name: 'v1', served: false, storage: true },
          { name: 'v2', served: true },
        ]),
      ),
    ).toBe('v2');
    expect(crdListVersion(crd([]))).toBeUndefined();
  });
});

describe('podOwnerDeletionProblem (Advanced DaemonSet, BroadcastJob)', () => {
  it.each([
    [
      'Cascading',
      [pod('Running')],
      `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and active pods 1>0`,
    ],
    ['Cascading', [pod('Succeeded')], undefined],
    ['Always', [], `forbidden by ResourcesProtectionDeletion for ${KEY}=Always`],
    [undefined, [pod('Running')], undefined],
  ])('label %s', (value, pods, want) => expect(podOwnerDeletionProblem(obj(value), pods)).toBe(want));
});
