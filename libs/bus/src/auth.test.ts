import { describe, expect, it } from 'vitest';
import { nkeys } from '@nats-io/transport-node';
import { authMethod, connectionAuth, parseNkeySeed, readBusAuth, type BusAuth } from './auth.js';
import { BusOptionsError } from './errors.js';

describe('readBusAuth', () => {
  it.each<[string, NodeJS.ProcessEnv, BusAuth]>([
    ['nothing set', {}, {}],
    ['user and password', { NATS_USER: 'cloneset', NATS_PASSWORD: ' p w ' }, { user: 'cloneset', pass: ' p w ' }],
    ['a credentials file', { NATS_CREDS_FILE: '/etc/regatta/bus/cloneset.creds' }, { credsFile: '/etc/regatta/bus/cloneset.creds' }],
    ['an NKEY seed file', { NATS_NKEY_SEED_FILE: '/etc/regatta/bus/cloneset.nk' }, { nkeySeedFile: '/etc/regatta/bus/cloneset.nk' }],
    ['a token file', { NATS_TOKEN_FILE: '/var/run/secrets/regatta/bus/token' }, { tokenFile: '/var/run/secrets/regatta/bus/token' }],
    ['empty values count as unset', { NATS_USER: '', NATS_PASSWORD: '', NATS_TLS_CA_FILE: ' ' }, {}],
    ['a CA only', { NATS_TLS_CA_FILE: '/tls/ca.crt' }, { tls: { caFile: '/tls/ca.crt' } }],
    [
      'TLS with a client certificate and a server name',
      {
        NATS_TLS_CA_FILE: '/tls/ca.crt',
        NATS_TLS_CERT_FILE: '/tls/tls.crt',
        NATS_TLS_KEY_FILE: '/tls/tls.key',
        NATS_TLS_SERVER_NAME: 'nats.regatta-system.svc',
      },
      {
        tls: {
          caFile: '/tls/ca.crt',
          certFile: '/tls/tls.crt',
          keyFile: '/tls/tls.key',
          serverName: 'nats.regatta-system.svc',
        },
      },
    ],
  ])('%s', (_, env, want) => {
    expect(readBusAuth(env)).toEqual(want);
  });
});

describe('authMethod', () => {
  it.each<[BusAuth, string]>([
    [{}, 'none'],
    [{ user: 'u', pass: 'p' }, 'user'],
    [{ credsFile: 'a.creds' }, 'creds'],
    [{ nkeySeedFile: 'a.nk', tls: { caFile: 'ca' } }, 'nkey'],
    [{ tokenFile: '/token' }, 'token'],
  ])('%j is %s', (a, want) => {
    expect(authMethod(a)).toBe(want);
  });

  it.each<[BusAuth, RegExp]>([
    [{ user: 'u', pass: 'p', credsFile: 'a.creds' }, /more than one way to authenticate is set \(user, creds\)/],
    [{ credsFile: 'a.creds', nkeySeedFile: 'a.nk' }, /\(creds, nkey\)/],
    [{ user: 'u', pass: 'p', tokenFile: '/token' }, /\(user, token\)/],
    [{ user: 'u' }, /NATS_USER and NATS_PASSWORD go together/],
    [{ pass: 'p' }, /NATS_USER and NATS_PASSWORD go together/],
    [{ tls: { certFile: 'tls.crt' } }, /NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together/],
    [{ tls: { keyFile: 'tls.key' } }, /go together/],
  ])('%j is refused', (a, message) => {
    expect(() => authMethod(a)).toThrow(BusOptionsError);
    expect(() => authMethod(a)).toThrow(message);
  });
});

describe('parseNkeySeed', () => {
  const seed = new TextDecoder().decode(nkeys.createUser().getSeed());

  it.each([
    ['the seed alone', `${seed}\n`],
    ['between comment lines (nsc, nk)', `-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`],
    ['with CRLF line ends', `# seed\r\n${seed}\r\n`],
  ])('finds it in %s', (_, text) => {
    expect(new TextDecoder().decode(parseNkeySeed('f', new TextEncoder().encode(text)))).toBe(seed);
  });

  it.each([
    ['no seed line', 'UABC\n', /holds no NKEY user seed/],
    ['a broken seed', 'SUAAAAAAAA\n', /holds no valid NKEY user seed/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseNkeySeed('/etc/seed.nk', new TextEncoder().encode(text))).toThrow(message);
  });
});

describe('connectionAuth', () => {
  const seed = nkeys.createUser().getSeed();
  const files: Record<string, Uint8Array> = { '/s.nk': seed, '/ca.crt': new Uint8Array([1]), '/a.creds': new Uint8Array([1]), '/token': new TextEncoder().encode('tok-1\n'), '/empty': new Uint8Array() };
  const read = (path: string): Uint8Array => {
    const f = files[path];
    if (!f) throw new BusOptionsError(`cannot read ${path}`);
    return f;
  };

  it('no settings: nothing added, the client connects as it always did', () => {
    expect(connectionAuth({}, read)).toEqual({});
  });

  it('TLS: file paths go to the transport, the server name to Node as servername', () => {
    expect(connectionAuth({ tls: { caFile: '/ca.crt', serverName: 'nats.example' } }, read)).toEqual({
      tls: { caFile: '/ca.crt', servername: 'nats.example' },
    });
  });

  it('each method gives an authenticator', () => {
    for (const a of [{ user: 'u', pass: 'p' }, { credsFile: '/a.creds' }, { nkeySeedFile: '/s.nk' }]) {
      expect(typeof connectionAuth(a, read).authenticator, JSON.stringify(a)).toBe('function');
    }
  });

  it('the NKEY authenticator signs the server nonce with the seed', () => {
    const { authenticator } = connectionAuth({ nkeySeedFile: '/s.nk' }, read);
    const sign = authenticator as (nonce?: Uint8Array) => { nkey?: string; sig?: string };
    const got = sign(new TextEncoder().encode('nonce'));
    expect(got.nkey).toBe(nkeys.fromSeed(seed).getPublicKey());
    expect(got.sig).toBeTruthy();
  });

  it('the token authenticator sends the file, trimmed, read again at each (re)connection', () => {
    const { authenticator } = connectionAuth({ tokenFile: '/token' }, read);
    const auth = authenticator as () => { auth_token?: string };
    expect(auth().auth_token).toBe('tok-1');
    files['/token'] = new TextEncoder().encode('tok-2');
    expect(auth().auth_token).toBe('tok-2');
  });

  it.each<[BusAuth, RegExp]>([
    [{ tokenFile: '/missing' }, /cannot read \/missing/],
    [{ tokenFile: '/empty' }, /\/empty holds no token/],
    [{ credsFile: '/missing.creds' }, /cannot read \/missing.creds/],
    [{ nkeySeedFile: '/missing.nk' }, /cannot read \/missing.nk/],
    [{ tls: { caFile: '/missing-ca.crt' } }, /cannot read \/missing-ca.crt/],
  ])('a file that cannot be read fails at once, not on the first connection (%j)', (a, message) => {
    expect(() => connectionAuth(a, read)).toThrow(message);
  });
});
