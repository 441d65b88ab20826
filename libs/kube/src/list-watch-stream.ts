// One watch request of ListWatcher (list-watch.ts): opened with the kubeconfig's credentials, read line by line, and
// reported as a WatchEnding (list-watch-decision.ts) with the error behind it. client-node's Watch is not used: it
// keeps neither the status body nor the Retry-After header of a refused watch, which the decision needs.
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig } from '@kubernetes/client-node';
import { kubeErrorFromResponse, toKubeApiError, type KubeApiError, type Status } from './errors.js';
import type { WatchEnding } from './list-watch-decision.js';

export interface WatchRequest {
  /** Credentials (and user agent, watch-config.ts) for the request. */
  kubeConfig: KubeConfig;
  /** The full URL, query included. */
  url: string;
  /** Aborted by the owner's stop: the request ends, reported as `stopped`. */
  signal: AbortSignal;
  /** No byte for this long ends the stream as a normal end (a server's bookmarks keep a healthy watch busy). */
  idleMs: number;
  /** Each event but ERROR, in order, as it arrives. */
  onEvent(type: string, object: unknown): void;
}

export type WatchResult =
  | { stopped: true }
  | { stopped: false; ending: WatchEnding; /** absent when the stream ended normally */ error?: KubeApiError };

const http = new IsomorphicFetchHttpLibrary();

export async function watchRequest(w: WatchRequest): Promise<WatchResult> {
  const started = Date.now();
  const ac = new AbortController();
  const stop = () => ac.abort();
  w.signal.addEventListener('abort', stop, { once: true });
  let idle: NodeJS.Timeout | undefined;
  let idledOut = false;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      idledOut = true;
      ac.abort();
    }, w.idleMs);
  };
  const ctx = new RequestContext(w.url, HttpMethod.GET);
  ctx.setHeaderParam('Accept', 'application/json');
  ctx.setSignal(ac.signal);
  let opened = false;
  let events = 0;
  const ended = (error?: KubeApiError): WatchResult => ({
    stopped: false,
    ending: { kind: 'stream-ended', events, durationMs: Date.now() - started },
    error,
  });
  try {
    await w.kubeConfig.applySecurityAuthentication(ctx);
    if (w.signal.aborted) return { stopped: true };
    touch();
    const res = await http.send(ctx).toPromise();
    if (res.httpStatusCode !== 200) {
      const error = kubeErrorFromResponse(res.httpStatusCode, await res.body.text(), res.headers);
      return {
        stopped: false,
        ending: { kind: 'refused', status: res.httpStatusCode, retryAfterSeconds: error.retryAfterSeconds },
        error,
      };
    }
    opened = true;
    const body = res.body.stream() as AsyncIterable<Uint8Array> | undefined;
    if (!body) return ended();
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of body) {
      touch();
      buffered += decoder.decode(chunk, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line === '') continue;
        const event = JSON.parse(line) as { type?: string; object?: unknown };
        if (event.type === 'ERROR') {
          const status = (event.object ?? {}) as Status;
          const code = typeof status.code === 'number' ? status.code : 500;
          return { stopped: false, ending: { kind: 'error-event', code }, error: kubeErrorFromResponse(code, status) };
        }
        events++;
        w.onEvent(event.type ?? '', event.object);
      }
    }
    // a last line without its newline was cut mid-event: not an event; the next watch brings it again
    return ended();
  } catch (err) {
    if (w.signal.aborted) return { stopped: true };
    if (idledOut) return ended();
    if (!opened) return { stopped: false, ending: { kind: 'refused', status: 0 }, error: toKubeApiError(err) };
    return ended(toKubeApiError(err));
  } finally {
    clearTimeout(idle);
    w.signal.removeEventListener('abort', stop);
    ac.abort();
    // client-node builds a dispatcher for every request it authenticates (client.ts): this one served its watch
    void ctx
      .getDispatcher()
      ?.destroy()
      .catch(() => undefined);
  }
}
