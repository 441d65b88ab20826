// client-node's ListWatch over raw JSON, restarted after errors (ListWatch stops on anything but a timeout/410).
import { ListWatch, Watch, type KubernetesObject } from '@kubernetes/client-node';
import type { KubeClient } from './kube-client.js';
import type { KubeList, ObjectMeta } from './types.js';

export interface InformerHandlers<T> {
  upsert(obj: T): void;
  remove(obj: T): void;
}

/**
 * client-node types the objects it parses as its V1 classes; they are the JSON the API server sent, in the simulator's
 * own shapes (types.ts): the one cast where the two cross.
 */
function fromWatch<T>(o: KubernetesObject): T {
  return o as unknown as T;
}

export class Informer<T extends { metadata: ObjectMeta }> {
  private readonly lw: ListWatch<KubernetesObject>;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay = 500;

  constructor(
    client: KubeClient,
    private readonly path: string,
    handlers: InformerHandlers<T>,
    private readonly log: (line: string) => void,
    opts: { fieldSelector?: string; labelSelector?: string } = {},
  ) {
    const list = async () => {
      const out: KubeList<T> = { metadata: {}, items: [] };
      let cont: string | undefined;
      do {
        const page = await client.get<KubeList<T>>(path, {
          limit: 500,
          continue: cont,
          fieldSelector: opts.fieldSelector,
          labelSelector: opts.labelSelector,
        });
        out.items.push(...(page.items ?? []));
        out.metadata = page.metadata;
        cont = page.metadata?.continue || undefined;
      } while (cont);
      return out;
    };
    this.lw = new ListWatch<KubernetesObject>(
      path,
      new Watch(client.watchConfig),
      list as never,
      false,
      opts.labelSelector,
      opts.fieldSelector,
    );
    this.lw.on('add', (o) => handlers.upsert(fromWatch<T>(o)));
    this.lw.on('update', (o) => {
      this.retryDelay = 500;
      handlers.upsert(fromWatch<T>(o));
    });
    this.lw.on('delete', (o) => handlers.remove(fromWatch<T>(o)));
    this.lw.on('error', (err) => {
      if (this.stopped) return;
      this.log(
        `watch ${this.path} failed (${String((err as Error)?.message ?? err)}); restarting in ${this.retryDelay} ms`,
      );
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (!this.stopped) this.lw.start().catch(() => undefined);
      }, this.retryDelay);
      this.retryTimer.unref();
      this.retryDelay = Math.min(this.retryDelay * 2, 10_000);
    });
  }

  /** Lists (calling `upsert` for every object) and starts watching. */
  async start(): Promise<void> {
    await this.lw.start();
  }

  get(name: string, namespace?: string): T | undefined {
    const o = this.lw.get(name, namespace);
    return o && fromWatch<T>(o);
  }

  list(namespace?: string): T[] {
    return this.lw.list(namespace).map((o) => fromWatch<T>(o));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.lw.stop();
  }
}
