// What a node agent (apps/imagepull-agent) may do on the bus (docs/adr/0032): the one place these permissions are
// built (here, beside CONTROLLER_NAMES, so the local cluster and the bus both reach it), for the sandbox's per-node
// users (libs/local-cluster's natsConfig) and for the users the auth callout (libs/bus) issues
// to agents presenting a ServiceAccount token (docs/adr/0059).
import { createHash } from 'node:crypto';

/** What a node agent's permissions name: its inbox prefix, the bucket and key it reads, the registration it writes. */
export interface NodeAgentGrant {
  /** Its own inbox prefix (NATS_INBOX_PREFIX). */
  inboxPrefix: string;
  /** The mirror bucket without the installation prefix (`mirror_nodeimages_v1alpha1_apps-kruise-io`). */
  bucket: string;
  /** The key of the node's object in it (`_.<node>`). */
  key: string;
  /** The registration key it may write (`imagepull.agent-<node>`). */
  registration: string;
}

/** Publish and subscribe allow-lists, as nats-server's `permissions` and a user JWT's `pub`/`sub` take them. */
export interface BusPermissions {
  publish: string[];
  subscribe: string[];
}

/**
 * What a node agent may do (docs/adr/0032): open its bucket, watch and get its one key (the consumer-create and
 * direct-get subjects name the key, and the server checks a consumer's filter against the subject), answer flow
 * control, write its one registration; receive only on its own inbox prefix. Nothing else of the bus is readable.
 */
/**
 * Mirror buckets every node agent reads whole: ContainerRecreateRequests (libs/bus `bucketName` of the kind; the
 * recreate duty keeps only its node's, by label) and pods (the container meta duty keeps its node's, by
 * `spec.nodeName`). Not confined to the node: the watcher writes no per-node view of them yet (docs/adr/0075,
 * docs/adr/0084); a pod's spec names its secrets but holds none of their values.
 */
export const NODE_AGENT_SHARED_BUCKETS = [
  'mirror_containerrecreaterequests_v1alpha1_apps-kruise-io',
  'mirror_pods_v1_core',
] as const;

export function nodeAgentPermissions(prefix: string, a: NodeAgentGrant): BusPermissions {
  const bucket = `${prefix}${a.bucket}`;
  const stream = `KV_${bucket}`;
  const subject = `$KV.${bucket}.${a.key}`;
  const registrations = `${prefix}regatta_registrations`;
  const shared = NODE_AGENT_SHARED_BUCKETS.flatMap((b) => {
    const s = `KV_${prefix}${b}`;
    return [
      `$JS.API.STREAM.INFO.${s}`,
      `$JS.API.CONSUMER.CREATE.${s}.*.$KV.${prefix}${b}.>`,
      `$JS.API.CONSUMER.INFO.${s}.*`,
      `$JS.API.DIRECT.GET.${s}.>`,
      `$JS.FC.${s}.>`,
    ];
  });
  return {
    publish: [
      ...shared,
      '$JS.API.INFO',
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.STREAM.INFO.KV_${registrations}`,
      `$JS.API.CONSUMER.CREATE.${stream}.*.${subject}`,
      `$JS.API.CONSUMER.INFO.${stream}.*`,
      `$JS.API.DIRECT.GET.${stream}.${subject}`,
      `$JS.FC.${stream}.>`,
      `$KV.${registrations}.${a.registration}`,
    ],
    subscribe: [`${a.inboxPrefix}.>`],
  };
}

/**
 * The inbox prefix of a node's agent when its user is issued by the auth callout: derived from the node name, so
 * the agent and the callout agree without sharing anything (a hash: node names may hold dots, and `a.b`/`a-b` must
 * not collide). Only that agent's user may subscribe under it.
 */
export function nodeAgentInboxPrefix(node: string): string {
  return `_INBOX_node_${createHash('sha256').update(node).digest('hex').slice(0, 20)}`;
}
