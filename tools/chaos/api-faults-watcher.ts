// Which of the watcher's API requests the fault-injecting proxy (api-proxy.ts, `watcher` mode) breaks, and how. The
// watcher is the only process that watches the API server (docs/architecture.md, "Data path"): its requests are a
// paged list and a long watch per mirrored kind, its Lease, and an Event now and then. Pure: a request and a random
// source in, a decision out. Faults, on lists and watches only (the Lease and Events are spared), with a fault `rate`:
// - a watch re-established after an earlier watch of the same collection (not the one after a list) is answered, with
//   probability `rate`, as the API server answers a resourceVersion it no longer holds: 200, one ERROR event whose
//   Status is 410 Expired, end of stream (the watcher must list again);
// - with probability `rate`, a list or a watch is answered `429` (Retry-After 1) or `500` before it reaches the API
//   server, or is held (`delay`) 0.5–5 s and then forwarded;
// - every other watch is forwarded and cut after 1–60 events or 2–60 s, whichever comes first (a watch lives long:
//   a fault decided per request would seldom meet one): `drop-watch` closes its socket, half the time in the middle of
//   an event's line; `end-watch` ends the response cleanly at an event boundary, as the API server's own timeout does.
import { isLease, isWatch, type ApiRequest } from './api-faults.js';

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

/** The fault for one of the watcher's requests, or undefined (none at rate 0, none but on lists and watches). */
export function decideWatcherFault(
  rand: () => number,
  r: WatcherRequest,
  rate: number,
): WatcherFault | undefined {
  if (r.method !== 'GET' || isLease(r) || rate <= 0) return undefined;
  const watch = isWatch(r);
  if (watch && r.reestablish && rand() < rate) return { kind: '410' };
  if (rand() < rate) {
    const kinds = ['429', '500', 'delay'] as const;
    const kind = kinds[Math.floor(rand() * kinds.length)] ?? 'delay';
    return kind === 'delay' ? { kind, ms: between(rand, 500, 5000) } : { kind };
  }
  if (!watch) return undefined;
  const afterEvents = between(rand, 1, 60);
  const afterMs = between(rand, 2000, 60_000);
  return rand() < 0.5
    ? { kind: 'drop-watch', afterEvents, afterMs, midEvent: rand() < 0.5 }
    : { kind: 'end-watch', afterEvents, afterMs };
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
