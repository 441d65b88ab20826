import { describe, expect, it } from 'vitest';
import { VCT_HASH_ANNOTATION } from './keys.js';
import type { ControllerRevision } from './types.js';
import {
  canVolumeClaimTemplatesUpdateInPlace,
  volumeClaimTemplatesHash,
  volumeClaimTemplatesJson,
} from './vct-hash.js';

const vct = (name: string, storage = '1Gi', extra: Record<string, unknown> = {}) => ({
  metadata: { name, labels: { ignored: 'yes' } },
  spec: { resources: { requests: { storage } }, accessModes: ['ReadWriteOnce'], ...extra },
});

describe('volumeClaimTemplatesJson', () => {
  it('writes Go struct order with the zero values Go emits (k8s.io/api v0.32)', () => {
    expect(volumeClaimTemplatesJson([vct('data-vol')])).toBe(
      '[{"metadata":{"name":"data-vol","creationTimestamp":null},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}},"status":{}}]',
    );
  });
  it('orders templates by name and canonicalizes quantities', () => {
    const json = volumeClaimTemplatesJson([vct('b', '1024Mi'), vct('a')]);
    expect(json.indexOf('"name":"a"')).toBeLessThan(json.indexOf('"name":"b"'));
    expect(json).toContain('"storage":"1Gi"');
    expect(json).not.toContain('1024Mi');
  });
  it('keeps nullable dataSource.apiGroup and sorts unknown fields last', () => {
    expect(
      volumeClaimTemplatesJson([
        { metadata: { name: 'x' }, spec: { zeta: 1, dataSource: { kind: 'VolumeSnapshot', name: 's' } } },
      ]),
    ).toBe(
      '[{"metadata":{"name":"x","creationTimestamp":null},"spec":{"resources":{},"dataSource":{"apiGroup":null,"kind":"VolumeSnapshot","name":"s"},"zeta":1},"status":{}}]',
    );
  });
});

describe('volumeClaimTemplatesHash', () => {
  it('matches Go for one template (cross-checked with go-spew, FNV-1a)', () => {
    expect(volumeClaimTemplatesHash([vct('data-vol')])).toBe('4001351501');
  });
  it('is "" without templates, stable, order-independent and changes with the size', () => {
    expect(volumeClaimTemplatesHash(undefined)).toBe('');
    expect(volumeClaimTemplatesHash([])).toBe('');
    expect(volumeClaimTemplatesHash([vct('a'), vct('b')])).toBe(
      volumeClaimTemplatesHash([vct('b'), vct('a')]),
    );
    expect(volumeClaimTemplatesHash([vct('a', '2Gi')])).not.toBe(volumeClaimTemplatesHash([vct('a')]));
  });
});

describe('canVolumeClaimTemplatesUpdateInPlace', () => {
  const r = (hash?: string): ControllerRevision => ({
    metadata: hash === undefined ? {} : { annotations: { [VCT_HASH_ANNOTATION]: hash } },
    revision: 1,
  });
  it.each([
    ['both missing', undefined, undefined, true],
    ['old missing', undefined, '1', true],
    ['new missing', '1', undefined, true],
    ['equal', '1', '1', true],
    ['both empty', '', '', true],
    ['differ', '1', '2', false],
  ])('%s', (_n, a, b, expected) => {
    expect(canVolumeClaimTemplatesUpdateInPlace(r(a), r(b))).toBe(expected);
  });
});
