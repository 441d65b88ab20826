// R2 with node agents running (issue 18; docs/reliability-checks.md R2). For the imagepull program's two kinds, three
// simulated nodes (tools/chaos/r2-agent-verdicts.ts R2_AGENT_NODES, labelled and tainted so no pod lands there) serve
// their CRI ImageService from a node simulator of their own (tools/bench/imagepull-simulator.ts, in a child process),
// and each runs its image pull agent from its bundle with the node's own bus user, as the sandbox starts them
// (docs/imagepull.md). ImagePullJobs are fuzzed with some selecting these nodes (by name or label), so the
// controller writes their tags into the nodes' NodeImages and the agents pull them; NodeImages are fuzzed for these
// nodes by name: each one replaces the node's NodeImage (deleted, then created), a round of one per node at a
// time. Verdicts: no agent exits; every NodeImage admitted gets a status from its agent that counts its spec's tags;
// with the webhooks removed, a NodeImage the webhook refused, stored as is, gets no status and nothing of it is
// pulled; the agents' error log lines are counted and shown.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlreadyExists, isNotFound, type KubeObject } from '@regatta/kube';
import { Child } from '../bench/common.js';
import type { Violation } from './checker.js';
import { addressable, verdictOf, violationOf, type Fuzzed, type Response } from './fuzz.js';
import { allOf, fuzzSequence } from './fuzz-sequence.js';
import { NODE_IMAGE } from './fuzz-nodeimage.js';
import type { SupervisedProgram } from './programs.js';
import {
  agentStatusProblem,
  R2_AGENT_LABEL,
  R2_AGENT_NODE_PREFIX,
  R2_AGENT_NODES,
  storedActedOn,
  tagsIn,
  type AgentNodeImage,
} from './r2-agent-verdicts.js';
import { countErrorLines, defectViolations, readLogFrom, send } from './r2-requests.js';
import { settled } from './bounded.js';
import type { World } from './world.js';

const NI = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
/** A simulated pull's time on the agent nodes. */
const PULL_MS = 100;
/** How long an admitted NodeImage may take to get its status; a stored invalid one, to be looked at by its agent. */
const STATUS_WAIT_MS = 60_000;
const LOOK_WAIT_MS = 20_000;
/** After the agent looked at a stored invalid NodeImage: how long it has to show it would act anyway. */
const SETTLE_MS = 2_000;
/** The agent's warn line for a NodeImage it refuses (libs/image-puller agent.ts). */
const REFUSAL_LINE = 'not pulling this NodeImage';

export interface Outcome {
  figures: [string, string][];
  violations: Violation[];
}

export interface AgentNodes {
  nodes: string[];
  agents: Map<string, SupervisedProgram>;
  logFile(node: string): string;
  /** The images a node holds now; every image of a node removed. */
  images(node: string): Promise<string[]>;
  clearImages(node: string): Promise<void>;
  /** Agent exits (each a violation) and error log lines since the start. */
  outcome(): Promise<Outcome>;
  stop(): Promise<void>;
}

export async function startAgentNodes(w: World): Promise<AgentNodes> {
  const logsDir = join(w.cluster.dir, 'logs');
  const sim = Child.start('agent node simulator', './imagepull-simulator.ts');
  const simNodes = (
    await sim.call<{ nodes: { name: string; criSocket: string }[] }>('start', {
      kubeconfig: w.cluster.endpoints.kubeconfig,
      nodes: R2_AGENT_NODES.length,
      pullMs: PULL_MS,
      criSocketDir: join(w.cluster.dir, 'cri'),
      logFile: join(logsDir, 'agent-node-simulator.log'),
      namePrefix: R2_AGENT_NODE_PREFIX,
      labels: { ...R2_AGENT_LABEL },
      taints: [{ key: Object.keys(R2_AGENT_LABEL)[0] ?? '', value: 'r2', effect: 'NoSchedule' }],
    })
  ).nodes;
  // each node's NodeImage at once (the controller creates it 30 s after the node appears), so jobs reach the agents
  for (const { name } of simNodes)
    await w.client.create({ ...NI, metadata: { name }, spec: {} } as KubeObject).catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
  const agents = new Map<string, SupervisedProgram>();
  const logFile = (node: string) => join(logsDir, `imagepull-agent-${node}.log`);
  const from = new Map<string, number>();
  for (const { name, criSocket } of simNodes) {
    from.set(name, (await stat(logFile(name)).catch(() => ({ size: 0 }))).size);
    const agent = w.agent(name, criSocket);
    await agent.start();
    agents.set(name, agent);
  }
  const startedAt = w.now();
  w.log(
    `R2: ${simNodes.length} agent nodes (${simNodes.map((n) => n.name).join(', ')}), an image pull agent each`,
  );
  return {
    nodes: simNodes.map((n) => n.name),
    agents,
    logFile,
    images: async (node) => (await sim.call<{ images: string[] }>('images', { node })).images,
    clearImages: async (node) => {
      await sim.call('clearImages', { node });
    },
    async outcome() {
      const violations: Violation[] = [];
      const errors: string[] = [];
      for (const [node, agent] of agents) {
        for (const c of agent.crashes.filter((x) => x.at >= startedAt))
          violations.push({
            kind: 'crash',
            at: c.at,
            count: 1,
            detail: `the image pull agent of ${node} exited (code ${c.code}); its log: ${logFile(node)}`,
          });
        const log = await readLogFrom(logFile(node), from.get(node) ?? 0);
        errors.push(`${node} ${countErrorLines(log)}`);
        violations.push(...defectViolations(`the image pull agent of ${node}`, log, logFile(node), w.now()));
      }
      return {
        figures: [
          ['exits', String(violations.filter((v) => v.kind === 'crash').length)],
          ['error log lines', errors.join(', ')],
        ],
        violations,
      };
    },
    async stop() {
      for (const agent of agents.values()) await agent.stop();
      await sim.call('stop').catch(() => undefined);
      await sim.stop();
      // fuzzed NodeImages carry the fake-node label: the controller would keep them after their nodes are gone
      for (const node of simNodes) await w.client.delete({ ...NI, name: node.name }).catch(() => undefined);
    },
  };
}

/** Replaces the NodeImage of `node` by `obj` (named for the node): the old one deleted and gone, then a create. */
async function place(w: World, node: string, obj: KubeObject): Promise<Response> {
  const named = { ...obj, metadata: { ...obj.metadata, name: node } } as KubeObject;
  for (let attempt = 0; ; attempt++) {
    await w.client.delete({ ...NI, name: node }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    for (let t = Date.now(); await w.client.getOrUndefined({ ...NI, name: node }); ) {
      if (Date.now() - t > 30_000)
        throw new Error(`R2: the NodeImage ${node} was not gone 30 s after its delete`);
      await sleep(100);
    }
    const r = await send(w.client, named);
    // the controller created the node's NodeImage meanwhile (its creation delay ran out): again
    if (!r.accepted && r.status === 409 && attempt < 3) continue;
    return r;
  }
}

const getNodeImage = async (w: World, node: string) =>
  (await w.client.getOrUndefined<KubeObject & AgentNodeImage>({ ...NI, name: node })) ?? {};

/** The rounds of `objects`, one object per node each. */
const roundsOf = <T>(objects: T[], nodes: string[]): { x: T; node: string }[][] =>
  Array.from({ length: Math.ceil(objects.length / nodes.length) }, (_, r) =>
    objects.slice(r * nodes.length, (r + 1) * nodes.length).map((x, k) => ({ x, node: nodes[k] ?? '' })),
  );

/**
 * The webhook half: `count` fuzzed NodeImages (seed `seed`, their own prefix), each in place of an agent node's. An
 * admitted one must get its agent's status within 60 s. Returns the ones the webhook refused, for the stored half.
 */
export async function agentNodeImages(
  w: World,
  a: AgentNodes,
  o: { seed: number; count: number },
): Promise<Outcome & { refused: { i: number; f: Fuzzed }[] }> {
  const violations: Violation[] = [];
  const refused: { i: number; f: Fuzzed }[] = [];
  const objects = allOf(fuzzSequence(NODE_IMAGE, 'chaos-r2-agents', o.count, o.seed, 'ag')).map((f, i) => ({
    f,
    i,
  }));
  let accepted = 0;
  let withStatus = 0;
  for (const round of roundsOf(objects, a.nodes)) {
    const sent = await settled(
      round.map(async ({ x, node }) => ({
        x,
        node,
        r: await place(w, node, addressable(x.f.object)),
      })),
    );
    for (const { x, node, r } of sent) {
      const v = verdictOf(r);
      const bad = violationOf(v);
      if (bad)
        violations.push({
          kind: 'admission',
          at: w.now(),
          count: 1,
          detail: `NodeImage for agent node ${node} #${x.i} (${x.f.shape}: ${x.f.mutations.join(', ') || 'none'}): ${bad}`,
        });
      if (v.result === 'rejected' && v.by === 'webhook') refused.push(x);
    }
    const admitted = sent.filter((s) => s.r.accepted);
    accepted += admitted.length;
    const until = Date.now() + STATUS_WAIT_MS;
    let pending = admitted;
    while (pending.length > 0 && Date.now() < until) {
      await sleep(500);
      const looks = await settled(
        pending.map(async (s) => agentStatusProblem(await getNodeImage(w, s.node))),
      );
      pending = pending.filter((_, k) => looks[k] !== undefined);
    }
    withStatus += admitted.length - pending.length;
    for (const s of pending) {
      const problem = agentStatusProblem(await getNodeImage(w, s.node));
      if (problem)
        violations.push({
          kind: 'agent-status',
          at: w.now(),
          count: 1,
          detail: `NodeImage for agent node ${s.node} #${s.x.i} (${s.x.f.shape}: ${s.x.f.mutations.join(', ').slice(0, 160) || 'none'}): ${problem} after ${STATUS_WAIT_MS / 1000} s`,
        });
    }
  }
  w.log(
    `R2: ${objects.length} NodeImages on the agent nodes, ${accepted} admitted, ${withStatus} with their agent's status`,
  );
  return {
    figures: [
      [
        'agent nodes: NodeImages sent / admitted / with the agent status',
        `${objects.length} / ${accepted} / ${withStatus}`,
      ],
    ],
    violations,
    refused,
  };
}

/**
 * The stored half (the program's webhooks removed): the NodeImages the webhook refused above, stored as they are in
 * place of an agent node's. Each must be looked at by its agent (its warn line) and get no status, nothing pulled.
 */
export async function storedAgentNodeImages(
  w: World,
  a: AgentNodes,
  refused: { i: number; f: Fuzzed }[],
): Promise<Outcome> {
  const violations: Violation[] = [];
  let stored = 0;
  let refusedBySchema = 0;
  let lookedAt = 0;
  // pulls of the webhook half's last NodeImages end (or are aborted) before the nodes' images are cleared
  await sleep(SETTLE_MS);
  for (const round of roundsOf(refused, a.nodes)) {
    const offsets = new Map<string, number>();
    for (const { node } of round) {
      await a.clearImages(node);
      offsets.set(node, (await stat(a.logFile(node)).catch(() => ({ size: 0 }))).size);
    }
    const sent = await settled(
      round.map(async ({ x, node }) => ({
        x,
        node,
        r: await place(w, node, addressable(x.f.object)),
      })),
    );
    const kept = sent.filter((s) => s.r.accepted);
    stored += kept.length;
    refusedBySchema += sent.length - kept.length;
    const refusalSeen = async (node: string) =>
      (await readLogFrom(a.logFile(node), offsets.get(node) ?? 0)).includes(REFUSAL_LINE);
    const acted = async (node: string) => storedActedOn(await getNodeImage(w, node), await a.images(node));
    const until = Date.now() + LOOK_WAIT_MS;
    let waiting = kept;
    while (waiting.length > 0 && Date.now() < until) {
      await sleep(250);
      const done = await settled(
        waiting.map(async (s) => (await refusalSeen(s.node)) || !!(await acted(s.node))),
      );
      waiting = waiting.filter((_, k) => !done[k]);
    }
    await sleep(SETTLE_MS);
    for (const s of kept) {
      const what = `NodeImage stored invalid on agent node ${s.node} (#${s.x.i}, ${s.x.f.shape}: ${s.x.f.mutations.join(', ').slice(0, 160)})`;
      const did = await acted(s.node);
      if (await refusalSeen(s.node)) lookedAt++;
      if (did)
        violations.push({
          kind: 'stored-invalid',
          at: w.now(),
          count: 1,
          detail: `${what}: its agent acted on it: ${did}`,
        });
    }
  }
  return {
    figures: [
      [
        'agent nodes, webhooks removed: sent / refused by the API server / stored / refused by the agent (its warn line) / acted on',
        `${refused.length} / ${refusedBySchema} / ${stored} / ${lookedAt} / ${violations.length}`,
      ],
    ],
    violations,
  };
}

/**
 * After the ImagePullJob row: the jobs that selected the agent nodes put their tags into the nodes' NodeImages; each
 * node's NodeImage must come to carry its agent's status counting them (within 60 s).
 */
export async function agentNodesCurrent(w: World, a: AgentNodes): Promise<Outcome> {
  const until = Date.now() + STATUS_WAIT_MS;
  const look = async () => settled(a.nodes.map(async (node) => ({ node, ni: await getNodeImage(w, node) })));
  let seen = await look();
  while (seen.some((s) => agentStatusProblem(s.ni)) && Date.now() < until) {
    await sleep(1000);
    seen = await look();
  }
  const violations: Violation[] = seen.flatMap(({ node, ni }) => {
    const problem = agentStatusProblem(ni);
    return problem
      ? [
          {
            kind: 'agent-status' as const,
            at: w.now(),
            count: 1,
            detail: `NodeImage of agent node ${node} after the ImagePullJobs: ${problem}`,
          },
        ]
      : [];
  });
  return {
    figures: [
      [
        'agent nodes: tags the jobs put in their NodeImages / with the agent status',
        seen
          .map(
            ({ node, ni }) =>
              `${node.slice(R2_AGENT_NODE_PREFIX.length)}: ${tagsIn(ni.spec)} / ${ni.status?.desired ?? '-'}`,
          )
          .join(', '),
      ],
    ],
    violations,
  };
}
