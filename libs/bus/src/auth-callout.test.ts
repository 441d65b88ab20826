import { describe, expect, it } from 'vitest';
import { decode, type AuthorizationResponse, type User } from '@nats-io/jwt';
import { nkeys } from '@nats-io/transport-node';
import { nodeAgentInboxPrefix, nodeAgentPermissions } from '@regatta/runtime';
import {
  calloutResponse,
  decideNodeAgent,
  NODE_NAME_EXTRA,
  parseCalloutRequest,
  POD_NAME_EXTRA,
  tokenExpiry,
  type NodeAgentPolicy,
  type TokenReviewStatus,
} from './auth-callout.js';
import { AuthCalloutRequestError } from './errors.js';

const policy: NodeAgentPolicy = {
  audience: 'regatta-bus',
  serviceAccount: { namespace: 'regatta-system', name: 'regatta-imagepull-agent' },
  prefix: 'p_',
  bucket: 'mirror_nodeimages',
  registration: (node) => `imagepull.agent-${node}`,
};
const SA = 'system:serviceaccount:regatta-system:regatta-imagepull-agent';
const review = (o: { user?: string; extra?: Record<string, string[]>; audiences?: string[] } = {}): TokenReviewStatus => ({
  authenticated: true,
  audiences: o.audiences ?? ['regatta-bus'],
  user: {
    username: o.user ?? SA,
    extra: o.extra ?? { [POD_NAME_EXTRA]: ['agent-x1'], [NODE_NAME_EXTRA]: ['node-1.example'] },
  },
});

describe('decideNodeAgent', () => {
  it("a bound token of the agents' ServiceAccount earns its node's user, with the sandbox's permissions", () => {
    const d = decideNodeAgent(review(), policy);
    expect(d).toEqual({
      ok: true,
      node: 'node-1.example',
      user: 'regatta-node-agent-node-1.example',
      inboxPrefix: nodeAgentInboxPrefix('node-1.example'),
      permissions: nodeAgentPermissions('p_', {
        inboxPrefix: nodeAgentInboxPrefix('node-1.example'),
        bucket: 'mirror_nodeimages',
        key: '_.node-1.example',
        registration: 'imagepull.agent-node-1.example',
      }),
    });
    if (!d.ok) return;
    expect(d.permissions.publish).toContain('$JS.API.DIRECT.GET.KV_p_mirror_nodeimages.$KV.p_mirror_nodeimages._.node-1.example');
    expect(d.permissions.subscribe).toEqual([`${nodeAgentInboxPrefix('node-1.example')}.>`]);
  });

  it.each<[string, TokenReviewStatus, RegExp]>([
    ['not authenticated', { authenticated: false, error: '[invalid bearer token, token has expired]' }, /not authenticated: .*expired/],
    ['not authenticated, no reason', {}, /not authenticated: no reason given/],
    ['another audience', review({ audiences: ['api'] }), /not for audience regatta-bus \(it is for api\)/],
    ['another ServiceAccount', review({ user: 'system:serviceaccount:regatta-system:other' }), /belongs to .*:other, not/],
    ['a user, not a ServiceAccount', review({ user: 'alice' }), /belongs to alice/],
    ['unbound', review({ extra: {} }), /not bound to a pod/],
    ['bound to a secret', review({ extra: { 'authentication.kubernetes.io/credential-id': ['x'] } }), /not bound to a pod/],
    ['no node (older API server)', review({ extra: { [POD_NAME_EXTRA]: ['p'] } }), /names no nodes/],
    ['two nodes', review({ extra: { [POD_NAME_EXTRA]: ['p'], [NODE_NAME_EXTRA]: ['a', 'b'] } }), /names several nodes/],
    ['a wildcard node name', review({ extra: { [POD_NAME_EXTRA]: ['p'], [NODE_NAME_EXTRA]: ['>'] } }), /not a DNS name/],
    ['a node name with a star', review({ extra: { [POD_NAME_EXTRA]: ['p'], [NODE_NAME_EXTRA]: ['a.*'] } }), /not a DNS name/],
  ])('%s: refused', (_, r, reason) => {
    const d = decideNodeAgent(r, policy);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.reason).toMatch(reason);
  });
});

describe('nodeAgentInboxPrefix', () => {
  it('one token per node, stable, distinct for names that differ only by dots', () => {
    expect(nodeAgentInboxPrefix('a.b')).toBe(nodeAgentInboxPrefix('a.b'));
    expect(nodeAgentInboxPrefix('a.b')).not.toBe(nodeAgentInboxPrefix('a-b'));
    expect(nodeAgentInboxPrefix('a.b')).toMatch(/^_INBOX_node_[0-9a-f]{20}$/);
  });
});

describe('tokenExpiry', () => {
  const jwt = (body: object) => `e30.${Buffer.from(JSON.stringify(body)).toString('base64url')}.sig`;
  it.each<[string, string, number | undefined]>([
    ['a JWT with exp', jwt({ exp: 1800000000 }), 1800000000],
    ['no exp', jwt({ sub: 'x' }), undefined],
    ['not a JWT', 'opaque', undefined],
    ['exp not a number', jwt({ exp: 'soon' }), undefined],
  ])('%s', (_, token, want) => {
    expect(tokenExpiry(token)).toBe(want);
  });
});

describe('calloutResponse', () => {
  const issuer = nkeys.createAccount();
  const server = nkeys.createServer();
  const user = nkeys.createUser();
  const req = { userNkey: user.getPublicKey(), serverId: server.getPublicKey(), token: 't', clientName: undefined };

  it('admitted: a user JWT for the connecting nkey, signed by the issuer, with the permissions and the expiry', async () => {
    const d = decideNodeAgent(review(), policy);
    const res = decode<AuthorizationResponse>(await calloutResponse(req, d, issuer, { expires: 1800000000 }));
    expect(res.iss).toBe(issuer.getPublicKey());
    expect(res.aud).toBe(server.getPublicKey());
    expect(res.sub).toBe(user.getPublicKey());
    expect(res.nats.error).toBeUndefined();
    const u = decode<User>(res.nats.jwt!);
    expect(u.sub).toBe(user.getPublicKey());
    expect(u.aud).toBe('$G');
    expect(u.exp).toBe(1800000000);
    expect(u.nats.pub?.allow).toEqual(d.ok ? d.permissions.publish : []);
    expect(u.nats.sub?.allow).toEqual(d.ok ? d.permissions.subscribe : []);
  });

  it('refused: the reason, no user', async () => {
    const res = decode<AuthorizationResponse>(await calloutResponse(req, { ok: false, reason: 'no' }, issuer));
    expect(res.nats.error).toBe('no');
    expect(res.nats.jwt).toBeUndefined();
  });
});

describe('parseCalloutRequest', () => {
  it('a request that is not a signed JWT is an AuthCalloutRequestError', () => {
    expect(() => parseCalloutRequest('a.b.c')).toThrow(AuthCalloutRequestError);
  });
});
