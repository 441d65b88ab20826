import { request } from 'node:http';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ProbeServer } from './probe-server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function withServer(server: ProbeServer, fn: (port: number) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const running = server.start(stop.signal);
  const { port } = await server.listening();
  try {
    await fn(port);
  } finally {
    stop.abort();
    await running;
  }
}

describe('ProbeServer', () => {
  it('answers /healthz and /readyz from their checks, and says which failed', async () => {
    let synced = false;
    const server = new ProbeServer({ host: '127.0.0.1', port: 0 });
    server.addHealthzCheck('ping', () => undefined);
    server.addReadyzCheck('cache-sync', () => {
      if (!synced) throw new Error('caches have not synced yet');
    });
    server.addReadyzCheck('webhook', async () => Promise.resolve());
    await withServer(server, async (port) => {
      expect(await get(port, '/healthz')).toMatchObject({ status: 200, body: 'ok' });
      const notReady = await get(port, '/readyz');
      expect(notReady.status).toBe(500);
      expect(notReady.body).toBe(
        '[-]cache-sync failed: caches have not synced yet\n[+]webhook ok\nreadyz check failed\n',
      );
      expect((await get(port, '/readyz/webhook')).status).toBe(200);
      expect((await get(port, '/readyz/cache-sync')).status).toBe(500);
      expect((await get(port, '/readyz/nope')).status).toBe(404);
      synced = true;
      expect(await get(port, '/readyz')).toMatchObject({ status: 200, body: 'ok' });
      expect((await get(port, '/readyz?verbose')).body).toBe(
        '[+]cache-sync ok\n[+]webhook ok\nreadyz check passed\n',
      );
      expect(await get(port, '/healthz', 'HEAD')).toMatchObject({ status: 200, body: '' });
    });
  });

  it('serves the registry on /metrics in Prometheus text format', async () => {
    const registry = new Registry();
    new Counter({ name: 'regatta_test_total', help: 'a test counter', registers: [registry] }).inc(3);
    const server = new ProbeServer({ host: '127.0.0.1', port: 0, registry });
    await withServer(server, async (port) => {
      const reply = await get(port, '/metrics');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe(registry.contentType);
      expect(reply.body).toContain('# TYPE regatta_test_total counter\nregatta_test_total 3');
    });
  });

  it('answers unknown paths with 404 and other methods with 405, as JSON Status', async () => {
    const server = new ProbeServer({ host: '127.0.0.1', port: 0 });
    await withServer(server, async (port) => {
      const missing = await get(port, '/metrics'); // no registry given
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
      const post = await get(port, '/healthz', 'POST');
      expect(post.status).toBe(405);
      expect(post.headers['allow']).toBe('GET, HEAD');
    });
  });

  it('fails to start when the port is taken', async () => {
    const first = new ProbeServer({ host: '127.0.0.1', port: 0 });
    await withServer(first, async (port) => {
      const second = new ProbeServer({ host: '127.0.0.1', port });
      await expect(second.start(new AbortController().signal)).rejects.toThrow(/EADDRINUSE/);
    });
  });
});
