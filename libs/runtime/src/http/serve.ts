import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * Runs `server` on `host:port` until `signal` aborts, then stops accepting connections, lets
 * in-flight requests finish (idle keep-alive connections are closed at once) and resolves.
 * Rejects if it cannot listen, or if `onListening` (which receives the bound address) fails; the server is closed
 * then.
 */
export async function serveUntil(
  server: HttpServer | HttpsServer,
  host: string,
  port: number,
  signal: AbortSignal,
  onListening: (address: AddressInfo) => void | Promise<void>,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  try {
    await onListening(server.address() as AddressInfo);
  } catch (err) {
    server.close();
    server.closeAllConnections();
    throw err;
  }
  if (!signal.aborted) {
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  await new Promise<void>((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeIdleConnections();
  });
}
