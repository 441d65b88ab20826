import { VCT_HASH_ANNOTATION, type ControllerRevision } from '@regatta/revision';
import { describe, expect, it } from 'vitest';
import { calculateInPlaceUpdateSpec, canUpdateInPlace } from './calculate-spec.js';

const rev = (name: string, raw: string, annotations?: Record<string, string>): ControllerRevision => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  data: JSON.parse(raw) as unknown,
  revision: 1,
});

// TestCalculateInPlaceUpdateSpec (`pkg/util/inplaceupdate/inplace_update_test.go`): 7 rows
describe('calculateInPlaceUpdateSpec', () => {
  const cases: [string, ControllerRevision | undefined, ControllerRevision, unknown][] = [
    [
      'old revision nil',
      undefined,
      rev(
        'new-revision',
        '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}',
      ),
      undefined,
    ],
    [
      'image change',
      rev(
        'old-revision',
        '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}',
      ),
      rev(
        'new-revision',
        '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}',
      ),
      { revision: 'new-revision', containerImages: { c1: 'foo2' } },
    ],
    [
      'identical top-level metadata label outside the template',
      rev(
        'old-revision',
        '{"metadata":{"labels":{"k":"v"}},"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}',
      ),
      rev(
        'new-revision',
        '{"metadata":{"labels":{"k":"v"}},"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}',
      ),
      { revision: 'new-revision', containerImages: { c1: 'foo2' } },
    ],
    [
      'template label added',
      rev(
        'old-revision',
        '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v"}},"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}',
      ),
      rev(
        'new-revision',
        '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k1":"v1"}},"spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}',
      ),
      {
        revision: 'new-revision',
        containerImages: { c1: 'foo2' },
        metaDataPatch: '{"metadata":{"labels":{"k1":"v1"}}}',
      },
    ],
    [
      'label read through env: recorded per container, left out of the metadata patch',
      rev(
        'old-revision',
        `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v"}},"spec":{"containers":[{"name":"c1","image":"foo1","env":[{"name":"TEST_ENV","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
      ),
      rev(
        'new-revision',
        `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v2","k1":"v1"}},"spec":{"containers":[{"name":"c1","image":"foo2","env":[{"name":"TEST_ENV","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
      ),
      {
        revision: 'new-revision',
        containerImages: { c1: 'foo2' },
        containerRefMetadata: { c1: { labels: { k: 'v2' } } },
        metaDataPatch: '{"metadata":{"labels":{"k1":"v1"}}}',
        updateEnvFromMetadata: true,
      },
    ],
    [
      'labels and finalizers changed: strategic merge patch',
      rev(
        'old-revision',
        '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k2":"v2"},"finalizers":["fz1","fz2"]},"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}',
      ),
      rev(
        'new-revision',
        '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k1":"v1"},"finalizers":["fz2"]},"spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}',
      ),
      {
        revision: 'new-revision',
        containerImages: { c1: 'foo2' },
        metaDataPatch:
          '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}',
      },
    ],
    [
      'container env added',
      rev(
        'old-revision',
        '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}',
      ),
      rev(
        'new-revision',
        '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2","env":[{"name":"k","value":"v"}]}]}}}}',
      ),
      undefined,
    ],
  ];
  it.each(cases)('%s', (_n, oldRev, newRev, expected) => {
    const d = calculateInPlaceUpdateSpec(oldRev, newRev);
    expect(d.inPlace ? d.spec : undefined).toEqual(expected);
  });

  const base =
    '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1","args":["a"]}]}}}}';
  const notInPlace: [string, string, string][] = [
    [
      'a changed arg',
      '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1","args":["b"]}]}}}}',
      'SpecFieldChanged',
    ],
    [
      'a container added',
      '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1","args":["a"]},{"name":"c2","image":"x"}]}}}}',
      'SpecFieldAddedOrRemoved',
    ],
    [
      'a renamed container',
      '{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c9","image":"foo1","args":["a"]}]}}}}',
      'SpecFieldChanged',
    ],
    [
      'a change outside the template',
      '{"other":1,"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1","args":["a"]}]}}}}',
      'NotSpecOrMetadata',
    ],
  ];
  it.each(notInPlace)('%s is not in place', (_n, raw, reason) => {
    const d = calculateInPlaceUpdateSpec(rev('old', base), rev('new', raw));
    expect(d).toMatchObject({ inPlace: false, reason });
    expect(canUpdateInPlace(rev('old', base), rev('new', raw))).toBe(false);
  });

  it('honours the env-from-metadata gate: off → the label goes into the metadata patch and no container is marked', () => {
    const oldRev = rev(
      'o',
      `{"spec":{"template":{"metadata":{"labels":{"k":"v"}},"spec":{"containers":[{"name":"c1","image":"i","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
    );
    const newRev = rev(
      'n',
      `{"spec":{"template":{"metadata":{"labels":{"k":"v2"}},"spec":{"containers":[{"name":"c1","image":"i","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
    );
    expect(calculateInPlaceUpdateSpec(oldRev, newRev, { envFromMetadata: false })).toEqual({
      inPlace: true,
      spec: { revision: 'n', metaDataPatch: '{"metadata":{"labels":{"k":"v2"}}}' },
    });
    expect(calculateInPlaceUpdateSpec(oldRev, newRev)).toEqual({
      inPlace: true,
      spec: {
        revision: 'n',
        containerRefMetadata: { c1: { labels: { k: 'v2' } } },
        metaDataPatch: '{}',
        updateEnvFromMetadata: true,
      },
    });
  });

  it('decodes RFC 6901 escapes in annotation keys read by env', () => {
    const env = `[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"metadata.annotations['a.io/k']"}}}]`;
    const oldRev = rev(
      'o',
      `{"spec":{"template":{"metadata":{"annotations":{"a.io/k":"1"}},"spec":{"containers":[{"name":"c1","image":"i","env":${env}}]}}}}`,
    );
    const newRev = rev(
      'n',
      `{"spec":{"template":{"metadata":{"annotations":{"a.io/k":"2"}},"spec":{"containers":[{"name":"c1","image":"i","env":${env}}]}}}}`,
    );
    const d = calculateInPlaceUpdateSpec(oldRev, newRev);
    expect(d.inPlace && d.spec.containerRefMetadata).toEqual({ c1: { annotations: { 'a.io/k': '2' } } });
  });

  it('carries the grace period and a custom revision id', () => {
    const d = calculateInPlaceUpdateSpec(rev('old', base), rev('new', base.replace('foo1', 'foo2')), {
      gracePeriodSeconds: 30,
      revisionId: () => 'hash',
    });
    expect(d).toEqual({
      inPlace: true,
      spec: { revision: 'hash', containerImages: { c1: 'foo2' }, graceSeconds: 30 },
    });
  });

  it('recreates on a volumeClaimTemplates change only with the gate, and never under InPlaceOnly', () => {
    const o = rev('old', base, { [VCT_HASH_ANNOTATION]: '1' });
    const n = rev('new', base.replace('foo1', 'foo2'), { [VCT_HASH_ANNOTATION]: '2' });
    expect(canUpdateInPlace(o, n)).toBe(true);
    expect(calculateInPlaceUpdateSpec(o, n, { recreatePodWhenChangeVCT: true })).toMatchObject({
      inPlace: false,
      reason: 'VolumeClaimTemplatesChanged',
    });
    expect(
      canUpdateInPlace(o, n, { recreatePodWhenChangeVCT: true, ignoreVolumeClaimTemplatesHashDiff: true }),
    ).toBe(true);
  });
});
