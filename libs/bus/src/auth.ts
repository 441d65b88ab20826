import { readFileSync } from 'node:fs';
import {
  credsAuthenticator,
  nkeyAuthenticator,
  nkeys,
  tokenAuthenticator,
  usernamePasswordAuthenticator,
  type Authenticator,
  type NodeConnectionOptions,
} from '@nats-io/transport-node';
import { BusOptionsError } from './errors.js';

/** How a program proves who it is to NATS, and how it checks the server (docs/adr/0045). */
export interface BusAuth {
  /** User and password (`NATS_USER`, `NATS_PASSWORD`; docs/adr/0006). */
  user?: string;
  pass?: string;
  /** A NATS credentials file: the user's JWT and its NKEY seed (`NATS_CREDS_FILE`; operator/JWT mode servers). */
  credsFile?: string;
  /** A file holding one NKEY user seed, `SU…` (`NATS_NKEY_SEED_FILE`; servers listing `nkey:` users). */
  nkeySeedFile?: string;
  /**
   * A file holding a token, sent as the connection's `auth_token` (`NATS_TOKEN_FILE`): a node agent's projected
   * ServiceAccount token, which the auth callout reviews (docs/adr/0059). Re-read on every (re)connection.
   */
  tokenFile?: string;
  tls?: BusTls;
}

/** TLS towards the server. Any field set turns TLS on; the server must then offer it. */
export interface BusTls {
  /** PEM bundle of the authorities that sign the server's certificate (`NATS_TLS_CA_FILE`); default: the system's. */
  caFile?: string;
  /** Client certificate and key, PEM, for servers that verify clients (`NATS_TLS_CERT_FILE`, `NATS_TLS_KEY_FILE`). */
  certFile?: string;
  keyFile?: string;
  /** The name the server's certificate must carry when it differs from the URL's host (`NATS_TLS_SERVER_NAME`). */
  serverName?: string;
}

/** The variables `readBusAuth` reads, in the order a person sets them. */
export const BUS_AUTH_ENV = [
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_CREDS_FILE',
  'NATS_NKEY_SEED_FILE',
  'NATS_TOKEN_FILE',
  'NATS_TLS_CA_FILE',
  'NATS_TLS_CERT_FILE',
  'NATS_TLS_KEY_FILE',
  'NATS_TLS_SERVER_NAME',
] as const;

/** The bus credentials and TLS settings of a program's environment (empty values count as unset). */
export function readBusAuth(env: NodeJS.ProcessEnv = process.env): BusAuth {
  const v = (name: (typeof BUS_AUTH_ENV)[number]) => env[name]?.trim() || undefined;
  const tls: BusTls = {
    caFile: v('NATS_TLS_CA_FILE'),
    certFile: v('NATS_TLS_CERT_FILE'),
    keyFile: v('NATS_TLS_KEY_FILE'),
    serverName: v('NATS_TLS_SERVER_NAME'),
  };
  return dropUndefined({
    user: v('NATS_USER'),
    // a password is taken as given: spaces may be part of it
    pass: env['NATS_PASSWORD'] || undefined,
    credsFile: v('NATS_CREDS_FILE'),
    nkeySeedFile: v('NATS_NKEY_SEED_FILE'),
    tokenFile: v('NATS_TOKEN_FILE'),
    tls: Object.values(tls).some((x) => x !== undefined) ? dropUndefined(tls) : undefined,
  });
}

/** Which method a BusAuth names; throws BusOptionsError when it names several, or half of one. */
export function authMethod(a: BusAuth): 'none' | 'user' | 'creds' | 'nkey' | 'token' {
  const methods = [
    ...(a.user !== undefined || a.pass !== undefined ? (['user'] as const) : []),
    ...(a.credsFile !== undefined ? (['creds'] as const) : []),
    ...(a.nkeySeedFile !== undefined ? (['nkey'] as const) : []),
    ...(a.tokenFile !== undefined ? (['token'] as const) : []),
  ];
  if (methods.length > 1) {
    throw new BusOptionsError(
      `more than one way to authenticate is set (${methods.join(', ')}); set only one of NATS_USER/NATS_PASSWORD, ` +
        'NATS_CREDS_FILE, NATS_NKEY_SEED_FILE or NATS_TOKEN_FILE',
    );
  }
  if (methods[0] === 'user' && (a.user === undefined || a.pass === undefined)) {
    throw new BusOptionsError('NATS_USER and NATS_PASSWORD go together; one of them is unset');
  }
  if ((a.tls?.certFile === undefined) !== (a.tls?.keyFile === undefined)) {
    throw new BusOptionsError('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together; one of them is unset');
  }
  return methods[0] ?? 'none';
}

/** The file contents an authenticator needs, read when the connection (or a reconnection) authenticates. */
export type ReadFile = (path: string) => Uint8Array;

const readFile: ReadFile = (path) => {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new BusOptionsError(`cannot read ${path}: ${(err as Error).message}`, err);
  }
};

/**
 * The `connect` options of a BusAuth: an authenticator, and the TLS options of @nats-io/transport-node (a server
 * name goes to Node's `servername`). Files are read on every (re)connection, so a rotated Secret is picked up
 * without a restart; `check` reads each once now so a wrong path fails at start, not on the first reconnect.
 */
export function connectionAuth(
  a: BusAuth,
  read: ReadFile = readFile,
): Pick<NodeConnectionOptions, 'authenticator' | 'tls'> {
  const method = authMethod(a);
  let authenticator: Authenticator | undefined;
  if (method === 'user') authenticator = usernamePasswordAuthenticator(a.user!, a.pass!);
  if (method === 'creds') {
    const file = a.credsFile!;
    read(file);
    authenticator = credsAuthenticator(() => read(file));
  }
  if (method === 'nkey') {
    const file = a.nkeySeedFile!;
    const seed = () => parseNkeySeed(file, read(file));
    seed();
    authenticator = nkeyAuthenticator(seed);
  }
  if (method === 'token') {
    const file = a.tokenFile!;
    const token = () => new TextDecoder().decode(read(file)).trim();
    if (!token()) throw new BusOptionsError(`${file} holds no token`);
    authenticator = tokenAuthenticator(token);
  }
  let tls: NodeConnectionOptions['tls'];
  if (a.tls) {
    for (const f of [a.tls.caFile, a.tls.certFile, a.tls.keyFile]) if (f !== undefined) read(f);
    // Node's tls.connect option; the transport passes the object through
    const servername: { servername?: string } = a.tls.serverName ? { servername: a.tls.serverName } : {};
    tls = {
      ...dropUndefined({ caFile: a.tls.caFile, certFile: a.tls.certFile, keyFile: a.tls.keyFile }),
      ...servername,
    };
  }
  return dropUndefined({ authenticator, tls });
}

/**
 * The seed of an NKEY seed file: the first line starting with `SU` (a user seed); `nsc` and `nk` write it alone
 * or between comment lines.
 */
export function parseNkeySeed(file: string, content: Uint8Array): Uint8Array {
  return seedLine(file, content, 'SU', 'NKEY user seed');
}

/**
 * The first line of a seed file starting with `prefix` (`SU` a user's, `SA` an account's), checked to be a valid
 * seed; `what` names it in the errors.
 */
export function seedLine(file: string, content: Uint8Array, prefix: string, what: string): Uint8Array {
  const line = new TextDecoder()
    .decode(content)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.startsWith(prefix));
  if (!line) throw new BusOptionsError(`${file} holds no ${what} (a line starting with ${prefix})`);
  const seed = new TextEncoder().encode(line);
  try {
    nkeys.fromSeed(seed);
  } catch (err) {
    throw new BusOptionsError(`${file} holds no valid ${what}: ${(err as Error).message}`, err);
  }
  return seed;
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
