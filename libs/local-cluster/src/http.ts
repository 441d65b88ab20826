import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface TlsClientOptions {
  ca?: string;
  cert?: string;
  key?: string;
  /** false for components that serve a self-signed certificate of their own (controller-manager, scheduler) */
  rejectUnauthorized?: boolean;
}

/** A small GET for health checks: resolves with status and body, rejects on connection errors. */
export function httpGet(
  url: string,
  tls: TlsClientOptions = {},
  timeoutMs = 5000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
      u,
      { method: 'GET', ...tls, timeout: timeoutMs },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
