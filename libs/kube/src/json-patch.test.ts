import { describe, expect, it } from 'vitest';
import { escapePointerToken, formatPointer, JsonPointerError, parsePointer, unescapePointerToken } from './json-pointer.js';
import { JsonPatchError, type JsonPatchOperation, applyJsonPatch, createJsonPatch } from './json-patch.js';

describe('JSON pointers (RFC 6901)', () => {
  const tokens: [string, string][] = [
    ['a/b', 'a~1b'],
    ['m~n', 'm~0n'],
    ['~1', '~01'],
    ['apps.kruise.io/inplace-update-state', 'apps.kruise.io~1inplace-update-state'],
    ['', ''],
  ];
  it.each(tokens)('%j ↔ %j', (raw, escaped) => {
    expect(escapePointerToken(raw)).toBe(escaped);
    expect(unescapePointerToken(escaped)).toBe(raw);
  });

  it('parses and formats', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a~1b/0/m~0n')).toEqual(['a/b', '0', 'm~n']);
    expect(formatPointer(['metadata', 'annotations', 'a/b'])).toBe('/metadata/annotations/a~1b');
    expect(formatPointer([])).toBe('');
  });

  it.each(['a', '/a~2', '/a~'])('rejects %j', (p) => {
    expect(() => parsePointer(p)).toThrow(JsonPointerError);
  });
});

describe('applyJsonPatch (RFC 6902 appendix A)', () => {
  const ok: [string, unknown, JsonPatchOperation[], unknown][] = [
    ['add member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { foo: 'bar', baz: 'qux' }],
    ['add array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['remove member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['remove element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['replace', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'move member',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['move element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    ['test ok', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], { baz: 'qux', foo: ['a', 2, 'c'] }],
    ['add nested', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['add to end with -', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
    ['add null value', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: null }], { foo: 'bar', baz: null }],
    ['escaped keys', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    ['copy', { a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
    ['replace root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    ['add replaces an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
    [
      'annotation key with a slash',
      { metadata: {} },
      [
        { op: 'add', path: '/metadata/annotations', value: {} },
        { op: 'add', path: '/metadata/annotations/apps.kruise.io~1x', value: 'y' },
      ],
      { metadata: { annotations: { 'apps.kruise.io/x': 'y' } } },
    ],
  ];
  it.each(ok)('%s', (_name, doc, ops, expected) => {
    expect(applyJsonPatch(doc, ops)).toEqual(expected);
  });

  const bad: [string, unknown, JsonPatchOperation[]][] = [
    ['test fails', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
    ['test "10" vs 10', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]],
    ['add to a missing parent', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
    ['array index out of bounds', { foo: ['bar'] }, [{ op: 'add', path: '/foo/2', value: 'x' }]],
    ['leading zero index', { foo: ['a', 'b'] }, [{ op: 'replace', path: '/foo/01', value: 'x' }]],
    ['remove missing', { a: 1 }, [{ op: 'remove', path: '/b' }]],
    ['replace missing', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }]],
    ['move into itself', { a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]],
    ['unknown op', {}, [{ op: 'frobnicate', path: '/a' } as unknown as JsonPatchOperation]],
    ['missing value', {}, [{ op: 'add', path: '/a' } as unknown as JsonPatchOperation]],
    ['bad pointer', {}, [{ op: 'add', path: 'a', value: 1 }]],
  ];
  it.each(bad)('%s throws', (_name, doc, ops) => {
    expect(() => applyJsonPatch(doc, ops)).toThrow(JsonPatchError);
  });

  it('reports the failing index and leaves the input untouched', () => {
    const doc = { a: [1, 2] };
    try {
      applyJsonPatch(doc, [
        { op: 'add', path: '/a/-', value: 3 },
        { op: 'remove', path: '/zz' },
      ]);
      expect.unreachable();
    } catch (e) {
      expect((e as JsonPatchError).index).toBe(1);
      expect((e as JsonPatchError).code).toBe('REGATTA_KUBE_JSON_PATCH');
    }
    expect(doc).toEqual({ a: [1, 2] });
  });
});

describe('createJsonPatch', () => {
  const pod = {
    metadata: { name: 'p', labels: { app: 'web' }, annotations: { 'a/b': '1' } },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1', env: [{ name: 'A', value: '1' }] }],
      volumes: [{ name: 'data' }],
    },
  };
  const cases: [string, unknown, unknown, JsonPatchOperation[] | undefined][] = [
    ['equal', pod, structuredClone(pod), []],
    ['changed image', pod, { ...pod, spec: { ...pod.spec, containers: [{ ...pod.spec.containers[0], image: 'nginx:2' }] } }, [
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' },
    ]],
    [
      'sidecar appended',
      pod,
      { ...pod, spec: { ...pod.spec, containers: [...pod.spec.containers, { name: 'sidecar', image: 'busybox' }] } },
      [{ op: 'add', path: '/spec/containers/1', value: { name: 'sidecar', image: 'busybox' } }],
    ],
    [
      'sidecar prepended',
      pod,
      { ...pod, spec: { ...pod.spec, containers: [{ name: 'sidecar', image: 'busybox' }, ...pod.spec.containers] } },
      [{ op: 'add', path: '/spec/containers/0', value: { name: 'sidecar', image: 'busybox' } }],
    ],
    [
      'annotation added with an escaped key',
      pod,
      { ...pod, metadata: { ...pod.metadata, annotations: { 'a/b': '1', 'kruise.io/sidecarset-injected-list': 's' } } },
      [{ op: 'add', path: '/metadata/annotations/kruise.io~1sidecarset-injected-list', value: 's' }],
    ],
    ['member removed', { a: 1, b: 2 }, { a: 1 }, [{ op: 'remove', path: '/b' }]],
    ['root type change', { a: 1 }, [1], [{ op: 'replace', path: '', value: [1] }]],
    ['elements removed from the middle', { l: [1, 2, 3, 4] }, { l: [1, 4] }, [
      { op: 'remove', path: '/l/2' },
      { op: 'remove', path: '/l/1' },
    ]],
    ['insert and change together', { l: [{ n: 'a', v: 1 }] }, { l: [{ n: 's' }, { n: 'a', v: 2 }] }, undefined],
    ['undefined members are absent', { a: 1, b: undefined }, { a: 1 }, []],
    ['null value added', { a: 1 }, { a: 1, b: null }, [{ op: 'add', path: '/b', value: null }]],
    ['scalar arrays', { l: ['x'] }, { l: ['y', 'x', 'z'] }, undefined],
    ['empty to list', {}, { l: [] }, [{ op: 'add', path: '/l', value: [] }]],
  ];
  it.each(cases)('%s', (_name, before, after, expected) => {
    const ops = createJsonPatch(before, after);
    if (expected !== undefined) expect(ops).toEqual(expected);
    expect(applyJsonPatch(before, ops)).toEqual(JSON.parse(JSON.stringify(after)));
  });

  describe('maxListOperations', () => {
    const defaulted = (n: number, withDefaults: boolean) => ({
      spec: {
        containers: Array.from({ length: n }, (_, i) => ({
          name: `c${i}`,
          image: 'nginx',
          ...(withDefaults ? { imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' } : {}),
        })),
      },
    });
    const cases: [string, unknown, unknown, number | undefined, JsonPatchOperation['op'][]][] = [
      ['1500 containers defaulted, no limit: two operations each', defaulted(1500, false), defaulted(1500, true), undefined, Array<JsonPatchOperation['op']>(3000).fill('add')],
      ['1500 containers defaulted, limit 16: the list replaced once', defaulted(1500, false), defaulted(1500, true), 16, ['replace']],
      ['a change within the limit keeps its own operations', defaulted(4, false), defaulted(4, true), 16, Array<JsonPatchOperation['op']>(8).fill('add')],
      ['nested lists: the inner list replaced, the outer one kept', { l: [{ m: [1, 2, 3] }, 'x'] }, { l: [{ m: [4, 5, 6] }, 'x'] }, 2, ['replace']],
    ];
    it.each(cases)('%s', (_name, before, after, maxListOperations, expected) => {
      const ops = createJsonPatch(before, after, maxListOperations === undefined ? {} : { maxListOperations });
      expect(ops.map((o) => o.op)).toEqual(expected);
      expect(applyJsonPatch(before, ops)).toEqual(after);
    });
    it('names the inner list when only it is replaced', () => {
      expect(createJsonPatch({ l: [{ m: [1, 2, 3] }] }, { l: [{ m: [4, 5, 6] }] }, { maxListOperations: 2 })).toEqual([
        { op: 'replace', path: '/l/0/m', value: [4, 5, 6] },
      ]);
    });
  });
});
