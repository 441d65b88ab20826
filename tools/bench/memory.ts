// Benchmark 3: memory per cached pod in a controller holding N pods. A child writes N realistic pods
// (variants of a Running pod the node simulator produced) into a mirror bucket with MirrorWriter;
// then fresh children started with --expose-gc measure heap used after gc before and after (a) a bus
// Cache syncs them, once plain and once with each program's declared pod projection, and (b) the same
// pods are parsed into a Map, and divide by N.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Child, kib, table } from './common.js';
import { PROJECTING_PROGRAMS, PROJECTING_PROGRAM_NAMES, type ProjectingProgram } from './memory-programs.js';
import type { Pod } from '@regatta/api';

interface Mem {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}
interface Measured {
  held: number;
  expect: number;
  syncMs: number;
  before: Mem;
  after: Mem;
}
export interface MemoryResult {
  count: number;
  bytes: { jsonBytesWithManagedFields: number; jsonBytes: number; envelopeBytes: number };
  cache: Measured;
  /** The bus Cache with each program's declared pod projection and shared strings (ADR 0060), in table order. */
  programs: { program: ProjectingProgram; measured: Measured }[];
  map: Measured;
  /** What-ifs: the same Map with repeated string values shared, or with pods reduced to what controllers read. */
  interned: Measured;
  projected: Measured;
  projectedInterned: Measured;
}

interface Ctx {
  nats: string;
  prefix: string;
  dir: string;
  template: Pod;
  count: number;
  log: (line: string) => void;
}

export async function benchMemory(ctx: Ctx): Promise<MemoryResult> {
  const templateFile = join(ctx.dir, 'pod-template.json');
  const jsonlFile = join(ctx.dir, 'pods.jsonl');
  await writeFile(templateFile, JSON.stringify(ctx.template, null, 2));

  const writer = Child.start('memory writer', './memory-writer.ts');
  let bytes: MemoryResult['bytes'];
  try {
    const t0 = Date.now();
    bytes = await writer.call('write', {
      nats: ctx.nats,
      prefix: ctx.prefix,
      templateFile,
      count: ctx.count,
      jsonlFile,
    });
    ctx.log(`wrote ${ctx.count} pods into the mirror bucket in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await writer.stop();
  }

  const measure = async (label: string, method: 'cache' | 'map', params: object): Promise<Measured> => {
    const c = Child.start(`memory ${label}`, './memory-measure.ts', ['--expose-gc']);
    try {
      const m = await c.call<Measured>(method, { ...params, expect: ctx.count });
      if (m.held !== ctx.count) throw new Error(`${label} holds ${m.held} pods, expected ${ctx.count}`);
      ctx.log(
        `${label}: ${m.held} pods, heap ${kib((m.after.heapUsed - m.before.heapUsed) / m.held)}/pod` +
          (method === 'cache' ? ` (synced in ${m.syncMs} ms)` : ''),
      );
      return m;
    } finally {
      await c.stop();
    }
  };
  const cache = await measure('bus Cache', 'cache', { nats: ctx.nats, prefix: ctx.prefix });
  const programs: MemoryResult['programs'] = [];
  for (const program of PROJECTING_PROGRAM_NAMES) {
    const measured = await measure(`bus Cache, ${PROJECTING_PROGRAMS[program].label} projection`, 'cache', {
      nats: ctx.nats,
      prefix: ctx.prefix,
      project: program,
    });
    programs.push({ program, measured });
  }
  const map = await measure('Map of parsed JSON', 'map', { jsonlFile, shape: 'parsed' });
  const interned = await measure('Map, strings shared', 'map', { jsonlFile, shape: 'interned' });
  const projected = await measure('Map, projected pods', 'map', { jsonlFile, shape: 'projected' });
  const projectedInterned = await measure('Map, projected pods, strings shared', 'map', {
    jsonlFile,
    shape: 'projected+interned',
  });
  return { count: ctx.count, bytes, cache, programs, map, interned, projected, projectedInterned };
}

export function reportMemory(r: MemoryResult): string {
  const per = (m: Measured, k: keyof Mem) => (m.after[k] - m.before[k]) / r.count;
  const row = (label: string, m: Measured) => [
    label,
    kib(per(m, 'heapUsed')),
    kib(per(m, 'external')),
    (per(m, 'heapUsed') / per(r.map, 'heapUsed')).toFixed(2),
    (per(m, 'heapUsed') / r.bytes.jsonBytes).toFixed(2),
  ];
  return [
    `Memory per cached pod, ${r.count} pods held (V8 heap used after full GC, after − before, ÷ pods)`,
    '',
    table([
      ['holder', 'heap/pod', 'external/pod', 'ratio to Map', 'ratio to JSON bytes'],
      row('regatta bus Cache', r.cache),
      ...r.programs.map(({ program, measured }) =>
        row(`regatta bus Cache, the ${PROJECTING_PROGRAMS[program].label} program's projection`, measured),
      ),
      row('parsed JSON in a Map (baseline)', r.map),
      row('what-if: Map, repeated strings shared', r.interned),
      row('what-if: Map, pods projected to the fields controllers read', r.projected),
      row('what-if: Map, projected and strings shared', r.projectedInterned),
    ]),
    '',
    `JSON per pod: ${kib(r.bytes.jsonBytes)} as mirrored (no managedFields), ` +
      `${kib(r.bytes.jsonBytesWithManagedFields)} as the API server serves it, ` +
      `${kib(r.bytes.envelopeBytes)} per KV value (envelope); cache sync took ${r.cache.syncMs} ms`,
  ].join('\n');
}
