// Benchmark 3, measuring process (started with --expose-gc, one per measurement): V8 heap used after
// full collections before and after N pods are held, either by a Regatta bus Cache synced from the
// mirror bucket, or as parsed JSON objects in a Map keyed namespace/name (what a plain informer's
// store holds), or, as what-ifs for the Cache's design, the same Map with repeated strings shared or
// with every pod reduced to the fields controllers read; and the bus Cache with a program's declared
// projection (docs/adr/0060-pod-projection.md; the programs in memory-programs.ts).
import { readFile } from 'node:fs/promises';
import { KINDS } from '@regatta/api';
import { Cache, connectBus, projection } from '@regatta/bus';
import { serve, sleep } from './common.js';
import { PROJECTING_PROGRAMS, type ProjectingProgram } from './memory-programs.js';

const gc = (globalThis as { gc?: () => void }).gc;

interface Mem {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

async function settledMemory(): Promise<Mem> {
  if (!gc) throw new Error('start this process with --expose-gc');
  // a few full collections with turns of the event loop between them (finalizers, weak refs, timers)
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(50);
  }
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss };
}

// held until the process exits, so the measurement cannot collect what it measures
const keep: unknown[] = [];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Pod = { [k: string]: Json } & {
  metadata: { [k: string]: Json } & { name: string; namespace: string };
  spec?: { [k: string]: Json };
  status?: { [k: string]: Json };
};

/** One shared instance per distinct string value (V8's JSON.parse shares keys, not values). */
function interner(seen: Map<string, string>): (v: Json) => Json {
  const walk = (v: Json): Json => {
    if (typeof v === 'string') {
      const s = seen.get(v);
      if (s !== undefined) return s;
      seen.set(v, v);
      return v;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i]!);
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) v[k] = walk(v[k]!);
    }
    return v;
  };
  return walk;
}

const pick = (o: { [k: string]: Json } | undefined, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o?.[k] !== undefined).map((k) => [k, o![k]!]));
const pickEach = (a: Json | undefined, keys: string[]) =>
  Array.isArray(a) ? a.map((x) => pick(x as { [k: string]: Json }, keys)) : undefined;

/**
 * The fields workload controllers read from a pod: identity, labels, annotations, owners and deletion
 * in metadata; node, readiness gates and each container's name, image and resources in spec; phase,
 * conditions, IP and each container's readiness, restarts, image ID and state in status.
 */
function projectPod(p: Pod): Pod {
  const containers = pickEach(p.spec?.['containers'], ['name', 'image', 'resources']);
  return {
    apiVersion: p['apiVersion'] ?? null,
    kind: p['kind'] ?? null,
    metadata: pick(p.metadata, [
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'deletionTimestamp',
      'labels',
      'annotations',
      'ownerReferences',
      'finalizers',
    ]) as Pod['metadata'],
    spec: { ...pick(p.spec, ['nodeName', 'readinessGates']), ...(containers ? { containers } : {}) },
    status: {
      ...pick(p.status, ['phase', 'podIP']),
      conditions: pickEach(p.status?.['conditions'], ['type', 'status', 'lastTransitionTime']) ?? [],
      containerStatuses:
        pickEach(p.status?.['containerStatuses'], [
          'name',
          'ready',
          'started',
          'restartCount',
          'image',
          'imageID',
          'state',
        ]) ?? [],
    },
  };
}

type MapShape = 'parsed' | 'interned' | 'projected' | 'projected+interned';

serve({
  async cache(p: { nats: string; prefix: string; expect: number; project?: ProjectingProgram }) {
    const bus = await connectBus({ servers: p.nats, name: 'bench-memory-cache', prefix: p.prefix });
    const before = await settledMemory();
    const t0 = Date.now();
    // the projection as the program declares it (apps/<program> main.ts), its string table included
    const cache = new Cache(
      bus,
      KINDS.pods,
      p.project ? { transform: projection(PROJECTING_PROGRAMS[p.project].fields) } : {},
    );
    await cache.start();
    const syncMs = Date.now() - t0;
    keep.push(cache);
    await sleep(500); // let the watch's delivery buffers drain
    const after = await settledMemory();
    return { held: cache.size, expect: p.expect, syncMs, before, after };
  },

  async map(p: { jsonlFile: string; expect: number; shape: MapShape }) {
    const before = await settledMemory();
    const t0 = Date.now();
    const { store, internTable } = await load(p.jsonlFile, p.shape);
    const syncMs = Date.now() - t0;
    // a cache that shares strings keeps its table for the updates to come: it counts
    keep.push(store, internTable);
    const after = await settledMemory();
    return { held: store.size, expect: p.expect, syncMs, before, after };
  },
});

/**
 * Each object parsed from its own bytes, as an informer parses each watch event (slicing one big
 * string into lines would keep that string alive under the parsed values: V8 sliced strings).
 */
async function load(file: string, shape: MapShape) {
  const bytes = await readFile(file);
  const internTable = new Map<string, string>();
  const intern = shape.includes('interned') ? interner(internTable) : undefined;
  const store = new Map<string, Pod>();
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (end > start) {
      let obj = JSON.parse(bytes.toString('utf8', start, end)) as Pod;
      if (shape.startsWith('projected')) obj = projectPod(obj);
      if (intern) obj = intern(obj) as Pod;
      store.set(`${obj.metadata.namespace}/${obj.metadata.name}`, obj);
    }
    start = end + 1;
  }
  return { store, internTable };
}
