// The auth callout as a running service (docs/adr/0059): it answers nats-server's authorization requests on
// `$SYS.REQ.USER.AUTH`, reviewing each presented token with the API server. The decisions are auth-callout.ts's.
import { readFileSync } from 'node:fs';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { KeyPair } from '@nats-io/jwt';
import type { KubeClient } from '@regatta/kube';
import {
  AUTH_CALLOUT_SUBJECT,
  calloutResponse,
  decideNodeAgent,
  parseCalloutRequest,
  tokenExpiry,
  type NodeAgentPolicy,
  type TokenReviewStatus,
} from './auth-callout.js';
import { parseIssuerSeed, type AuthCalloutSettings } from './auth-callout-settings.js';
import { connectBus } from './connection.js';
import { BusOptionsError } from './errors.js';

/** Reviews a token for an audience: the API server's TokenReview (`create tokenreviews`). */
export type ReviewToken = (token: string, audience: string) => Promise<TokenReviewStatus>;

/** A TokenReview through a KubeClient. */
export function tokenReviewer(client: KubeClient): ReviewToken {
  return async (token, audience) => {
    const res = await client.request<{ status?: TokenReviewStatus }>(
      'POST',
      '/apis/authentication.k8s.io/v1/tokenreviews',
      {
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token, audiences: [audience] },
        },
      },
    );
    return res.status ?? {};
  };
}

export interface AuthCalloutLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
}

export interface AuthCalloutOptions {
  nc: NatsConnection;
  /** The account key pair whose public key is the `issuer` of the server's `auth_callout` block. */
  issuer: KeyPair;
  policy: NodeAgentPolicy;
  review: ReviewToken;
  log: AuthCalloutLog;
}

/**
 * Subscribes to the authorization requests and answers each: a user JWT for a node agent's valid token, a refusal
 * (logged with its reason) for anything else. A review that fails (API server unreachable) is a refusal too: the
 * client retries its connection. `stop()` unsubscribes.
 */
export function startAuthCallout(o: AuthCalloutOptions): { stop(): void; done: Promise<void> } {
  // a queue group: every replica of the program subscribes, one answers each request
  const sub: Subscription = o.nc.subscribe(AUTH_CALLOUT_SUBJECT, { queue: 'regatta-auth-callout' });
  const done = (async () => {
    for await (const msg of sub) {
      void (async () => {
        let req;
        try {
          req = parseCalloutRequest(msg.string());
        } catch (err) {
          o.log.warn({ err }, 'auth callout: unreadable authorization request ignored');
          return;
        }
        let decision;
        if (!req.token) decision = { ok: false as const, reason: 'no token presented' };
        else {
          try {
            decision = decideNodeAgent(await o.review(req.token, o.policy.audience), o.policy);
          } catch (err) {
            decision = { ok: false as const, reason: `token review failed: ${(err as Error).message}` };
          }
        }
        if (decision.ok) o.log.info({ node: decision.node, client: req.clientName }, 'auth callout: node agent admitted');
        else o.log.warn({ reason: decision.reason, client: req.clientName }, 'auth callout: connection refused');
        const expires = req.token ? tokenExpiry(req.token) : undefined;
        msg.respond(await calloutResponse(req, decision, o.issuer, expires !== undefined ? { expires } : {}));
      })().catch((err: unknown) => o.log.warn({ err }, 'auth callout: answer failed'));
    }
  })();
  return { stop: () => sub.unsubscribe(), done };
}

/**
 * The callout as a program runs it: its issuer read from the settings' seed file, its own bus connection (the
 * program's credentials, which the server lists in `auth_users` and lets subscribe to `$SYS.REQ.USER.AUTH`), the
 * API server's TokenReview through `client`. `stop()` unsubscribes and closes the connection.
 */
export async function runAuthCallout(o: {
  settings: AuthCalloutSettings;
  client: KubeClient;
  log: AuthCalloutLog;
  /** The NodeImage bucket and the agents' registration keys (libs/image-puller's names). */
  bucket: string;
  registration: (node: string) => string;
  name: string;
  read?: (path: string) => Uint8Array;
}): Promise<{ stop(): Promise<void> }> {
  const file = o.settings.issuerSeedFile;
  let seed: Uint8Array;
  try {
    seed = (o.read ?? readFileSync)(file);
  } catch (err) {
    throw new BusOptionsError(`cannot read ${file}: ${(err as Error).message}`, err);
  }
  const issuer = parseIssuerSeed(file, seed);
  const bus = await connectBus({ name: o.name });
  const callout = startAuthCallout({
    nc: bus.nc,
    issuer,
    review: tokenReviewer(o.client),
    log: o.log,
    policy: {
      audience: o.settings.audience,
      serviceAccount: o.settings.serviceAccount,
      prefix: bus.prefix,
      bucket: o.bucket,
      registration: o.registration,
    },
  });
  o.log.info({ issuer: issuer.getPublicKey(), audience: o.settings.audience }, 'auth callout for node agents started');
  return {
    stop: async () => {
      callout.stop();
      await bus.close();
    },
  };
}
