import { Watch } from '@kubernetes/client-node';
import type { KubeClient } from './client.js';
import type { KubeObject } from './meta.js';
import { withUserAgent } from './watch-config.js';

/** The resource a ListWatcher follows. */
export interface WatchedResource {
  /** '' for the core group */
  group: string;
  version: string;
  kind: string;
  plural: string;
}

export interface ListWatchHandlers<T extends KubeObject> {
  /**
   * A complete list (first start, after 410 Gone, and every relist interval): the whole truth. `receivedAt`: when
   * its last page arrived (ms since epoch).
   */
  onList(objects: T[], resourceVersion: string, receivedAt: number): Promise<void>;
  /**
   * One object added or changed. A rejection concerns that object only: it goes to `onError` with the object
   * and the watch goes on (the handler owns any retry); it never ends the watch nor forces a relist.
   * `receivedAt`: when the watch event arrived (ms since epoch), earlier than the call when handlers queue up.
   */
  onUpsert(obj: T, receivedAt: number): Promise<void>;
  /** One object deleted; a rejection is reported like `onUpsert`'s. */
  onDelete(obj: T, receivedAt: number): Promise<void>;
  /**
   * Recoverable trouble: a failed list or watch (retried with backoff, `obj` absent), or a handler's rejection
   * for one object (`obj` set).
   */
  onError?(err: unknown, obj?: T): void;
}

export interface ListWatchOptions {
  /** Full relist this often, whatever the watch says. Default 10 min. */
  relistIntervalMs?: number;
  /** LIST page size. Default 500. */
  pageSize?: number;
}

/** Why one watch request ended. */
type WatchEnd = { expired: true } | { expired: false; resourceVersion: string };

/**
 * list + watch of one resource across all namespaces, as an informer's reflector does: list (paged),
 * then watch from the list's resourceVersion with bookmarks, resuming from the last seen version when
 * a watch ends, relisting on 410 Gone and on a timer. Handlers run strictly in event order.
 */
export class ListWatcher<T extends KubeObject = KubeObject> {
  private stopped = false;
  private abort?: AbortController;
  private loop?: Promise<void>;
  private readonly watch: Watch;

  constructor(
    private readonly client: KubeClient,
    readonly resource: WatchedResource,
    private readonly handlers: ListWatchHandlers<T>,
    private readonly options: ListWatchOptions = {},
  ) {
    // with the client's user agent, as its other requests (watch-config.ts)
    this.watch = new Watch(withUserAgent(client.kubeConfig, client.userAgent));
  }

  get apiVersion(): string {
    return this.resource.group ? `${this.resource.group}/${this.resource.version}` : this.resource.version;
  }

  get path(): string {
    const r = this.resource;
    return r.group ? `/apis/${r.group}/${r.version}/${r.plural}` : `/api/${r.version}/${r.plural}`;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    let backoffMs = 250;
    while (!this.stopped) {
      try {
        let rv = await this.list();
        backoffMs = 250;
        const relistAt = Date.now() + (this.options.relistIntervalMs ?? 600_000);
        while (!this.stopped && Date.now() < relistAt) {
          const end = await this.watchOnce(rv, relistAt - Date.now());
          if (end.expired) break;
          rv = end.resourceVersion;
        }
      } catch (err) {
        if (this.stopped) break;
        this.handlers.onError?.(err);
        await new Promise((r) => setTimeout(r, backoffMs));
        backoffMs = Math.min(backoffMs * 2, 30_000);
      }
    }
  }

  private async list(): Promise<string> {
    const list = await this.client.listAll<T>(
      { apiVersion: this.apiVersion, kind: this.resource.kind },
      { pageSize: this.options.pageSize ?? 500 },
    );
    const rv = list.metadata.resourceVersion ?? '';
    await this.handlers.onList(list.items, rv, Date.now());
    return rv;
  }

  /** Runs one watch request until the server or the idle timeout ends it. */
  private watchOnce(resourceVersion: string, maxMs: number): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve, reject) => {
      let rv = resourceVersion;
      let expired = false;
      let chain: Promise<void> = Promise.resolve();
      const timeoutSeconds = Math.max(1, Math.min(300, Math.ceil(maxMs / 1000)));
      const done = (err: unknown) => {
        // let queued handlers finish before reporting where the stream ended
        void chain.then(() => {
          if (expired || isGone(err)) resolve({ expired: true });
          else if (err && !isNormalEnd(err) && !this.stopped) reject(err);
          else resolve({ expired: false, resourceVersion: rv });
        }, reject);
      };
      this.watch
        .watch(
          this.path,
          { resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
          (phase: string, obj: T & { code?: number; kind?: string }) => {
            if (phase === 'ERROR') {
              if (obj?.code === 410) expired = true;
              return;
            }
            const objRv = obj?.metadata?.resourceVersion;
            if (objRv) rv = objRv;
            if (phase === 'BOOKMARK') return;
            const receivedAt = Date.now();
            const full = { ...obj, apiVersion: this.apiVersion, kind: this.resource.kind } as T;
            // one object's failure is that object's: reported, and the stream goes on (docs/adr/0008)
            chain = chain
              .then(() =>
                phase === 'DELETED' ? this.handlers.onDelete(full, receivedAt) : this.handlers.onUpsert(full, receivedAt),
              )
              .catch((err: unknown) => this.handlers.onError?.(err, full));
          },
          done,
        )
        .then((ac) => {
          this.abort = ac;
          // stopped while this request was being opened: the abort above found no controller for it
          if (this.stopped) ac.abort();
        }, reject);
    });
  }
}

function isGone(err: unknown): boolean {
  return (err as { statusCode?: number; code?: number } | null)?.code === 410;
}

/** The server closed the stream, or our idle timer did: both mean "watch again from the last version". */
function isNormalEnd(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}
