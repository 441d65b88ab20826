// The NodeImage rules in the node agent (docs/imagepull.md "The node agent"; docs/reliability-findings-1-16.md finding 7): with the
// webhooks off or bypassed the API server stores a NodeImage the validating webhook refuses (an empty or duplicated
// tag, an image named "", more than 256 images, a negative version, a tag without `pullPolicy` or its TTL). The
// NodeImage controller does not act on it (libs/imagepull spec-guard.ts, an `InvalidSpec` Warning); the agent runs
// the same check, `nodeImageSpecProblem`, and pulls nothing of such a NodeImage and writes no status for it until a
// new generation passes. It logs the refusal once per generation and emits no event: the controller's event is the
// one a user reads on the NodeImage.
import { nodeImageSpecProblem } from '@regatta/imagepull';
import type { NodeImage } from './types.js';

/** The NodeImage rules as the controller runs them, on the agent's view of a NodeImage (the check reads any JSON). */
export function nodeImageProblem(ni: NodeImage): string | undefined {
  // cast through unknown: the agent's view types only what it reads; the check reads the stored object's JSON as it is
  return nodeImageSpecProblem(ni as unknown as Parameters<typeof nodeImageSpecProblem>[0]);
}

/** One generation of one NodeImage (a NodeImage deleted and created again starts at generation 1 with a new uid). */
export interface SpecGeneration {
  uid: string;
  generation: number;
}

export const specGenerationOf = (ni: NodeImage): SpecGeneration => ({
  uid: ni.metadata.uid ?? '',
  generation: ni.metadata.generation ?? 0,
});

export interface SpecDecision {
  /** Whether the agent pulls what the spec says and writes the NodeImage status. */
  pull: boolean;
  /** The problem to log at warn level: set for the first look at each refused generation only. */
  warn?: string;
  /** The refused generation already logged, for the next decision. */
  warned: SpecGeneration | undefined;
}

/**
 * The agent's decision on its NodeImage at `generation`, whose spec fails the NodeImage rules with `problem` (or
 * passes them: undefined). `warned` is the refused generation logged last.
 */
export function decideOnSpec(
  generation: SpecGeneration,
  problem: string | undefined,
  warned: SpecGeneration | undefined,
): SpecDecision {
  if (problem === undefined) return { pull: true, warned: undefined };
  const logged = warned?.uid === generation.uid && warned.generation === generation.generation;
  return logged ? { pull: false, warned } : { pull: false, warn: problem, warned: generation };
}
