import { createServer, type Server } from 'node:http';

/**
 * Answers 200 on every path at `addr` (`host:port`, as the sandbox passes REGATTA_HEALTH_ADDR) once
 * called: the node simulator's /healthz and /readyz. Nothing is served when `addr` is unset.
 */
export async function serveHealth(addr: string | undefined): Promise<Server | undefined> {
  if (!addr) return undefined;
  const i = addr.lastIndexOf(':');
  const host = i > 0 ? addr.slice(0, i) : '127.0.0.1';
  const port = Number(addr.slice(i + 1));
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
