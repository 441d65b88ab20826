import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { growth, kindOf, readHeapSnapshot, summarize, type HeapSnapshot } from './memory-heap.js';

const NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count'];
const NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native'];
const EDGE_FIELDS = ['type', 'name_or_index', 'to_node'];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

/** A snapshot of `objects`: [type, name, size, edges as [edge type, name, target index]]. */
function snapshot(objects: [string, string, number, [string, string | number, number][]][]): HeapSnapshot {
  const strings: string[] = [];
  const str = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const nodes: number[] = [];
  const edges: number[] = [];
  objects.forEach(([type, name, size, es], id) => {
    nodes.push(NODE_TYPES.indexOf(type), str(name), id, size, es.length);
    for (const [et, en, to] of es)
      edges.push(EDGE_TYPES.indexOf(et), typeof en === 'number' ? en : str(en), to * NODE_FIELDS.length);
  });
  return {
    nodeFields: NODE_FIELDS,
    nodeTypes: NODE_TYPES,
    edgeFields: EDGE_FIELDS,
    edgeTypes: EDGE_TYPES,
    nodes,
    edges,
    strings,
  };
}

describe('kindOf', () => {
  it.each([
    ['object', 'Map', 'Map'],
    ['closure', 'onChange', 'closure onChange'],
    ['closure', '', 'closure (anonymous)'],
    ['string', 'nginx:1.27.3', '(string)'],
    ['sliced string', 'abc', '(string)'],
    ['concatenated string', 'abc', '(string)'],
    ['number', 'heap number', '(number)'],
    ['code', 'foo', '(code)'],
    ['array', '(object properties)', '(array)'],
    ['hidden', 'system / Context', '(hidden) system'],
  ])('%s %j is counted as %j', (type, name, kind) => expect(kindOf(type, name)).toBe(kind));
});

describe('summarize and growth', () => {
  // a Cache whose Map holds pod objects, each with a name string; the after-snapshot holds one more pod
  const before = snapshot([
    ['object', 'Cache', 40, [['property', 'objects', 1]]],
    ['object', 'Map', 32, [['internal', 'table', 2]]],
    ['array', '(object elements)', 100, [['element', 0, 3]]],
    ['object', 'Object', 56, [['property', 'name', 4]]],
    ['string', 'pod-a', 24, []],
  ]);
  const after = snapshot([
    ['object', 'Cache', 40, [['property', 'objects', 1]]],
    ['object', 'Map', 32, [['internal', 'table', 2]]],
    [
      'array',
      '(object elements)',
      120,
      [
        ['element', 0, 3],
        ['element', 1, 5],
      ],
    ],
    ['object', 'Object', 56, [['property', 'name', 4]]],
    ['string', 'pod-a', 24, []],
    [
      'object',
      'Object',
      56,
      [
        ['property', 'name', 6],
        ['weak', 'cache', 0],
      ],
    ],
    ['string', 'pod-b', 24, []],
  ]);

  it('totals each kind and counts its referrers by kind and edge, weak edges left out', () => {
    const s = summarize(after);
    expect(s.get('Object')).toEqual({ count: 2, bytes: 112, referrers: new Map([['(array).[]', 2]]) });
    expect(s.get('(string)')).toMatchObject({ count: 2, bytes: 48 });
    expect(s.get('(string)')!.referrers.get('Object.name')).toBe(2);
    expect(s.get('Cache')!.referrers.size).toBe(0);
  });

  it('ranks the kinds by bytes grown, with the referrers that grew', () => {
    const g = growth(summarize(before), summarize(after));
    expect(g.slice(0, 3)).toEqual([
      { kind: 'Object', count: 1, bytes: 56, referrers: [['(array).[]', 1]] },
      { kind: '(string)', count: 1, bytes: 24, referrers: [['Object.name', 1]] },
      { kind: '(array)', count: 0, bytes: 20, referrers: [] },
    ]);
    expect(g.find((r) => r.kind === 'Cache')).toMatchObject({ count: 0, bytes: 0 });
  });

  it('reads a .heapsnapshot file (the arrays from its bytes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-heap-'));
    try {
      const file = join(dir, 'a.heapsnapshot');
      const s = after;
      writeFileSync(
        file,
        JSON.stringify({
          snapshot: {
            meta: {
              node_fields: s.nodeFields,
              node_types: [s.nodeTypes, 'string'],
              edge_fields: s.edgeFields,
              edge_types: [s.edgeTypes, 'string'],
            },
            node_count: s.nodes.length / 5,
          },
          nodes: s.nodes,
          edges: s.edges,
          locations: [],
          strings: s.strings,
        }),
      );
      const read = readHeapSnapshot(file);
      expect([...read.nodes]).toEqual(s.nodes);
      expect([...read.edges]).toEqual(s.edges);
      expect(read.strings).toEqual(s.strings);
      expect(summarize(read)).toEqual(summarize(s));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
