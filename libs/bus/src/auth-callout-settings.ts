// The auth callout's settings, read from the environment of the program that runs it (apps/imagepull; the chart sets
// them with `bus.nodeAgentAuth: callout`, docs/operations.md, docs/adr/0059).
import { nkeys } from '@nats-io/transport-node';
import type { KeyPair } from '@nats-io/jwt';
import { seedLine } from './auth.js';
import { BusOptionsError } from './errors.js';

export interface AuthCalloutSettings {
  /** A file holding the issuer's NKEY account seed, `SA…` (`REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE`). */
  issuerSeedFile: string;
  /** The audience the agents' tokens must carry (`REGATTA_AUTH_CALLOUT_AUDIENCE`, default `regatta-bus`). */
  audience: string;
  /** The agents' ServiceAccount, `<namespace>/<name>` (`REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT`). */
  serviceAccount: { namespace: string; name: string };
}

export const DEFAULT_BUS_AUDIENCE = 'regatta-bus';

/** The callout's settings, or undefined when no issuer seed file is set (the callout is off). */
export function readAuthCalloutSettings(
  env: NodeJS.ProcessEnv = process.env,
): AuthCalloutSettings | undefined {
  const v = (name: string) => env[name]?.trim() || undefined;
  const issuerSeedFile = v('REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE');
  if (!issuerSeedFile) return undefined;
  const sa = v('REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT') ?? '';
  const [namespace, name, ...rest] = sa.split('/');
  if (!namespace || !name || rest.length > 0) {
    throw new BusOptionsError(
      `REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT must be <namespace>/<name> of the node agents' ServiceAccount, not ${JSON.stringify(sa)}`,
    );
  }
  return {
    issuerSeedFile,
    audience: v('REGATTA_AUTH_CALLOUT_AUDIENCE') ?? DEFAULT_BUS_AUDIENCE,
    serviceAccount: { namespace, name },
  };
}

/** The issuer key pair of an account seed file: its first line starting with `SA` (as `nk -gen account` writes). */
export function parseIssuerSeed(file: string, content: Uint8Array): KeyPair {
  return nkeys.fromSeed(seedLine(file, content, 'SA', 'NKEY account seed'));
}
