import type { IncomingMessage, ServerResponse } from 'node:http';
import { RuntimeError } from '../errors.js';

/** A Kubernetes `Status` (kind Status, apiVersion v1), used for the servers' 4xx/5xx replies. */
export interface FailureStatus {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure';
  code: number;
  reason: string;
  message: string;
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function failure(code: number, reason: string, message: string): FailureStatus {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message };
}

export function sendFailure(
  res: ServerResponse,
  code: number,
  reason: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, code, failure(code, reason, message), headers);
}

/** The request body exceeded the limit. */
export class BodyTooLargeError extends RuntimeError {
  constructor(readonly limit: number) {
    super('REGATTA_BODY_TOO_LARGE', `request body is larger than ${limit} bytes`);
  }
}

/**
 * Reads the whole body, up to `limit` bytes. Rejects with {@link BodyTooLargeError} as soon as
 * the declared or received length exceeds it (the rest is not read).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
