// A Node to create for a simulator (the sandbox's `node add`, tests): kubectl's label and taint syntax. Pure.
import { CAPACITY_ANNOTATION, ZONE_LABEL } from './node-adoption.js';
import { PREFIX_ANNOTATION } from './node-object.js';
import type { Node, Taint } from './types.js';

export class NodeArgumentError extends Error {
  readonly code = 'REGATTA_SIM_NODE_ARGUMENT';
  constructor(message: string) {
    super(message);
    this.name = 'NodeArgumentError';
  }
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** `key=value` (kubectl label). */
export function parseLabelArg(arg: string): [string, string] {
  const i = arg.indexOf('=');
  if (i <= 0) throw new NodeArgumentError(`label ${JSON.stringify(arg)} is not key=value`);
  return [arg.slice(0, i), arg.slice(i + 1)];
}

/** `key[=value]:Effect` (kubectl taint). */
export function parseTaintArg(arg: string): Taint {
  const i = arg.lastIndexOf(':');
  const effect = i < 0 ? '' : arg.slice(i + 1);
  if (!TAINT_EFFECTS.includes(effect)) {
    throw new NodeArgumentError(
      `taint ${JSON.stringify(arg)} is not key[=value]:Effect with Effect one of ${TAINT_EFFECTS.join(', ')}`,
    );
  }
  const kv = arg.slice(0, i);
  const j = kv.indexOf('=');
  const key = j < 0 ? kv : kv.slice(0, j);
  if (!key) throw new NodeArgumentError(`taint ${JSON.stringify(arg)} has no key`);
  return j < 0 ? { key, effect } : { key, value: kv.slice(j + 1), effect };
}

export interface NodeManifestOptions {
  /** The simulator to run it (its name prefix); omitted: any simulator adopting unclaimed nodes (the sandbox's). */
  prefix?: string;
  zone?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  /** `cpu=4,memory=16Gi,pods=50`. */
  capacity?: string;
}

export function simulatedNodeManifest(name: string, o: NodeManifestOptions = {}): Node {
  const annotations: Record<string, string> = {
    ...(o.prefix !== undefined ? { [PREFIX_ANNOTATION]: o.prefix } : {}),
    ...(o.capacity ? { [CAPACITY_ANNOTATION]: o.capacity } : {}),
  };
  const labels = { ...o.labels, ...(o.zone ? { [ZONE_LABEL]: o.zone } : {}) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: o.taints && o.taints.length > 0 ? { taints: o.taints } : {},
  };
}
