// Which Nodes a simulator runs besides the ones it registers, and what it runs them as. Pure.
//
// A simulator runs a Node when
//   1. the Node's annotation `sim.regatta.dev/name-prefix` names this simulator's prefix (it registered the Node, or
//      the Node was made for it, e.g. by `regatta sandbox node add` or `NodeSimulator.addNode`), or
//   2. the Node has no such annotation (no simulator claims it) and its name is `<prefix><anything>` or the
//      simulator adopts unclaimed Nodes (`adoptNodes`, on in the sandbox).
// It never runs a real node: one labelled `regatta.dev/node-kind=real` or whose kubelet reports a container runtime
// other than the simulator's (docs/real-nodes.md). A real kubelet registers its Node with both.
// In case 2 it claims the Node by writing the annotation with a resourceVersion precondition, so that two
// simulators sharing a cluster never both run it.
import { type NodeAddressing, nodeAddressing } from './addressing.js';
import {
  PREFIX_ANNOTATION,
  SIMULATED_RUNTIME_VERSION,
  missingLabels,
  nodeLabels,
  type NodeSpec,
} from './node-object.js';
import type { Node } from './types.js';

/** Annotation `"true"`: the node's kubelet stops reporting (as the `notReadyNodes` fault), e.g. from kubectl. */
export const NOT_READY_ANNOTATION = 'sim.regatta.dev/not-ready';
/** Annotation `cpu=4,memory=16Gi,pods=50`: the capacity an adopted node reports (omitted keys: the defaults). */
export const CAPACITY_ANNOTATION = 'sim.regatta.dev/capacity';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** `real` on a Node run by a real kubelet (libs/local-cluster real-node.ts); a simulator never runs it. */
export const NODE_KIND_LABEL = 'regatta.dev/node-kind';

/** Indexes for adopted nodes whose name is not `<prefix><number>`: far above any configured node count. */
export const FOREIGN_INDEX_BASE = 1000;

export interface AdoptionPolicy {
  prefix: string;
  /** Run Nodes no simulator claims, whatever their name. */
  adoptUnclaimed: boolean;
}

/** Whether this simulator runs the Node (see the file comment). */
export function shouldRunNode(node: Node, p: AdoptionPolicy): boolean {
  if (isRealNode(node)) return false;
  const claim = node.metadata.annotations?.[PREFIX_ANNOTATION];
  if (claim !== undefined) return claim === p.prefix;
  if (node.metadata.deletionTimestamp) return false;
  return p.adoptUnclaimed || (node.metadata.name ?? '').startsWith(p.prefix);
}

/** A Node a real kubelet runs: labelled `regatta.dev/node-kind=real`, or reporting a runtime that is not the simulator's. */
export function isRealNode(node: Node): boolean {
  if (node.metadata.labels?.[NODE_KIND_LABEL] === 'real') return true;
  const runtime = node.status?.nodeInfo?.['containerRuntimeVersion'];
  return runtime !== undefined && runtime !== '' && runtime !== SIMULATED_RUNTIME_VERSION;
}

/** `<prefix><k>` → k (k ≥ 1), else undefined: such a node gets the addresses the k-th configured node would. */
export function configuredIndexOf(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^[1-9][0-9]{0,5}$/.test(rest) ? Number(rest) : undefined;
}

/** Whether the Node's kubelet is to be reported down by annotation. */
export function annotatedDown(node: Node): boolean {
  return node.metadata.annotations?.[NOT_READY_ANNOTATION] === 'true';
}

/** `cpu=4,memory=16Gi,pods=50` over the defaults; unknown keys and malformed items are ignored. */
export function parseCapacity(
  text: string | undefined,
  defaults: NodeSpec['capacity'],
): NodeSpec['capacity'] {
  const out = { ...defaults };
  for (const item of (text ?? '').split(',')) {
    const [k, v] = item.split('=').map((x) => x.trim());
    if (!v) continue;
    if (k === 'cpu' || k === 'memory' || k === 'pods') out[k] = v;
  }
  return out;
}

/** The addresses a node already has (pod CIDR, InternalIP) kept; otherwise those of its index. */
function addressingOf(node: Node, prefix: string, index: number): NodeAddressing {
  const base = nodeAddressing(prefix, index);
  const cidr = node.spec?.podCIDR;
  const m = cidr ? /^(\d+\.\d+\.\d+)\.0\/24$/.exec(cidr) : null;
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  return {
    podCIDR: m ? (cidr as string) : base.podCIDR,
    podPrefix: m?.[1] ?? base.podPrefix,
    internalIP: ip ?? base.internalIP,
  };
}

/** What the simulator runs an adopted Node as: its own zone label (else round-robin), capacity annotation. */
export function adoptedNodeSpec(
  node: Node,
  ctx: {
    prefix: string;
    index: number;
    zones: string[];
    labels: Record<string, string>;
    capacity: NodeSpec['capacity'];
    kubeletVersion: string;
    bootID: string;
  },
): NodeSpec {
  const name = node.metadata.name ?? '';
  const zone =
    node.metadata.labels?.[ZONE_LABEL] ??
    ctx.zones[(ctx.index - 1) % Math.max(1, ctx.zones.length)] ??
    'zone-a';
  return {
    name,
    index: ctx.index,
    prefix: ctx.prefix,
    zone,
    labels: { ...ctx.labels },
    capacity: parseCapacity(node.metadata.annotations?.[CAPACITY_ANNOTATION], ctx.capacity),
    taints: [],
    addressing: addressingOf(node, ctx.prefix, ctx.index),
    kubeletVersion: ctx.kubeletVersion,
    bootID: ctx.bootID,
  };
}

/**
 * The merge patch that claims a Node and completes it as kubelet would register it: the claim annotation, the
 * labels it lacks (never a label it has), pod CIDR and provider ID when unset. The resourceVersion makes two
 * claims race safely.
 */
export function adoptionPatch(node: Node, spec: NodeSpec): Record<string, unknown> {
  const labels = missingLabels(node.metadata.labels, nodeLabels(spec));
  const nodeSpec: Record<string, unknown> = {};
  if (!node.spec?.podCIDR) {
    nodeSpec['podCIDR'] = spec.addressing.podCIDR;
    nodeSpec['podCIDRs'] = [spec.addressing.podCIDR];
  }
  if (!node.spec?.providerID) nodeSpec['providerID'] = `regatta-sim://${spec.name}`;
  return {
    metadata: {
      resourceVersion: node.metadata.resourceVersion,
      annotations: { [PREFIX_ANNOTATION]: spec.prefix },
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
    },
    ...(Object.keys(nodeSpec).length > 0 ? { spec: nodeSpec } : {}),
  };
}
