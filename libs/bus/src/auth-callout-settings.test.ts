import { describe, expect, it } from 'vitest';
import { nkeys } from '@nats-io/transport-node';
import { parseIssuerSeed, readAuthCalloutSettings } from './auth-callout-settings.js';
import { BusOptionsError } from './errors.js';

describe('readAuthCalloutSettings', () => {
  it.each<[string, NodeJS.ProcessEnv, ReturnType<typeof readAuthCalloutSettings>]>([
    ['off without an issuer', { REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT: 'ns/sa' }, undefined],
    [
      'the default audience',
      { REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE: '/i.nk', REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT: 'regatta-system/agent' },
      { issuerSeedFile: '/i.nk', audience: 'regatta-bus', serviceAccount: { namespace: 'regatta-system', name: 'agent' } },
    ],
    [
      'an audience of its own',
      { REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE: '/i.nk', REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT: 'a/b', REGATTA_AUTH_CALLOUT_AUDIENCE: 'bus' },
      { issuerSeedFile: '/i.nk', audience: 'bus', serviceAccount: { namespace: 'a', name: 'b' } },
    ],
  ])('%s', (_, env, want) => {
    expect(readAuthCalloutSettings(env)).toEqual(want);
  });

  it.each(['', 'agent', 'a/b/c', '/b'])('the ServiceAccount %j is refused', (sa) => {
    expect(() =>
      readAuthCalloutSettings({ REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE: '/i.nk', REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT: sa }),
    ).toThrow(BusOptionsError);
  });
});

describe('parseIssuerSeed', () => {
  const account = nkeys.createAccount();
  it('the account seed of the file, among comment lines', () => {
    const file = new TextEncoder().encode(`# issuer\n${new TextDecoder().decode(account.getSeed())}\n`);
    expect(parseIssuerSeed('/i.nk', file).getPublicKey()).toBe(account.getPublicKey());
  });
  it.each([
    ['a user seed', new TextDecoder().decode(nkeys.createUser().getSeed()), /no NKEY account seed/],
    ['a broken seed', 'SAXXXX', /no valid NKEY account seed/],
  ])('%s is refused', (_, text, message) => {
    expect(() => parseIssuerSeed('/i.nk', new TextEncoder().encode(text))).toThrow(message);
  });
});
