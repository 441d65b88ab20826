// The watcher's side of the fault-injecting API proxy (api-proxy.ts, `watcher` mode): each request is forwarded or
// broken as api-faults-watcher.ts decides. A watch stream is forwarded chunk by chunk, counting its events, so it can
// be cut after a number of them: its socket closed (half the time in the middle of an event) or its response ended.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientRequest } from 'node:http';
import { isLease, isWatch, statusBody } from './api-faults.js';
import {
  collectionOf,
  cutPoint,
  decideWatcherFault,
  eventsIn,
  goneEventLine,
  resourceVersionOf,
} from './api-faults-watcher.js';

export type Forward = (
  req: IncomingMessage,
  body: Buffer,
  onResponse: (up: IncomingMessage) => void,
  onError: (e: Error) => void,
) => ClientRequest;

/** The request handler of the watcher's proxy; `injected` receives each fault as it takes effect. */
export function watcherHandler(o: {
  rand: () => number;
  rate: () => number;
  injected: string[];
  /** Counted: every GET of a collection that is not a Lease, a list (each page) or a watch. */
  requests: { lists: number; watches: number };
  forward: Forward;
}): (req: IncomingMessage, res: ServerResponse, body: Buffer) => void {
  /** collection → its last request was a watch */
  const lastWasWatch = new Map<string, boolean>();

  return (req, res, body) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const watch = isWatch({ method, path });
    const collection = collectionOf(path);
    const reestablish = watch && (lastWasWatch.get(collection) ?? false);
    if (method === 'GET') lastWasWatch.set(collection, watch);
    if (method === 'GET' && !isLease({ method, path })) o.requests[watch ? 'watches' : 'lists']++;
    const fault = decideWatcherFault(o.rand, { method, path, reestablish }, o.rate());

    const badGateway = (err: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`chaos proxy: ${err.message}`);
    };
    const pipeThrough = () => {
      const up = o.forward(
        req,
        body,
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
        badGateway,
      );
      res.on('close', () => up.destroy());
    };

    if (!fault) return pipeThrough();
    switch (fault.kind) {
      case '429':
      case '500': {
        o.injected.push(fault.kind);
        const s = statusBody(fault.kind);
        res.writeHead(s.code, {
          'content-type': 'application/json',
          ...(fault.kind === '429' ? { 'retry-after': '1' } : {}),
        });
        return void res.end(s.body);
      }
      case '410':
        o.injected.push('410');
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(goneEventLine(resourceVersionOf(path)));
      case 'delay': {
        o.injected.push('delay');
        const t = setTimeout(pipeThrough, fault.ms);
        res.on('close', () => clearTimeout(t));
        return;
      }
      default: {
        // drop-watch, end-watch: forwarded, then cut after `afterEvents` events or `afterMs`
        let midEvent = fault.kind === 'drop-watch' && fault.midEvent;
        let target = fault.afterEvents;
        let events = 0;
        let cut = false;
        /** Everything forwarded so far ends with a whole event (or nothing was forwarded). */
        let atBoundary = true;
        /** The API server answered 200: a watch stream is being forwarded. */
        let streaming = false;
        /** Closes the socket or ends the response; `cut` is set before, so nothing more is forwarded meanwhile. */
        const finish = () => {
          o.injected.push(fault.kind);
          up.destroy();
          if (fault.kind === 'drop-watch') res.destroy();
          else res.end();
        };
        const timer = setTimeout(() => {
          // now, once the stream has begun, if that splits no event (a clean end never does); else after the next one
          if (!streaming || cut) return;
          if (atBoundary || fault.kind === 'drop-watch') {
            cut = true;
            return finish();
          }
          target = events + 1;
          midEvent = false;
        }, fault.afterMs);
        const up = o.forward(
          req,
          body,
          (upRes) => {
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            if (upRes.statusCode !== 200) return void upRes.pipe(res);
            streaming = true;
            upRes.on('data', (chunk: Buffer) => {
              if (cut) return;
              const at = cutPoint(chunk, events, target, midEvent);
              if (at === undefined) {
                events += eventsIn(chunk);
                atBoundary = chunk.at(-1) === 0x0a;
                res.write(chunk);
                return;
              }
              cut = true;
              res.write(chunk.subarray(0, at), finish);
            });
            upRes.on('end', () => {
              if (!cut) res.end();
            });
          },
          badGateway,
        );
        res.on('close', () => {
          clearTimeout(timer);
          up.destroy();
        });
      }
    }
  };
}
