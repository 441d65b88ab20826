// The two byte relays that let kruise-manager run in a network namespace of its own (docs/adr/0053): its webhook
// server binds 0.0.0.0 with no flag to change that (upstream main.go), so it runs under `unshare -n`, where the
// only interface is its own loopback, and these relays join that loopback to the host's over two unix sockets
// (a unix socket is a file, seen from both namespaces). Plain TCP pass-through: TLS stays end to end.
//
//   host  (in the host's namespace): unix <api.sock> → 127.0.0.1:<apiPort> (the API server);
//                                    127.0.0.1:<webhookPort> (the URL the webhooks name) → unix <webhook.sock>
//   netns (under `unshare -n`):      brings `lo` up; 127.0.0.1:<apiPort> → unix <api.sock>;
//                                    unix <webhook.sock> → 127.0.0.1:<webhookPort> (kruise-manager's webhook
//                                    server); then starts kruise-manager and writes its pid to <pidFile>.
//
//   node --import tsx kruise-relay.ts host|netns '<RelayConfig JSON>'
import { spawn, spawnSync } from 'node:child_process';
import { openSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface RelayConfig {
  apiPort: number;
  webhookPort: number;
  apiSock: string;
  webhookSock: string;
  /** netns only: kruise-manager's command line, environment additions, log file, and where its pid goes. */
  manager?: {
    command: string;
    args: string[];
    env: Record<string, string>;
    logFile: string;
    pidFile: string;
  };
}

/** Joins each accepted connection to a new one made by `dial`; either side closing closes both. */
function relay(dial: () => Socket): Server {
  return createServer((inbound) => {
    const outbound = dial();
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', close).on('close', close);
    outbound.on('error', close).on('close', close);
  });
}

function listen(server: Server, where: number | string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof where === 'number') server.listen(where, '127.0.0.1', resolve);
    else {
      rmSync(where, { force: true });
      server.listen(where, resolve);
    }
  });
}

async function main(): Promise<void> {
  const [mode, json] = process.argv.slice(2);
  const c = JSON.parse(json ?? '{}') as RelayConfig;
  if (mode === 'host') {
    await listen(
      relay(() => connect(c.apiPort, '127.0.0.1')),
      c.apiSock,
    );
    await listen(
      relay(() => connect(c.webhookSock)),
      c.webhookPort,
    );
    console.log(`host relay: ${c.apiSock} → API server :${c.apiPort}; :${c.webhookPort} → ${c.webhookSock}`);
    return;
  }
  if (mode !== 'netns' || !c.manager)
    throw new Error(`usage: kruise-relay.ts host|netns '<config>' (got ${mode})`);
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (up.status !== 0) throw new Error(`ip link set lo up: ${up.stderr || up.error}`);
  await listen(
    relay(() => connect(c.apiSock)),
    c.apiPort,
  );
  await listen(
    relay(() => connect(c.webhookPort, '127.0.0.1')),
    c.webhookSock,
  );
  const m = c.manager;
  const fd = openSync(m.logFile, 'a');
  const child = spawn(m.command, m.args, { env: { ...process.env, ...m.env }, stdio: ['ignore', fd, fd] });
  writeFileSync(m.pidFile, `${child.pid ?? -1}\n`);
  console.log(
    `netns relay: kruise-manager pid ${child.pid}; :${c.apiPort} → ${c.apiSock}; ${c.webhookSock} → :${c.webhookPort}`,
  );
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    console.log(`kruise-manager exited (code ${code}, signal ${signal})`);
    process.exit(code ?? 0);
  });
}

main().catch((err: unknown) => {
  console.error('kruise relay failed:', err);
  process.exit(1);
});
