// What ListWatcher (list-watch.ts) does after a watch request ends, as client-go's reflector
// (k8s.io/client-go/tools/cache/reflector.go, the informer docs/architecture.md compares it with) decides it: a
// resourceVersion stays good until the API server says it is too old (410), so only a 410 costs a list; a broken
// stream resumes at once, a throttled or failing API server is waited for and watched again from the same version.

/** How one watch request ended. */
export type WatchEnding =
  /** The stream ended: the server's timeout, the idle timer, or a connection closed or reset mid-stream. */
  | { kind: 'stream-ended'; events: number; durationMs: number }
  /** The watch request got no 200: `status` is its HTTP status, 0 when no response came (refused, reset, timeout). */
  | { kind: 'refused'; status: number; retryAfterSeconds?: number }
  /** The stream carried an ERROR event (a Status) with this code, and ended. */
  | { kind: 'error-event'; code: number };

export type AfterWatch =
  /** Watch again from the last resourceVersion seen, now. */
  | { action: 'resume' }
  /** Wait `delayMs`, then watch again from the last resourceVersion seen. */
  | { action: 'backoff-resume'; delayMs: number }
  /** Wait `delayMs`, then list again (the version is too old, or the watch failed in a way a retry will not cure). */
  | { action: 'relist'; delayMs: number };

/** The first delay; it doubles while failures follow each other, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 30_000;
/** A Retry-After longer than this is not waited for in full: the watch is tried again after this. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** A stream that ends this fast with no event is treated as a failure (waited for), not as a normal end. */
export const SHORT_WATCH_MS = 1000;

export function nextBackoffMs(backoffMs: number): number {
  return Math.min(backoffMs * 2, MAX_BACKOFF_MS);
}

/** The wait before the next try: the server's Retry-After when it gave one (capped), else the back-off. */
export function retryDelayMs(backoffMs: number, retryAfterSeconds?: number): number {
  return retryAfterSeconds !== undefined && retryAfterSeconds > 0
    ? Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS)
    : backoffMs;
}

/** 429 TooManyRequests, any 5xx, or no response at all: the API server is busy or restarting; wait and retry. */
function transient(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/** After a watch request ended this way, with the current back-off: resume, wait and resume, or list again. */
export function afterWatch(ending: WatchEnding, backoffMs: number): AfterWatch {
  switch (ending.kind) {
    case 'stream-ended':
      // a server (or a proxy) that closes every watch at once would otherwise be asked again in a tight loop
      if (ending.events === 0 && ending.durationMs < SHORT_WATCH_MS) return { action: 'backoff-resume', delayMs: backoffMs };
      return { action: 'resume' };
    case 'refused':
      if (ending.status === 410) return { action: 'relist', delayMs: 0 };
      if (transient(ending.status)) {
        return { action: 'backoff-resume', delayMs: retryDelayMs(backoffMs, ending.retryAfterSeconds) };
      }
      // 400, 401, 403, 404, …: list again after the back-off, as the reflector's run loop does
      return { action: 'relist', delayMs: backoffMs };
    case 'error-event':
      if (ending.code === 410) return { action: 'relist', delayMs: 0 };
      if (transient(ending.code)) return { action: 'backoff-resume', delayMs: backoffMs };
      return { action: 'relist', delayMs: backoffMs };
  }
}
