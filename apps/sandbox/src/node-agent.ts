// The image pull agent of a node added to a running sandbox (`regatta sandbox node add`), as the chart's DaemonSet
// gives a joining node its pod: started like the agents of the first nodes (their launch record), on the new node's
// CRI socket, with a bus user of its own that reads only its node's NodeImage, as the first nodes' agents have
// (docs/adr/0032): the user is added to nats.conf and nats-server reloads it. `sandbox node remove` stops the agent
// and drops its records and its bus user.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  ENDPOINTS_FILE,
  freePorts,
  newNodeAgentUser,
  readLaunchRecords,
  readPidRecords,
  reloadNatsAuth,
  restartProcessInDir,
  stopRecorded,
  withNodeAgent,
  writeLaunchRecords,
  writePidRecords,
  writePrivateFile,
  type LaunchRecord,
} from '@regatta/local-cluster';
import { NODE_AGENT_APP, nodeAgentsOption, type SandboxEndpoints } from './sandbox.js';

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const readSandbox = async (dir: string) =>
  JSON.parse(await readFile(join(dir, ENDPOINTS_FILE), 'utf8')) as SandboxEndpoints;

/**
 * Starts `node`'s agent when the sandbox runs agents (the imagepull controller) and `node` has none yet; resolves
 * once it is ready. Returns its program name, or undefined when there is nothing to start. On a bus with users, the
 * agent's own user is made first; then its launch record is written and it is started as `sandbox restart` starts a
 * program (pid recorded before the wait for ready).
 */
export async function startNodeAgent(dir: string, node: string): Promise<string | undefined> {
  const launches = await readLaunchRecords(dir);
  const name = `${NODE_AGENT_APP}-${node}`;
  const template = launches.find((l) => l.name.startsWith(`${NODE_AGENT_APP}-`) && l.env['CRI_SOCKET']);
  if (!template || launches.some((l) => l.name === name)) return undefined;
  let endpoints = await readSandbox(dir);
  const bus: Record<string, string> = {};
  if (endpoints.natsAuth) {
    const user = newNodeAgentUser(node, nodeAgentsOption([node]));
    endpoints = (await reloadNatsAuth(dir, withNodeAgent(endpoints.natsAuth, node, user))) as SandboxEndpoints;
    Object.assign(bus, { NATS_USER: user.user, NATS_PASSWORD: user.password, NATS_INBOX_PREFIX: user.inboxPrefix });
  }
  const [healthPort] = (await freePorts(1)) as [number];
  const env: Record<string, string> = {
    ...template.env,
    NODE_NAME: node,
    CRI_SOCKET: join(dirname(template.env['CRI_SOCKET']!), `${node}.sock`),
    REGATTA_HEALTH_ADDR: `127.0.0.1:${healthPort}`,
    ...bus,
  };
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

/**
 * Stops `node`'s agent (SIGTERM, as `down` does: it flushes its last status first) and forgets it: its pid and
 * launch records, its entry in endpoints.json, and its bus user (nats-server reloads without it). Returns its program
 * name, or undefined when the node had no agent.
 */
export async function stopNodeAgent(dir: string, node: string): Promise<string | undefined> {
  const name = `${NODE_AGENT_APP}-${node}`;
  const records = await readPidRecords(dir);
  const launches = await readLaunchRecords(dir);
  const endpoints = await readSandbox(dir);
  const known =
    records.some((r) => r.name === name) ||
    launches.some((l) => l.name === name) ||
    endpoints.natsAuth?.nodeAgents?.[node] !== undefined;
  if (!known) return undefined;
  await stopRecorded(records.filter((r) => r.name === name));
  await writePidRecords(dir, records.filter((r) => r.name !== name));
  await writeLaunchRecords(dir, launches.filter((l) => l.name !== name));
  endpoints.programs = endpoints.programs.filter((p) => p.name !== name);
  await writePrivateFile(join(dir, ENDPOINTS_FILE), json(endpoints));
  if (endpoints.natsAuth?.nodeAgents?.[node]) await reloadNatsAuth(dir, withNodeAgent(endpoints.natsAuth, node, undefined));
  return name;
}
