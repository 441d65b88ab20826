import { keyOf, MirrorWriter, resourceId, type Bus, type KindRef, type KubeObject } from '@regatta/bus';
import { ListWatcher, type KubeClient } from '@regatta/kube';

export interface MirrorStats {
  lists: number;
  puts: number;
  deletes: number;
  errors: number;
}

/** One kind: list + watch from the API server into its mirror bucket. */
export class KindMirror {
  private constructor(
    readonly kind: KindRef,
    private readonly lw: ListWatcher,
    readonly stats: MirrorStats,
  ) {}

  static async start(
    client: KubeClient,
    bus: Bus,
    kind: KindRef,
    o: { onError: (err: unknown, kind: string) => void; relistIntervalMs?: number },
  ): Promise<KindMirror> {
    const writer = await MirrorWriter.open(bus, kind);
    const stats: MirrorStats = { lists: 0, puts: 0, deletes: 0, errors: 0 };
    const count = (k: keyof MirrorStats) => stats[k]++;
    const lw = new ListWatcher(
      client,
      kind,
      {
        onList: async (objects) => {
          count('lists');
          const live = new Set<string>();
          for (const o of objects) {
            live.add(keyOf(o as KubeObject));
            if (await writer.put(o as KubeObject)) count('puts');
          }
          for (const _ of await writer.deleteAllExcept(live)) count('deletes');
        },
        onUpsert: async (o) => {
          if (await writer.put(o as KubeObject)) count('puts');
        },
        onDelete: async (o) => {
          await writer.delete(keyOf(o as KubeObject));
          count('deletes');
        },
        onError: (err) => {
          count('errors');
          o.onError(err, resourceId(kind));
        },
      },
      o.relistIntervalMs ? { relistIntervalMs: o.relistIntervalMs } : {},
    );
    lw.start();
    return new KindMirror(kind, lw, stats);
  }

  stop(): Promise<void> {
    return this.lw.stop();
  }
}
