// The image pull agent of a node added to a running sandbox (`regatta sandbox node add`), as the chart's DaemonSet
// gives a joining node its pod: started like the agents of the first nodes (their launch record), on the new node's
// CRI socket, and recorded so that `sandbox down` and `sandbox restart` know it. The first nodes' agents have bus
// users of their own made when the bus started (docs/adr/0032); a later node's agent uses the imagepull controller's
// user, as every agent of the chart does (docs/adr/0041).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  ENDPOINTS_FILE,
  freePorts,
  LAUNCH_FILE,
  ManagedProcess,
  PIDS_FILE,
  readLaunchRecords,
  readPidRecords,
  waitFor,
  writePrivateFile,
  type LaunchRecord,
} from '@regatta/local-cluster';
import type { SandboxEndpoints } from './sandbox.js';

/** apps/imagepull-agent; the sandbox names each agent `imagepull-agent-<node>`. */
const AGENT = 'imagepull-agent';

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/**
 * Starts `node`'s agent when the sandbox runs agents (the imagepull controller) and `node` has none yet; resolves
 * once it is ready. Returns its program name, or undefined when there is nothing to start.
 */
export async function startNodeAgent(dir: string, node: string): Promise<string | undefined> {
  const launches = await readLaunchRecords(dir);
  const name = `${AGENT}-${node}`;
  const template = launches.find((l) => l.name.startsWith(`${AGENT}-`) && l.env['CRI_SOCKET']);
  if (!template || launches.some((l) => l.name === name)) return undefined;
  const endpoints = JSON.parse(await readFile(join(dir, ENDPOINTS_FILE), 'utf8')) as SandboxEndpoints;
  const creds = endpoints.natsAuth?.controllers?.['imagepull'];
  const [healthPort] = (await freePorts(1)) as [number];
  const env: Record<string, string> = {
    ...template.env,
    NODE_NAME: node,
    CRI_SOCKET: join(dirname(template.env['CRI_SOCKET']!), `${node}.sock`),
    REGATTA_HEALTH_ADDR: `127.0.0.1:${healthPort}`,
    ...(creds ? { NATS_USER: creds.user, NATS_PASSWORD: creds.password } : {}),
  };
  delete env['NATS_INBOX_PREFIX'];
  const logFile = join(dirname(template.logFile), `${name}.log`);
  const health = `http://127.0.0.1:${healthPort}`;
  const launch: LaunchRecord = {
    name,
    command: template.command,
    args: [...template.args],
    env,
    ...(template.cwd !== undefined ? { cwd: template.cwd } : {}),
    logFile,
    ready: { url: `${health}/readyz` },
  };
  const p = ManagedProcess.start(
    { name, command: launch.command, args: launch.args, env, logFile, ...(launch.cwd ? { cwd: launch.cwd } : {}) },
    { keepAfterExit: true },
  );
  // recorded before waiting: even if it never becomes ready, `down` stops it
  await writePrivateFile(join(dir, PIDS_FILE), json([...(await readPidRecords(dir)), p.record]));
  await writePrivateFile(join(dir, LAUNCH_FILE), json([...launches, launch]));
  endpoints.programs = [...endpoints.programs, { name, pid: p.record.pid, health, log: logFile }];
  await writePrivateFile(join(dir, ENDPOINTS_FILE), json(endpoints));
  await waitFor(
    `${name} to report ready on /readyz`,
    async () => {
      p.assertRunning();
      return (await fetch(`${health}/readyz`)).status === 200;
    },
    { timeoutMs: 90_000, intervalMs: 200 },
  );
  return name;
}
