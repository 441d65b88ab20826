// A TCP relay from a real node's bridge address to a listener on the host's loopback: how pods on a real node reach
// the local cluster's API server and NATS, which listen on 127.0.0.1 only, with no kube-proxy in between
// (docs/images.md "Nodes without kube-proxy or cluster DNS"). Bytes are copied unchanged: TLS stays end to end.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Relay {
  /** The port on `host` that relays to the target. */
  port: number;
  close(): Promise<void>;
}

/** Listens on `host` (a free port) and pipes every connection to `target` (`host:port`). */
export async function startRelay(host: string, target: { host: string; port: number }): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = createConnection(target);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
