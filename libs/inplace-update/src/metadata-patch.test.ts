import { describe, expect, it } from 'vitest';
import { MetadataPatchError } from './errors.js';
import { applyMetadataPatch, createMetadataPatch } from './metadata-patch.js';

// expected values produced by k8s.io/apimachinery strategicpatch.CreateTwoWayMergePatch / StrategicMergePatch (v0.36)
describe('createMetadataPatch', () => {
  const cases: [string, unknown, unknown, string][] = [
    ['no change', { labels: { a: '1' } }, { labels: { a: '1' } }, '{}'],
    [
      'finalizers reordered',
      { finalizers: ['a', 'b'] },
      { finalizers: ['b', 'a'] },
      '{"metadata":{"$setElementOrder/finalizers":["b","a"]}}',
    ],
    [
      'finalizer added',
      { finalizers: ['a'] },
      { finalizers: ['a', 'b'] },
      '{"metadata":{"$setElementOrder/finalizers":["a","b"],"finalizers":["b"]}}',
    ],
    ['finalizers from none', {}, { finalizers: ['a', 'b'] }, '{"metadata":{"finalizers":["a","b"]}}'],
    ['finalizers to none', { finalizers: ['a'] }, {}, '{"metadata":{"finalizers":null}}'],
    [
      'finalizers mixed',
      { finalizers: ['c', 'a', 'b'] },
      { finalizers: ['d', 'b'] },
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","c"],"$setElementOrder/finalizers":["d","b"],"finalizers":["d"]}}',
    ],
    [
      'labels changed, annotations dropped',
      { labels: { a: '1' }, annotations: { x: '1' } },
      { labels: { a: '2', 'b<': '&' } },
      '{"metadata":{"annotations":null,"labels":{"a":"2","b\\u003c":"\\u0026"}}}',
    ],
    [
      'scalars replaced or removed',
      { name: 'a', generateName: 'g' },
      { name: 'b' },
      '{"metadata":{"generateName":null,"name":"b"}}',
    ],
    ['Go zero values are absent', { labels: {}, creationTimestamp: null }, {}, '{}'],
  ];
  it.each(cases)('%s', (_n, before, after, expected) => {
    expect(createMetadataPatch(before, after)).toBe(expected);
  });
});

describe('applyMetadataPatch', () => {
  const pod = (metadata: Record<string, unknown>) => ({ metadata });
  it('deletes, merges and orders finalizers as the API server does', () => {
    const out = applyMetadataPatch(
      pod({ finalizers: ['x', 'fz1', 'fz2', 'y'], labels: { k: 'v', k2: 'v2', z: '1' } }),
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}',
    );
    expect(out.metadata).toEqual({ finalizers: ['x', 'fz2', 'y'], labels: { k: 'v', k1: 'v1', z: '1' } });
  });
  it('interleaves new finalizers with server-only ones by the server order', () => {
    const out = applyMetadataPatch(
      pod({ finalizers: ['x', 'a', 'y'] }),
      '{"metadata":{"$setElementOrder/finalizers":["b","a"],"finalizers":["b"]}}',
    );
    expect(out.metadata?.finalizers).toEqual(['b', 'x', 'a', 'y']);
  });
  it('round-trips created patches', () => {
    const before = { labels: { a: '1', b: '2' }, annotations: { n: 'x' }, finalizers: ['f1'] };
    const after = { labels: { a: '1', c: '3' }, finalizers: ['f2', 'f1'] };
    expect(applyMetadataPatch(pod(before), createMetadataPatch(before, after)).metadata).toEqual(after);
    expect(applyMetadataPatch(pod(before), '{}').metadata).toEqual(before);
  });
  it('refuses anything outside metadata or other directives', () => {
    expect(() => applyMetadataPatch(pod({}), '{"spec":{}}')).toThrow(MetadataPatchError);
    expect(() => applyMetadataPatch(pod({}), '{"metadata":{"$patch":"replace"}}')).toThrow(
      'unsupported directive $patch',
    );
    expect(() => applyMetadataPatch(pod({}), 'nope')).toThrow('not JSON');
  });
});
