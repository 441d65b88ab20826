// A nats-server of a test's own, started from a configuration text (libs/local-cluster natsConfig, or any other):
// the bus scenarios that need to stop, restart or configure a server apart from the shared one start it here.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locateBinaries } from './binaries.js';
import { ManagedProcess } from './process.js';
import { waitFor } from './wait.js';

export interface NatsServerOptions {
  /** Folder of `<name>.conf` and `<name>.log` (and, by the configuration's choice, the JetStream store). */
  dir: string;
  /** The configuration file's text; written to `<dir>/<name>.conf` before the start. */
  config: string;
  /** The monitoring port the configuration sets (`http:`): the start waits for its /healthz. Without one, no wait. */
  monitorPort?: number;
  /** Process and file name; default `nats`. */
  name?: string;
  timeoutMs?: number;
  /**
   * Wait only for JetStream to be on (`/healthz?js-enabled-only=true`), not for its streams: a cluster member started
   * before the others cannot be wholly healthy (no meta leader yet).
   */
  jetStreamEnabledOnly?: boolean;
}

/** Writes the configuration, starts nats-server on it, and waits until it answers /healthz (when monitored). */
export async function startNatsServer(o: NatsServerOptions): Promise<ManagedProcess> {
  const name = o.name ?? 'nats';
  const conf = join(o.dir, `${name}.conf`);
  await writeFile(conf, o.config);
  const server = ManagedProcess.start({
    name,
    command: locateBinaries().natsServer,
    args: ['-c', conf],
    logFile: join(o.dir, `${name}.log`),
  });
  if (o.monitorPort !== undefined) {
    const health = `http://127.0.0.1:${o.monitorPort}/healthz${o.jetStreamEnabledOnly ? '?js-enabled-only=true' : ''}`;
    try {
      await waitFor(name, async () => (await fetch(health)).ok, { timeoutMs: o.timeoutMs ?? 60_000 });
    } catch (err) {
      await server.stop(); // the caller gets the timeout (its log names the cause), not a stray server
      throw err;
    }
  }
  return server;
}
