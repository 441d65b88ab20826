// A production NATS (docs/adr/0045): TLS with client certificates, NKEY users, and an operator-mode server whose
// users hold credentials files (a JWT signed by their account, and the NKEY seed). Each with a real nats-server
// of its own; a Regatta bus client connects with each method and is refused without it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { nkeys } from '@nats-io/transport-node';
import {
  createCertificateAuthority,
  freePorts,
  startNatsServer,
  ManagedProcess,
  natsConfig,
} from '@regatta/local-cluster';
import { BusOptionsError, BusRefusedError, BusUnavailableError, connectBus, type Bus, type BusAuth } from './index.js';

const SERVER_NAME = 'nats.regatta.test';
let dir: string;
const servers: ManagedProcess[] = [];
const buses: Bus[] = [];
let tlsUrl: string;
let operatorUrl: string;
const f = (name: string) => join(dir, name);

/** A nats-server with `conf` added to the bus's configuration (JetStream on), or without JetStream. */
async function startNats(name: string, conf: string, jetStream = true): Promise<string> {
  const [port, monitor] = (await freePorts(2)) as [number, number];
  const base = jetStream
    ? natsConfig({ port, monitorPort: monitor, storeDir: f(`${name}-js`) })
    : `listen: "127.0.0.1:${port}"\nhttp: "127.0.0.1:${monitor}"\n`;
  servers.push(await startNatsServer({ dir, name, config: base + conf, monitorPort: monitor }));
  return `nats://127.0.0.1:${port}`;
}

// NATS JWTs (the format nsc writes): header.claims.signature, base64url, signed with the issuer's NKEY
const b64 = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
function natsJwt(issuer: nkeys.KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const header = b64(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
  const claims = b64(
    JSON.stringify({
      jti: b64(crypto.getRandomValues(new Uint8Array(24))),
      iat: Math.floor(Date.now() / 1000),
      iss: issuer.getPublicKey(),
      name,
      sub: subject,
      nats: { ...nats, version: 2 },
    }),
  );
  return `${header}.${claims}.${b64(issuer.sign(new TextEncoder().encode(`${header}.${claims}`)))}`;
}
const NO_LIMITS = { subs: -1, data: -1, payload: -1 };
function credsFile(account: nkeys.KeyPair, user: nkeys.KeyPair): string {
  const jwt = natsJwt(account, user.getPublicKey(), 'regatta-cloneset', { type: 'user', pub: {}, sub: {}, ...NO_LIMITS });
  const seed = new TextDecoder().decode(user.getSeed());
  return [
    '-----BEGIN NATS USER JWT-----',
    jwt,
    '------END NATS USER JWT------',
    '',
    '-----BEGIN USER NKEY SEED-----',
    seed,
    '------END USER NKEY SEED------',
    '',
  ].join('\n');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regatta-nats-tls-'));
  // the webhooks' certificate code (libs/runtime) issues the server's and the client's certificates
  const ca = await createCertificateAuthority('regatta-bus-ca');
  const other = await createCertificateAuthority('someone-else');
  const server = await ca.issueServing([SERVER_NAME]);
  const client = await ca.issueClient('regatta-cloneset');
  const stranger = await other.issueClient('regatta-cloneset');
  const user = nkeys.createUser();
  for (const [name, text] of Object.entries({
    'ca.crt': ca.certPem,
    'server.crt': server.certPem,
    'server.key': server.keyPem,
    'client.crt': client.certPem,
    'client.key': client.keyPem,
    'stranger.crt': stranger.certPem,
    'stranger.key': stranger.keyPem,
    'cloneset.nk': new TextDecoder().decode(user.getSeed()) + '\n',
    'other.nk': new TextDecoder().decode(nkeys.createUser().getSeed()) + '\n',
  }))
    await writeFile(f(name), text, { mode: 0o600 });

  // TLS required, client certificates verified against the CA, one NKEY user and one password user
  tlsUrl = await startNats(
    'nats-tls',
    [
      'tls {',
      `  cert_file: ${JSON.stringify(f('server.crt'))}`,
      `  key_file: ${JSON.stringify(f('server.key'))}`,
      `  ca_file: ${JSON.stringify(f('ca.crt'))}`,
      '  verify: true',
      // the handshake's limit (default 2 s) is for a loaded test machine, not the point of the test
      '  timeout: 10',
      '}',
      'authorization {',
      '  users: [',
      `    { nkey: ${JSON.stringify(user.getPublicKey())} }`,
      '    { user: "watcher", password: "s3cret" }',
      '  ]',
      '}',
      '',
    ].join('\n'),
  );

  // operator mode: the account's JWT preloaded, users authenticate with credentials files (no JetStream here: it
  // would need a system account, and this server only shows who may connect)
  const operator = nkeys.createOperator();
  const account = nkeys.createAccount();
  const operatorJwt = natsJwt(operator, operator.getPublicKey(), 'regatta-test', { type: 'operator' });
  const accountJwt = natsJwt(operator, account.getPublicKey(), 'REGATTA', {
    type: 'account',
    limits: { ...NO_LIMITS, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 },
  });
  await writeFile(f('cloneset.creds'), credsFile(account, nkeys.createUser()), { mode: 0o600 });
  // a user signed by an account the server does not know
  await writeFile(f('stranger.creds'), credsFile(nkeys.createAccount(), nkeys.createUser()), { mode: 0o600 });
  await writeFile(f('operator.jwt'), operatorJwt);
  operatorUrl = await startNats(
    'nats-operator',
    [
      `operator: ${JSON.stringify(f('operator.jwt'))}`,
      'resolver: MEMORY',
      `resolver_preload: { ${account.getPublicKey()}: ${JSON.stringify(accountJwt)} }`,
      '',
    ].join('\n'),
    false,
  );
}, 60_000);

afterAll(async () => {
  for (const b of buses) await b.close();
  for (const s of servers) await s.stop();
  await rm(dir, { recursive: true, force: true });
});

async function connect(servers: string, auth: BusAuth): Promise<Bus> {
  const b = await connectBus({ servers, name: 'regatta-cloneset', auth, connectTimeoutMs: 10_000 });
  buses.push(b);
  return b;
}
const refusal = (servers: string, auth: BusAuth) => connect(servers, auth).then(() => undefined, (e: unknown) => e);

describe('the bus over TLS with NKEY users', () => {
  const tls = () => ({
    caFile: f('ca.crt'),
    certFile: f('client.crt'),
    keyFile: f('client.key'),
    serverName: SERVER_NAME,
  });

  it('connects with the CA, a client certificate, the server name and an NKEY seed file, and uses JetStream', async () => {
    const bus = await connect(tlsUrl, { nkeySeedFile: f('cloneset.nk'), tls: tls() });
    expect(bus.nc.info?.tls_required).toBe(true);
    expect((await (await jetstreamManager(bus.nc)).getAccountInfo()).streams).toBeGreaterThanOrEqual(0);
  });

  it('user and password still work over TLS', async () => {
    const bus = await connect(tlsUrl, { user: 'watcher', pass: 's3cret', tls: tls() });
    await bus.nc.flush();
  });

  it('is refused without credentials, or with a seed the server does not list', async () => {
    expect(await refusal(tlsUrl, { tls: tls() })).toBeInstanceOf(BusRefusedError);
    const err = await refusal(tlsUrl, { nkeySeedFile: f('other.nk'), tls: tls() });
    expect(err).toBeInstanceOf(BusRefusedError);
    expect((err as BusRefusedError).code).toBe('REGATTA_BUS_REFUSED');
  });

  it('is refused when it cannot check the server: no CA (the system trust) or a name the certificate lacks', async () => {
    const noCa = await refusal(tlsUrl, { nkeySeedFile: f('cloneset.nk'), tls: { ...tls(), caFile: undefined } });
    expect(noCa).toBeInstanceOf(BusUnavailableError);
    const wrongName = await refusal(tlsUrl, { nkeySeedFile: f('cloneset.nk'), tls: { ...tls(), serverName: undefined } });
    expect(wrongName).toBeInstanceOf(BusUnavailableError);
    expect((wrongName as Error).message).toMatch(/altnames|IP|certificate/i);
  });

  it('is refused without a client certificate, or with one of another authority', async () => {
    const { certFile: _c, keyFile: _k, ...noClient } = tls();
    // the server ends the TLS handshake: no connection, whatever the credentials
    expect(await refusal(tlsUrl, { nkeySeedFile: f('cloneset.nk'), tls: noClient })).toBeInstanceOf(BusUnavailableError);
    const stranger = { ...tls(), certFile: f('stranger.crt'), keyFile: f('stranger.key') };
    expect(await refusal(tlsUrl, { nkeySeedFile: f('cloneset.nk'), tls: stranger })).toBeInstanceOf(BusUnavailableError);
  });

  it('a settings mistake is its own error before any connection: a missing file, two methods', async () => {
    const missing = await refusal(tlsUrl, { nkeySeedFile: f('nope.nk'), tls: tls() });
    expect(missing).toBeInstanceOf(BusOptionsError);
    expect((missing as Error).message).toContain('nope.nk');
    const two = await refusal(tlsUrl, { nkeySeedFile: f('cloneset.nk'), user: 'watcher', pass: 's3cret' });
    expect(two).toBeInstanceOf(BusOptionsError);
  });

  it('reads its settings from the environment when the caller gives none (NATS_NKEY_SEED_FILE, NATS_TLS_*)', async () => {
    const vars = {
      NATS_NKEY_SEED_FILE: f('cloneset.nk'),
      NATS_TLS_CA_FILE: f('ca.crt'),
      NATS_TLS_CERT_FILE: f('client.crt'),
      NATS_TLS_KEY_FILE: f('client.key'),
      NATS_TLS_SERVER_NAME: SERVER_NAME,
    };
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      const bus = await connectBus({ servers: tlsUrl, name: 'regatta-cloneset', connectTimeoutMs: 10_000 });
      buses.push(bus);
      await bus.nc.flush();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe('the bus with a credentials file (operator mode)', () => {
  it('connects with the .creds file of a user of a known account', async () => {
    const bus = await connect(operatorUrl, { credsFile: f('cloneset.creds') });
    await bus.nc.flush();
    expect(bus.nc.info?.auth_required).toBe(true);
  });

  it('is refused without one, or with a user of an unknown account', async () => {
    expect(await refusal(operatorUrl, {})).toBeInstanceOf(BusRefusedError);
    expect(await refusal(operatorUrl, { credsFile: f('stranger.creds') })).toBeInstanceOf(BusRefusedError);
  });
});
