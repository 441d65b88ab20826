// The node agents' bus users, issued per connection by a NATS auth callout (docs/adr/0059): an agent presents its
// pod's bound ServiceAccount token, the API server reviews it (TokenReview), and the user the callout answers with
// may do exactly what the sandbox's per-node user may (nodeAgentPermissions, docs/adr/0032). These are the pure
// steps: the review's result to a decision, and the decision to the signed response nats-server expects.
import { decode, encodeAuthorizationResponse, encodeUser, type AuthorizationRequest } from '@nats-io/jwt';
import type { KeyPair } from '@nats-io/jwt';
import { nodeAgentInboxPrefix, nodeAgentPermissions, type BusPermissions } from '@regatta/runtime';
import { AuthCalloutRequestError } from './errors.js';

/** The TokenReview `user.extra` key naming the node of the pod a token is bound to (Kubernetes 1.32+). */
export const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';
/** The TokenReview `user.extra` key naming the pod a token is bound to; unbound tokens have none. */
export const POD_NAME_EXTRA = 'authentication.kubernetes.io/pod-name';
/** The subject nats-server sends its authorization requests to. */
export const AUTH_CALLOUT_SUBJECT = '$SYS.REQ.USER.AUTH';
/** The account a callout-issued user joins when nats-server runs without accounts (its global account). */
export const GLOBAL_ACCOUNT = '$G';

/** The `status` of an authentication.k8s.io/v1 TokenReview. */
export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

/** Who may be a node agent, and what a node agent's permissions name. */
export interface NodeAgentPolicy {
  /** The audience the agents' projected tokens carry (`regatta-bus`); the review asks for it. */
  audience: string;
  /** The agents' ServiceAccount. */
  serviceAccount: { namespace: string; name: string };
  /** The installation's bucket prefix (REGATTA_BUS_PREFIX). */
  prefix: string;
  /** The NodeImage mirror bucket, without the prefix. */
  bucket: string;
  /** The registration key of a node's agent (`imagepull.agent-<node>`). */
  registration: (node: string) => string;
}

export type NodeAgentDecision =
  | { ok: true; node: string; user: string; inboxPrefix: string; permissions: BusPermissions }
  | { ok: false; reason: string };

// a Node's name: a DNS subdomain (no NATS wildcards, no spaces)
const NODE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The bus user a reviewed token earns: the token must be authenticated for the policy's audience, belong to the
 * agents' ServiceAccount and be bound to a pod on a named node. Anything else is a refusal with its reason.
 */
export function decideNodeAgent(review: TokenReviewStatus, policy: NodeAgentPolicy): NodeAgentDecision {
  const refuse = (reason: string): NodeAgentDecision => ({ ok: false, reason });
  if (review.authenticated !== true) return refuse(`token not authenticated: ${review.error || 'no reason given'}`);
  if (!(review.audiences ?? []).includes(policy.audience)) {
    return refuse(`token is not for audience ${policy.audience} (it is for ${(review.audiences ?? []).join(', ') || 'none'})`);
  }
  const want = `system:serviceaccount:${policy.serviceAccount.namespace}:${policy.serviceAccount.name}`;
  const username = review.user?.username ?? '';
  if (username !== want) return refuse(`token belongs to ${username || 'nobody'}, not ${want}`);
  const extra = review.user?.extra ?? {};
  if (!extra[POD_NAME_EXTRA]?.[0]) return refuse('token is not bound to a pod');
  const nodes = extra[NODE_NAME_EXTRA] ?? [];
  if (nodes.length !== 1 || !nodes[0]) return refuse(`token names ${nodes.length === 0 ? 'no' : 'several'} nodes`);
  const node = nodes[0];
  if (!NODE_NAME.test(node) || node.length > 253) return refuse(`node name ${JSON.stringify(node)} is not a DNS name`);
  const inboxPrefix = nodeAgentInboxPrefix(node);
  return {
    ok: true,
    node,
    user: `regatta-node-agent-${node}`,
    inboxPrefix,
    permissions: nodeAgentPermissions(policy.prefix, {
      inboxPrefix,
      bucket: policy.bucket,
      key: `_.${node}`,
      registration: policy.registration(node),
    }),
  };
}

/** The parts of an authorization request the callout reads (the request is a JWT signed by the server). */
export interface CalloutRequest {
  userNkey: string;
  serverId: string;
  token: string | undefined;
  clientName: string | undefined;
}

/** Decodes and checks the signature of nats-server's authorization request JWT (unencrypted; no xkey). */
export function parseCalloutRequest(jwt: string): CalloutRequest {
  let req: Partial<AuthorizationRequest> | undefined;
  try {
    req = decode<AuthorizationRequest>(jwt).nats;
  } catch (err) {
    throw new AuthCalloutRequestError((err as Error).message, err);
  }
  if (!req?.user_nkey || !req.server_id?.id) throw new AuthCalloutRequestError('no user_nkey or server_id');
  return {
    userNkey: req.user_nkey,
    serverId: req.server_id.id,
    token: req.connect_opts?.auth_token || undefined,
    clientName: req.connect_opts?.name || undefined,
  };
}

/**
 * The `exp` (seconds since the epoch) of a JWT such as a ServiceAccount token, read without checking the signature
 * (the TokenReview did); undefined when it has none or is not a JWT.
 */
export function tokenExpiry(token: string): number | undefined {
  try {
    const body = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof body.exp === 'number' && Number.isFinite(body.exp) ? body.exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The signed answer to an authorization request: a user JWT with the decision's permissions, expiring with the
 * token (nats-server closes the connection then; the agent reconnects with its refreshed token), or the refusal.
 */
export async function calloutResponse(
  req: CalloutRequest,
  decision: NodeAgentDecision,
  issuer: KeyPair,
  o: { account?: string; expires?: number } = {},
): Promise<string> {
  if (!decision.ok) {
    return encodeAuthorizationResponse(req.userNkey, req.serverId, issuer, { error: decision.reason }, {});
  }
  const user = await encodeUser(
    decision.user,
    req.userNkey,
    issuer,
    {
      pub: { allow: decision.permissions.publish, deny: [] },
      sub: { allow: decision.permissions.subscribe, deny: [] },
    },
    { aud: o.account ?? GLOBAL_ACCOUNT, ...(o.expires !== undefined ? { exp: o.expires } : {}) },
  );
  return encodeAuthorizationResponse(req.userNkey, req.serverId, issuer, { jwt: user }, {});
}
