// R2 with node agents running (tools/chaos/r2-agents.ts): the agent nodes, and the verdicts on what an agent did with
// the NodeImage of its node. An admitted NodeImage must get a status from its agent whose `desired` counts the tags of
// the spec as stored (docs/imagepull.md "The node agent": desired = tags in spec); a NodeImage stored invalid with
// the webhooks removed must get no status and no pull (libs/image-puller spec-check.ts, finding 7). Pure.

/** The simulated nodes R2 runs an image pull agent for (the node simulator names nodes `<prefix>1…N`). */
export const R2_AGENT_NODE_PREFIX = 'chaos-r2-node-';
export const R2_AGENT_NODES = [1, 2, 3].map((i) => `${R2_AGENT_NODE_PREFIX}${i}`);
/** The label every agent node carries (ImagePullJobs select them by it, or by name). */
export const R2_AGENT_LABEL = { 'chaos.regatta.dev/agent': 'r2' } as const;

/** A NodeImage as R2 reads it back: the spec in any shape the schema let through, the status the agent wrote. */
export interface AgentNodeImage {
  spec?: unknown;
  status?: { desired?: number } & Record<string, unknown>;
}

/** The tags of a NodeImage's spec (`spec.images[*].tags`), reading any shape (a wrong type counts nothing). */
export function tagsIn(spec: unknown): number {
  const images = (spec as { images?: unknown } | undefined)?.images;
  if (!images || typeof images !== 'object' || Array.isArray(images)) return 0;
  let n = 0;
  for (const image of Object.values(images as Record<string, unknown>)) {
    const tags = (image as { tags?: unknown } | null)?.tags;
    if (Array.isArray(tags)) n += tags.length;
  }
  return n;
}

/** An admitted NodeImage without a current status from its agent: why (undefined when its status counts the spec). */
export function agentStatusProblem(ni: AgentNodeImage): string | undefined {
  const desired = ni.status?.desired;
  const tags = tagsIn(ni.spec);
  if (desired === undefined) return `no status from the agent (the spec holds ${tags} tags)`;
  if (desired !== tags) return `status.desired ${desired}, the spec holds ${tags} tags`;
  return undefined;
}

/** A NodeImage stored invalid was acted on by its agent: a status written, images pulled onto the node. */
export function storedActedOn(ni: AgentNodeImage, pulled: readonly string[]): string | undefined {
  const acts: string[] = [];
  if (ni.status && Object.keys(ni.status).length > 0)
    acts.push(`status written (${JSON.stringify(ni.status).slice(0, 120)})`);
  if (pulled.length > 0)
    acts.push(
      `pulled ${pulled.slice(0, 3).join(', ')}${pulled.length > 3 ? ` and ${pulled.length - 3} more` : ''}`,
    );
  return acts.length > 0 ? acts.join('; ') : undefined;
}
