import { readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADDRESS_FILE_ENV, type BoundAddresses } from '@regatta/runtime';
import { ComponentStartError } from './errors.js';
import { ManagedProcess } from './process.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The entry point of a workspace app: `apps/<app>/src/main.ts`, or, when `REGATTA_APP_BUNDLES` names a folder of
 * built bundles (`npm run build` writes dist/apps), `<folder>/<app>/main.mjs`, which runs with plain node. So the
 * scenario tests and the benchmarks can run what ships: `REGATTA_APP_BUNDLES=dist/apps npm run bench`.
 */
export function appEntryPath(app: string, env: NodeJS.ProcessEnv = process.env): string {
  const bundles = env['REGATTA_APP_BUNDLES'];
  return bundles ? join(resolve(repoRoot, bundles), app, 'main.mjs') : `${repoRoot}apps/${app}/src/main.ts`;
}

/**
 * The command line that runs a TypeScript entry point of this workspace with the current Node:
 * tsx as the loader, workspace libraries resolved to their sources.
 */
export function tsEntryCommand(entry: string, args: string[] = []): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), entry, ...args],
  };
}

/**
 * Node flags a built bundle runs with, given on its command line as deploy/Dockerfile's ENTRYPOINT does (V8 flags
 * such as `--optimize-for-size` are refused in NODE_OPTIONS): space-separated, from `REGATTA_NODE_ARGS`.
 */
export const NODE_ARGS_ENV = 'REGATTA_NODE_ARGS';

/**
 * The command line that runs an entry point with the current Node: a built bundle (`.mjs`/`.js`, what
 * `npm run build` writes to dist/apps/<app>/main.mjs) as it is, with no loader and no node_modules needed, after the
 * flags of {@link NODE_ARGS_ENV}; TypeScript through tsx (`tsEntryCommand`).
 */
export function entryCommand(
  entry: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } {
  const nodeArgs = (env[NODE_ARGS_ENV] ?? '').split(' ').filter(Boolean);
  return /\.(mjs|js)$/.test(entry)
    ? { command: process.execPath, args: [...nodeArgs, entry, ...args] }
    : tsEntryCommand(entry, args);
}

/** Starts a workspace program (a Regatta app, a built bundle, or any TypeScript entry) as a managed process. */
export function startProgram(o: {
  name: string;
  entry: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  keepAfterExit?: boolean;
}): ManagedProcess {
  const env = { ...process.env, ...o.env };
  const cmd = entryCommand(o.entry, o.args, env);
  return ManagedProcess.start(
    {
      name: o.name,
      command: cmd.command,
      args: cmd.args,
      logFile: o.logFile,
      env,
    },
    { keepAfterExit: o.keepAfterExit ?? false },
  );
}

/** A Regatta program started on port 0, with the addresses its servers got. */
export interface ServingProgram {
  process: ManagedProcess;
  /** `http://127.0.0.1:PORT`: `/healthz`, `/readyz`, `/metrics`. */
  health: string;
  /** `127.0.0.1:PORT` of the admission webhooks, when asked for. */
  webhook?: string;
  logFile: string;
}

/**
 * Starts a Regatta program whose servers bind port 0 (`REGATTA_HEALTH_ADDR=127.0.0.1:0`, and
 * `REGATTA_WEBHOOK_ADDR=127.0.0.1:0` with `webhook`), reads the addresses they got from `REGATTA_ADDRESS_FILE`
 * and waits until `probe` answers 200 (`/readyz` unless told otherwise). No port is picked beforehand, so two
 * programs starting at once never race for one (docs/adr/0015). Fails at once, naming the log, if the program
 * exits first.
 */
export async function startServingProgram(o: {
  name: string;
  entry: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  keepAfterExit?: boolean;
  /** Serve admission webhooks on port 0 too. */
  webhook?: boolean;
  /** Where the program records its addresses; default beside the log file (`<log>.addresses.json`). */
  addressFile?: string;
  probe?: '/readyz' | '/healthz' | 'none';
  timeoutMs?: number;
}): Promise<ServingProgram> {
  const addressFile = o.addressFile ?? `${o.logFile.replace(/\.log$/, '')}.addresses.json`;
  await rm(addressFile, { force: true }); // a file left by an earlier run names ports that are gone
  const child = startProgram({
    ...o,
    env: {
      ...o.env,
      REGATTA_HEALTH_ADDR: '127.0.0.1:0',
      [ADDRESS_FILE_ENV]: addressFile,
      ...(o.webhook ? { REGATTA_WEBHOOK_ADDR: '127.0.0.1:0' } : {}),
    },
  });
  try {
    const deadline = Date.now() + (o.timeoutMs ?? 90_000);
    const wanted = o.webhook ? (['health', 'webhook'] as const) : (['health'] as const);
    const addresses = await poll(
      child,
      deadline,
      `${o.name} to record its addresses in ${addressFile}`,
      async () => {
        const got = await readAddresses(addressFile);
        return wanted.every((k) => got?.[k]) ? got : undefined;
      },
    );
    const health = `http://${addresses.health ?? ''}`;
    const probe = o.probe ?? '/readyz';
    if (probe !== 'none') {
      await poll(child, deadline, `${o.name} to answer ${health}${probe}`, async () => {
        const res = await fetch(`${health}${probe}`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      });
    }
    return {
      process: child,
      health,
      ...(addresses.webhook ? { webhook: addresses.webhook } : {}),
      logFile: o.logFile,
    };
  } catch (err) {
    await child.stop().catch(() => undefined); // nothing half-started is left behind, detached or not
    throw err;
  }
}

async function readAddresses(file: string): Promise<BoundAddresses | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as BoundAddresses;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Polls `check` until it returns a value; throws if the process exits first or the deadline passes. */
async function poll<T>(
  p: ManagedProcess,
  deadline: number,
  what: string,
  check: () => Promise<T | undefined>,
): Promise<T> {
  for (;;) {
    p.assertRunning();
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline)
      throw new ComponentStartError(p.spec.name, `timed out waiting for ${what}`, p.spec.logFile);
    await Promise.race([p.exited, sleep(100)]);
  }
}
