import { describe, expect, it } from 'vitest';
import { InPlaceUpdateAnnotationError } from './errors.js';
import { formatInPlaceUpdateState, parseInPlaceUpdateState, readInPlaceUpdateState } from './state.js';
import { formatUpdateSpec, isInGracePeriod, parseUpdateSpec } from './update-spec.js';

describe('InPlaceUpdateState JSON', () => {
  it('writes a fresh state as Kruise does: lastContainerStatuses null, false fields omitted', () => {
    expect(
      formatInPlaceUpdateState({
        revision: 'rev_new',
        updateTimestamp: '2024-05-01T12:00:00Z',
        updateImages: true,
      }),
    ).toBe(
      '{"revision":"rev_new","updateTimestamp":"2024-05-01T12:00:00Z","lastContainerStatuses":null,"updateImages":true}',
    );
  });

  it('writes every field in Go struct order', () => {
    const json = formatInPlaceUpdateState({
      revision: 'r',
      updateTimestamp: 'T',
      lastContainerStatuses: { c2: { imageID: 'b' }, c1: {} },
      updateEnvFromMetadata: true,
      updateImages: true,
      nextContainerImages: { c3: 'img' },
      nextContainerRefMetadata: { c3: { labels: { k: 'v' } } },
      preCheckBeforeNext: { containersRequiredReady: ['c1', 'c2'] },
      containerBatchesRecord: [{ timestamp: 'T', containers: ['c1', 'c2'] }],
    });
    expect(json).toBe(
      '{"revision":"r","updateTimestamp":"T","lastContainerStatuses":{"c1":{},"c2":{"imageID":"b"}},"updateEnvFromMetadata":true,"updateImages":true,' +
        '"nextContainerImages":{"c3":"img"},"nextContainerRefMetadata":{"c3":{"creationTimestamp":null,"labels":{"k":"v"}}},' +
        '"preCheckBeforeNext":{"containersRequiredReady":["c1","c2"]},"containerBatchesRecord":[{"timestamp":"T","containers":["c1","c2"]}]}',
    );
    expect(formatInPlaceUpdateState(parseInPlaceUpdateState(json))).toBe(json);
  });

  it('normalizes timestamps to RFC 3339 UTC seconds and reads the old key', () => {
    const pod = {
      metadata: {
        annotations: {
          'inplace-update-state': '{"revision":"r","updateTimestamp":"2024-05-01T14:00:00+02:00"}',
        },
      },
    };
    expect(readInPlaceUpdateState(pod)).toEqual({ revision: 'r', updateTimestamp: '2024-05-01T12:00:00Z' });
    expect(readInPlaceUpdateState({ metadata: {} })).toBeUndefined();
  });

  it('names the annotation when it does not parse', () => {
    expect(() => parseInPlaceUpdateState('{')).toThrow(InPlaceUpdateAnnotationError);
    expect(() => parseInPlaceUpdateState('[]')).toThrow('apps.kruise.io/inplace-update-state is not valid');
  });
});

describe('UpdateSpec (grace annotation) JSON', () => {
  it('writes the upstream example', () => {
    expect(
      formatUpdateSpec({ revision: 'rev_new', containerImages: { c1: 'foo2' }, graceSeconds: 3630 }),
    ).toBe('{"revision":"rev_new","containerImages":{"c1":"foo2"},"graceSeconds":3630}');
  });
  it('stores metaDataPatch as base64 and reads it back', () => {
    const spec = {
      revision: 'r',
      containerRefMetadata: { c1: { labels: { k: 'v' } } },
      metaDataPatch: '{"metadata":{"labels":{"a":"b"}}}',
      updateEnvFromMetadata: true,
    };
    const json = formatUpdateSpec(spec);
    expect(json).toBe(
      `{"revision":"r","containerRefMetadata":{"c1":{"creationTimestamp":null,"labels":{"k":"v"}}},"metaDataPatch":"${Buffer.from(spec.metaDataPatch).toString('base64')}","updateEnvFromMetadata":true}`,
    );
    expect(parseUpdateSpec(json)).toEqual(spec);
  });
  it('is in grace only with a non-empty annotation', () => {
    expect(
      isInGracePeriod({ metadata: { annotations: { 'apps.kruise.io/inplace-update-grace': '{}' } } }),
    ).toBe(true);
    expect(isInGracePeriod({ metadata: { annotations: { 'inplace-update-grace': '{}' } } })).toBe(true);
    expect(
      isInGracePeriod({ metadata: { annotations: { 'apps.kruise.io/inplace-update-grace': '' } } }),
    ).toBe(false);
    expect(isInGracePeriod({})).toBe(false);
  });
});
