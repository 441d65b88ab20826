import { describe, expect, it } from 'vitest';
import { defaultSidecarSetForAdmission, type SidecarSet } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import type { AdmissionInput } from '@regatta/runtime';
import { sidecarSetValidator, withCustomVersionLabel } from './sidecarset-webhooks.js';

const pinned = defaultSidecarSetForAdmission(
  {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name: 'scs' },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      containers: [{ name: 'agent', image: 'busybox' }],
      injectionStrategy: { revision: { customVersion: '3', policy: 'Always' } },
    },
  },
  'v1beta1',
).object;
const revision: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: {
    name: 'scs-abc',
    namespace: 'kruise-system',
    labels: { 'kruise.io/sidecarset-name': 'scs', 'apps.kruise.io/sidecarset-custom-version': '3' },
  },
};
const input = (dryRun = false): AdmissionInput<SidecarSet> =>
  ({
    operation: 'CREATE',
    object: pinned,
    oldObject: null,
    kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'SidecarSet' },
    name: 'scs',
    userInfo: {},
    dryRun,
    uid: 'u',
  }) as AdmissionInput<SidecarSet>;

describe('sidecarSetValidator (docs/adr/0040-sidecarset-effective-at-admission.md)', () => {
  it('a pinned revision not cached yet is read from the API server before refusing', async () => {
    const base = { sidecarSets: () => [], revisions: () => [], patchPodMetadataDefaultsAllowed: false };
    expect((await sidecarSetValidator(base)(input())).allowed).toBe(false);
    const read: string[] = [];
    const withReads = sidecarSetValidator({
      ...base,
      storedRevisions: async (name) => {
        read.push(name);
        return [revision];
      },
    });
    expect((await withReads(input())).allowed).toBe(true);
    expect(read).toEqual(['scs']);
    // cached: no read
    read.length = 0;
    const cached = sidecarSetValidator({
      ...base,
      revisions: () => [revision],
      storedRevisions: withReads as never,
    });
    expect((await cached(input())).allowed).toBe(true);
    expect(read).toEqual([]);
  });

  it('an allowed SidecarSet is reported as admitted before the answer, except on dry runs', async () => {
    const admitted: string[] = [];
    const validator = sidecarSetValidator({
      sidecarSets: () => [],
      revisions: () => [revision],
      patchPodMetadataDefaultsAllowed: false,
      admitted: async (s) => {
        admitted.push(s.metadata?.name ?? '');
      },
    });
    await validator(input(true));
    expect(admitted).toEqual([]);
    await validator(input());
    expect(admitted).toEqual(['scs']);
  });
});

describe('withCustomVersionLabel (the v1alpha1 view prunes spec.customVersion)', () => {
  const LABEL = 'apps.kruise.io/sidecarset-custom-version';
  const scs = (customVersion?: string, labels?: Record<string, string>): SidecarSet =>
    ({
      metadata: { name: 'scs', ...(labels ? { labels } : {}) },
      spec: { ...(customVersion !== undefined ? { customVersion } : {}), containers: [] },
    }) as unknown as SidecarSet;
  it.each([
    ['set: mirrored', scs('1'), null, { [LABEL]: '1' }],
    [
      'changed: follows',
      scs('2', { [LABEL]: '1', a: 'b' }),
      scs('1', { [LABEL]: '1' }),
      { [LABEL]: '2', a: 'b' },
    ],
    ['cleared: the mirror goes', scs(undefined, { [LABEL]: '1' }), scs('1', { [LABEL]: '1' }), {}],
    [
      'never set (a v1alpha1 label of its own): kept',
      scs(undefined, { [LABEL]: '7' }),
      scs(undefined),
      { [LABEL]: '7' },
    ],
    ['none at all', scs(), null, undefined],
  ] as const)('%s', (_what, obj, old, labels) => {
    expect(withCustomVersionLabel(obj, old).metadata?.labels).toEqual(labels);
  });
});
