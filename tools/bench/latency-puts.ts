// Benchmark 2b: the watcher's put stage alone, without the API server. Events arrive at a target rate, handed over
// one after another as ListWatcher hands them to KindMirror, and are written into a mirror bucket of the run's
// nats-server either one at a time (each handler awaits its put: the watcher before ADR 0052) or through the
// KeyedPipeline (each handler awaits admission only: the watcher now). The time from an event's arrival to its put's
// acknowledgement is what the watcher adds before a cache can see the change.
import { randomBytes } from 'node:crypto';
import {
  bucketName,
  connectBus,
  KeyedPipeline,
  MirrorWriter,
  PUT_WINDOW,
  type Bus,
  type KindRef,
  type KubeObject,
} from '@regatta/bus';
import { fmt, nowMs, sleep, summarize, table, type Summary } from './common.js';

export type PutMode = 'one at a time' | 'pipelined';

export interface PutStageRow {
  rate: number;
  mode: PutMode;
  /** Events acknowledged per second, from the first arrival to the last acknowledgement. */
  achieved: number;
  /** Arrival → put acknowledged (ms). */
  wait: Summary;
  /** Most puts in flight at once. */
  peakInFlight: number;
}

export interface PutStageOptions {
  nats: string;
  prefix: string;
  rates: number[];
  durationMs: number;
  /** Objects the events are spread over, round-robin (as the latency writer's ConfigMaps). */
  keys: number;
}

/** One object version the size of the benchmark's ConfigMaps as mirrored. */
function configMap(i: number, keys: number): KubeObject {
  return {
    metadata: {
      namespace: 'bench-latency',
      name: `cm-${i % keys}`,
      uid: `00000000-0000-0000-0000-${String(i % keys).padStart(12, '0')}`,
      resourceVersion: String(i + 1),
      creationTimestamp: '2026-12-03T00:00:00Z',
    },
    data: { t: (i * 1.001).toFixed(3), phase: 'puts' },
  } as KubeObject;
}

async function run(bus: Bus, mode: PutMode, rate: number, o: PutStageOptions): Promise<PutStageRow> {
  const kind: KindRef = {
    group: 'bench.regatta.dev',
    version: 'v1',
    kind: 'PutStage',
    plural: `puts${randomBytes(3).toString('hex')}`,
    namespaced: true,
  };
  const writer = await MirrorWriter.open(bus, kind);
  const pipeline = new KeyedPipeline(PUT_WINDOW);
  let waits: number[] = [];
  let inFlight = 0;
  let peak = 0;
  let lastAck = 0;
  const put = async (obj: KubeObject, arrival: number) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await writer.put(obj, Date.now());
    inFlight--;
    lastAck = nowMs();
    waits.push(lastAck - arrival);
  };
  // the handler ListWatcher awaits before handing over the next event
  const handle =
    mode === 'one at a time'
      ? (obj: KubeObject, arrival: number) => put(obj, arrival)
      : async (obj: KubeObject, arrival: number) => {
          await pipeline.submit(obj.metadata!.name!, () => put(obj, arrival));
        };
  let issued = 0;
  /** Events at `rate` for `durationMs`, each handed over once the previous handler returned; returns the start. */
  const phase = async (durationMs: number): Promise<number> => {
    let chain: Promise<void> = Promise.resolve();
    const start = nowMs();
    const first = issued;
    while (nowMs() - start < durationMs) {
      const due = first + Math.floor(((nowMs() - start) / 1000) * rate) + 1;
      for (; issued < due; issued++) {
        const obj = configMap(issued, o.keys);
        const arrival = nowMs();
        chain = chain.then(() => handle(obj, arrival));
      }
      await sleep(1);
    }
    await chain;
    await pipeline.idle();
    return start;
  };
  // a warm-up, discarded (the bucket's first writes, the JIT)
  await phase(1000);
  waits = [];
  peak = 0;
  const start = await phase(o.durationMs);
  await (await bus.kvm.open(bus.prefix + bucketName(kind))).destroy();
  return {
    rate,
    mode,
    achieved: waits.length / ((lastAck - start) / 1000),
    wait: summarize(waits),
    peakInFlight: peak,
  };
}

export async function benchPutStage(o: PutStageOptions): Promise<PutStageRow[]> {
  const bus = await connectBus({ servers: o.nats, name: 'bench-put-stage', prefix: o.prefix });
  try {
    const rows: PutStageRow[] = [];
    for (const rate of o.rates) {
      // alternate which mode goes first, so neither always meets the machine's state after the other
      const modes: PutMode[] =
        rows.length % 4 === 0 ? ['one at a time', 'pipelined'] : ['pipelined', 'one at a time'];
      for (const mode of modes) rows.push(await run(bus, mode, rate, o));
    }
    return rows;
  } finally {
    await bus.close();
  }
}

export function reportPutStage(rows: PutStageRow[]): string {
  return [
    "The watcher's put stage alone (2b): events at a target rate into a mirror bucket of the same nats-server,",
    'each put awaited before the next event (before ADR 0052) or pipelined, 64 in flight, in order per object;',
    'arrival → put acknowledged (ms), the part of the bus hop spent in the watcher',
    '',
    table([
      ['target/s', 'mode', 'achieved/s', 'p50', 'p90', 'p99', 'max', 'peak in flight'],
      ...rows.map((r) => [
        r.rate,
        r.mode,
        fmt(r.achieved, 0),
        fmt(r.wait.p50),
        fmt(r.wait.p90),
        fmt(r.wait.p99),
        fmt(r.wait.max),
        r.peakInFlight,
      ]),
    ]),
  ].join('\n');
}
