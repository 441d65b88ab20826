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
  readLaunchRecords,
  restartProcessInDir,
  writeLaunchRecords,
  writePrivateFile,
  type LaunchRecord,
} from '@regatta/local-cluster';
import { NODE_AGENT_APP, type SandboxEndpoints } from './sandbox.js';

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/**
 * Starts `node`'s agent when the sandbox runs agents (the imagepull controller) and `node` has none yet; resolves
 * once it is ready. Returns its program name, or undefined when there is nothing to start. Its launch record is
 * written first, then it is started as `sandbox restart` starts a program (pid recorded before the wait for ready).
 */
export async function startNodeAgent(dir: string, node: string): Promise<string | undefined> {
  const launches = await readLaunchRecords(dir);
  const name = `${NODE_AGENT_APP}-${node}`;
  const template = launches.find((l) => l.name.startsWith(`${NODE_AGENT_APP}-`) && l.env['CRI_SOCKET']);
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
  await writeLaunchRecords(dir, [...launches, launch]);
  const { current } = await restartProcessInDir(dir, name);
  endpoints.programs = [...endpoints.programs, { name, pid: current.pid, health, log: logFile }];
  await writePrivateFile(join(dir, ENDPOINTS_FILE), json(endpoints));
  return name;
}
