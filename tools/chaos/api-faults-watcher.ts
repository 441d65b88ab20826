// Which of the watcher's API requests the fault-injecting proxy (api-proxy.ts, `watcher` mode) breaks, and how. The
// watcher is the only process that watches the API server (docs/architecture.md, "Data path"): its requests are a
// paged list and a long watch per mirrored kind, its Lease, and an Event now and then. Pure: a request and a random
// source in, a decision out. Faults, on lists and watches only (the Lease and Events are spared):
// - `drop-watch`: the watch is forwarded, then its socket is closed after `afterEvents` events (or `afterMs`, whichever
//   comes first), half the time in the middle of the next event's line;
// - `end-watch`: the same, but the response ends cleanly at an event boundary (as the API server's own timeout does);
// - `410`: a watch re-established after an earlier watch of the same collection is answered as the API server answers
//   a resourceVersion it no longer holds: 200, one ERROR event whose Status is 410 Expired, end of stream (the
//   watcher must list again);
// - `429` (Retry-After 1) and `500`, before the request reaches the API server;
// - `delay`: the request is held `ms`, then forwarded.
import { isLease, isWatch, type ApiRequest } from './api-faults.js';

export const WATCHER_FAULT_KINDS = ['drop-watch', 'end-watch', '410', '429', '500', 'delay'] as const;
export type WatcherFaultKind = (typeof WATCHER_FAULT_KINDS)[number];

export type WatcherFault =
  | { kind: 'drop-watch'; afterEvents: number; afterMs: number; midEvent: boolean }
  | { kind: 'end-watch'; afterEvents: number; afterMs: number }
  | { kind: '410' | '429' | '500' }
  | { kind: 'delay'; ms: number };

export interface WatcherRequest extends ApiRequest {
  /** The previous request of this collection was a watch too (a watch resumed, not the one after a list). */
  reestablish: boolean;
}

/** The path without its query: the collection a list or watch reads. */
export const collectionOf = (path: string): string => path.split('?')[0] ?? path;

const between = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/** The fault for one of the watcher's requests, or undefined: with probability `rate`, on lists and watches only. */
export function decideWatcherFault(
  rand: () => number,
  r: WatcherRequest,
  rate: number,
): WatcherFault | undefined {
  if (r.method !== 'GET' || isLease(r) || rand() >= rate) return undefined;
  const kinds: WatcherFaultKind[] = isWatch(r)
    ? ['drop-watch', 'end-watch', ...(r.reestablish ? (['410'] as const) : []), '429', '500', 'delay']
    : ['429', '500', 'delay'];
  const kind = kinds[Math.floor(rand() * kinds.length)] ?? 'delay';
  switch (kind) {
    case 'drop-watch':
      return {
        kind,
        afterEvents: between(rand, 1, 30),
        afterMs: between(rand, 1000, 20_000),
        midEvent: rand() < 0.5,
      };
    case 'end-watch':
      return { kind, afterEvents: between(rand, 1, 30), afterMs: between(rand, 1000, 20_000) };
    case 'delay':
      return { kind, ms: between(rand, 500, 5000) };
    default:
      return { kind };
  }
}

/**
 * The one line the API server sends on a watch from a resourceVersion it no longer holds (then it ends the stream):
 * an ERROR event whose object is a Status 410 Expired.
 */
export function goneEventLine(resourceVersion: string): string {
  return (
    JSON.stringify({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${resourceVersion || '0'} (injected by the chaos suite)`,
        reason: 'Expired',
        code: 410,
      },
    }) + '\n'
  );
}

/** The `resourceVersion` query parameter of a request path, or ''. */
export function resourceVersionOf(path: string): string {
  return new URLSearchParams(path.split('?')[1] ?? '').get('resourceVersion') ?? '';
}

/**
 * Where to cut a watch stream: given the bytes forwarded so far in this chunk and the events (newline-terminated lines)
 * already forwarded, the length of `chunk` to forward before the cut, or undefined when the cut is not in this chunk.
 * `midEvent`: the cut falls in the middle of the event after the last one forwarded (if the chunk holds part of it).
 */
export function cutPoint(
  chunk: Uint8Array,
  eventsBefore: number,
  afterEvents: number,
  midEvent: boolean,
): number | undefined {
  let events = eventsBefore;
  for (let i = 0; i < chunk.length; i++) {
    if (chunk[i] !== 0x0a) continue;
    events++;
    if (events < afterEvents) continue;
    const end = i + 1;
    if (!midEvent) return end;
    const next = chunk.indexOf(0x0a, end);
    const rest = (next === -1 ? chunk.length : next) - end;
    return end + Math.floor(rest / 2);
  }
  return undefined;
}

/** Newline-terminated lines in `chunk`. */
export function eventsIn(chunk: Uint8Array): number {
  let n = 0;
  for (const b of chunk) if (b === 0x0a) n++;
  return n;
}
