import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from './client.js';
import { KubeApiError } from './errors.js';
import {
  FIRST_BACKOFF_MS,
  afterWatch,
  nextBackoffMs,
  retryDelayMs,
  type WatchEnding,
} from './list-watch-decision.js';
import { watchRequest } from './list-watch-stream.js';
import type { KubeObject } from './meta.js';
import { sleep } from './retry.js';
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
   * A complete list (first start, after 410 Gone or a watch refused for good, e.g. 403, and every relist interval):
   * the whole truth. `receivedAt`: when its last page arrived (ms since epoch).
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
   * Recoverable trouble: a failed list, a watch refused or broken (retried as list-watch-decision.ts decides, `obj`
   * absent; a KubeApiError), or a handler's rejection for one object (`obj` set).
   */
  onError?(err: unknown, obj?: T): void;
}

export interface ListWatchOptions {
  /** Full relist this often, whatever the watch says. Default 10 min. */
  relistIntervalMs?: number;
  /** LIST page size. Default 500. */
  pageSize?: number;
}

/**
 * list + watch of one resource across all namespaces, as client-go's reflector does
 * (k8s.io/client-go/tools/cache/reflector.go): list (paged), then watch from the list's resourceVersion with
 * bookmarks. After a watch ends, list-watch-decision.ts decides: a stream that ended or broke is watched again from
 * the last version seen (bookmarks included); a watch answered 429, 5xx or not at all is watched again from the same
 * version after a back-off (the server's Retry-After when it gave one); only 410 Gone (a status or an ERROR event)
 * and the relist timer list again. Handlers run strictly in event order.
 */
export class ListWatcher<T extends KubeObject = KubeObject> {
  private stopped = false;
  private readonly stopping = new AbortController();
  private loop?: Promise<void>;
  private readonly kubeConfig: KubeConfig;

  constructor(
    private readonly client: KubeClient,
    readonly resource: WatchedResource,
    private readonly handlers: ListWatchHandlers<T>,
    private readonly options: ListWatchOptions = {},
  ) {
    // with the client's user agent, as its other requests (watch-config.ts)
    this.kubeConfig = withUserAgent(client.kubeConfig, client.userAgent);
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
    this.stopping.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    let backoffMs = FIRST_BACKOFF_MS;
    while (!this.stopped) {
      let rv: string;
      try {
        rv = await this.list();
      } catch (err) {
        if (this.stopped) break;
        this.handlers.onError?.(err);
        const retryAfter = err instanceof KubeApiError ? err.retryAfterSeconds : undefined;
        await sleep(retryDelayMs(backoffMs, retryAfter), this.stopping.signal);
        backoffMs = nextBackoffMs(backoffMs);
        continue;
      }
      // the back-off is reset by a watch that worked, not by the list: a watch refused for good after every list
      // (403, 404) must not make a list every 250 ms
      try {
        backoffMs = await this.watchUntilRelist(rv, backoffMs);
      } catch (err) {
        // not a watch's failure (those are decided in watchUntilRelist) but a handler's or this code's: list again
        if (this.stopped) break;
        this.handlers.onError?.(err);
        await sleep(backoffMs, this.stopping.signal);
        backoffMs = nextBackoffMs(backoffMs);
      }
    }
  }

  /** Watches from `rv` on until a relist is due (410, a watch refused for good, the relist timer) or the stop. */
  private async watchUntilRelist(rv: string, backoffMs: number): Promise<number> {
    const relistAt = Date.now() + (this.options.relistIntervalMs ?? 600_000);
    while (!this.stopped && Date.now() < relistAt) {
      const end = await this.watchOnce(rv, relistAt - Date.now());
      if (end.stopped) break;
      rv = end.resourceVersion;
      if (end.error) this.handlers.onError?.(end.error);
      const next = afterWatch(end.ending, backoffMs);
      if (next.action === 'resume') {
        backoffMs = FIRST_BACKOFF_MS;
        continue;
      }
      await sleep(next.delayMs, this.stopping.signal);
      if (next.delayMs > 0) backoffMs = nextBackoffMs(backoffMs);
      if (next.action === 'relist') break;
    }
    return backoffMs;
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

  /**
   * Runs one watch request until it ends, then lets the queued handlers finish before reporting how it ended and the
   * last resourceVersion seen.
   */
  private async watchOnce(
    resourceVersion: string,
    maxMs: number,
  ): Promise<{ stopped: true } | { stopped: false; resourceVersion: string; ending: WatchEnding; error?: unknown }> {
    let rv = resourceVersion;
    let chain: Promise<void> = Promise.resolve();
    const timeoutSeconds = Math.max(1, Math.min(300, Math.ceil(maxMs / 1000)));
    const query = new URLSearchParams({
      watch: 'true',
      resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeoutSeconds),
    });
    const result = await watchRequest({
      kubeConfig: this.kubeConfig,
      url: `${this.client.serverUrl}${this.path}?${query.toString()}`,
      signal: this.stopping.signal,
      idleMs: IDLE_MS,
      onEvent: (phase, o) => {
        const obj = o as T;
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
    });
    await chain;
    if (result.stopped) return result;
    return { stopped: false, resourceVersion: rv, ending: result.ending, error: result.error };
  }
}

/** A watch that sent nothing (not even a bookmark) for this long is ended and watched again (client-node's figure). */
const IDLE_MS = 30_000;
