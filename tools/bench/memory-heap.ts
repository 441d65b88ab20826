// What holds a program's heap, from V8 heap snapshots (docs/benchmarks-memory.md section 3, "what a pod costs in a
// program"): `node --conditions=@regatta/source --import tsx tools/bench/memory-heap.ts <before> <after> [N]`
// prints, per kind of object (a constructor, a closure's function, a string, an array …), how much more the
// after-snapshot holds than the before-snapshot, and ÷ N per pod, with what refers to each kind's new objects.
// Snapshots: run a program with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` (NODE_OPTIONS) and send it
// SIGUSR2 with 0 and with N pods. The snapshot's arrays are read from the file's bytes: a program's snapshot is
// larger than the longest string JSON.parse accepts.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The parts of a `.heapsnapshot` this file reads. */
export interface HeapSnapshot {
  nodeFields: string[];
  nodeTypes: string[];
  edgeFields: string[];
  edgeTypes: string[];
  nodes: Float64Array | number[];
  edges: Float64Array | number[];
  strings: string[];
}

/** Objects of one kind: how many, their own bytes, and who refers to them (`<referrer kind>.<edge>` → count). */
export interface KindTotal {
  count: number;
  bytes: number;
  referrers: Map<string, number>;
}

/** The string types of a snapshot, all one kind here: what matters is how many bytes of text there are. */
const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

/** The kind a node is counted under: `Foo` (objects of class Foo), `closure foo`, `(string)`, `(array) …`. */
export function kindOf(type: string, name: string): string {
  if (STRING_TYPES.has(type)) return '(string)';
  if (type === 'object') return name;
  if (type === 'closure') return `closure ${name || '(anonymous)'}`;
  if (type === 'number' || type === 'code' || type === 'regexp' || type === 'bigint' || type === 'symbol')
    return `(${type})`;
  // hidden and array names are often unique per object (a context's function, a map's shape): keep the first word
  return `(${type}) ${name.split(/[\s/(]/)[0] ?? ''}`.trimEnd();
}

/** Totals per kind, with each kind's referrers (edges of kind property, element, internal, context, hidden). */
export function summarize(s: HeapSnapshot, withReferrers = true): Map<string, KindTotal> {
  const nf = s.nodeFields.length;
  const ef = s.edgeFields.length;
  const [typeI, nameI, sizeI, edgeCountI] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    s.nodeFields.indexOf(f),
  ) as [number, number, number, number];
  const [eTypeI, eNameI, eToI] = ['type', 'name_or_index', 'to_node'].map((f) => s.edgeFields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const nodeCount = s.nodes.length / nf;
  const kinds: string[] = new Array<string>(nodeCount);
  const out = new Map<string, KindTotal>();
  for (let i = 0; i < nodeCount; i++) {
    const o = i * nf;
    const kind = kindOf(s.nodeTypes[s.nodes[o + typeI]!] ?? '?', s.strings[s.nodes[o + nameI]!] ?? '');
    kinds[i] = kind;
    let t = out.get(kind);
    if (!t) out.set(kind, (t = { count: 0, bytes: 0, referrers: new Map() }));
    t.count++;
    t.bytes += s.nodes[o + sizeI]!;
  }
  if (!withReferrers) return out;
  let e = 0;
  for (let i = 0; i < nodeCount; i++) {
    const edges = s.nodes[i * nf + edgeCountI]!;
    for (let k = 0; k < edges; k++, e += ef) {
      const eType = s.edgeTypes[s.edges[e + eTypeI]!] ?? '?';
      if (eType === 'weak' || eType === 'shortcut') continue;
      const to = s.edges[e + eToI]! / nf;
      const eName =
        eType === 'element' || eType === 'hidden' ? '[]' : (s.strings[s.edges[e + eNameI]!] ?? '?');
      const via = `${kinds[i]}.${eName}`;
      const r = out.get(kinds[to]!)!.referrers;
      r.set(via, (r.get(via) ?? 0) + 1);
    }
  }
  return out;
}

/** One row of a comparison: a kind and what the after-snapshot holds more of. */
export interface KindGrowth {
  kind: string;
  count: number;
  bytes: number;
  /** The referrers whose counts grew most, largest first. */
  referrers: [string, number][];
}

/** Kinds by bytes grown from `before` to `after`, largest first. */
export function growth(
  before: Map<string, KindTotal>,
  after: Map<string, KindTotal>,
  topReferrers = 3,
): KindGrowth[] {
  const rows: KindGrowth[] = [];
  for (const [kind, a] of after) {
    const b = before.get(kind);
    const referrers = [...a.referrers]
      .map(([via, n]): [string, number] => [via, n - (b?.referrers.get(via) ?? 0)])
      .filter(([, n]) => n > 0)
      .sort((x, y) => y[1] - x[1])
      .slice(0, topReferrers);
    rows.push({ kind, count: a.count - (b?.count ?? 0), bytes: a.bytes - (b?.bytes ?? 0), referrers });
  }
  for (const [kind, b] of before)
    if (!after.has(kind)) rows.push({ kind, count: -b.count, bytes: -b.bytes, referrers: [] });
  return rows.sort((x, y) => y.bytes - x.bytes);
}

/** The integers of the JSON array that starts at `from` (its `[`), read from bytes. */
function numbers(buf: Buffer, from: number): Float64Array {
  let n = 0;
  let end = from + 1;
  for (; buf[end] !== 0x5d; end++) if (buf[end] === 0x2c) n++;
  const out = new Float64Array(end > from + 1 ? n + 1 : 0);
  let k = 0;
  let v = 0;
  let digits = false;
  for (let i = from + 1; i <= end; i++) {
    const c = buf[i]!;
    if (c >= 0x30 && c <= 0x39) {
      v = v * 10 + (c - 0x30);
      digits = true;
    } else if (c === 0x2c || c === 0x5d) {
      if (digits) out[k++] = v;
      v = 0;
      digits = false;
    }
  }
  return out;
}

/** Reads a `.heapsnapshot` file. */
export function readHeapSnapshot(file: string): HeapSnapshot {
  const buf = readFileSync(file);
  const at = (key: string) => {
    const i = buf.indexOf(`"${key}":`);
    if (i < 0) throw new Error(`${file}: no "${key}" in the snapshot`);
    return buf.indexOf('[', i);
  };
  const nodesAt = at('nodes');
  const head = buf.toString('utf8', 0, buf.lastIndexOf(',', nodesAt)) + '}';
  const meta = (JSON.parse(head) as { snapshot: { meta: Record<string, unknown[]> } }).snapshot.meta;
  const stringsAt = at('strings');
  const strings = JSON.parse(buf.toString('utf8', stringsAt, buf.lastIndexOf(']') + 1)) as string[];
  return {
    nodeFields: meta['node_fields'] as string[],
    nodeTypes: (meta['node_types'] as string[][])[0]!,
    edgeFields: meta['edge_fields'] as string[],
    edgeTypes: (meta['edge_types'] as string[][])[0]!,
    nodes: numbers(buf, nodesAt),
    edges: numbers(buf, at('edges')),
    strings,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [beforeFile, afterFile, perArg] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    console.error('usage: memory-heap.ts <before.heapsnapshot> <after.heapsnapshot> [pods]');
    process.exit(2);
  }
  const per = Number(perArg ?? 1) || 1;
  const total = (m: Map<string, KindTotal>) => [...m.values()].reduce((a, t) => a + t.bytes, 0);
  const before = summarize(readHeapSnapshot(beforeFile));
  const after = summarize(readHeapSnapshot(afterFile));
  const grown = total(after) - total(before);
  console.log(
    `heap ${(total(before) / 2 ** 20).toFixed(1)} → ${(total(after) / 2 ** 20).toFixed(1)} MiB ` +
      `(+${(grown / 2 ** 20).toFixed(1)} MiB, ${(grown / per / 1024).toFixed(2)} KiB per ${per === 1 ? 'snapshot' : 'pod'})`,
  );
  for (const g of growth(before, after).slice(0, 40)) {
    console.log(
      `${(g.bytes / per / 1024).toFixed(2).padStart(9)} KiB ${String(g.count).padStart(9)}× ${g.kind}  ` +
        `← ${g.referrers.map(([v, n]) => `${v} ${n}`).join(', ')}`,
    );
  }
}
