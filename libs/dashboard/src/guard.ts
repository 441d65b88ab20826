/**
 * What keeps the dashboard the user's own (docs/adr/0083): it listens on loopback only, answers only requests that
 * name it by a loopback host (a page on another site that rebinds its DNS name to 127.0.0.1 sends its own name), and
 * changes the cluster only on a POST that carries the run's token (written into the page it served) from its own
 * origin. Pure: the server (server.ts) asks these before it does anything.
 */
import { RolloutCliError } from '@regatta/rollout-cli';

/** A bad `--address` / `--port`: exit 2 as the CLI's other usage errors. */
export class DashboardUsageError extends RolloutCliError {
  constructor(message: string) {
    super('REGATTA_DASHBOARD_USAGE', message, 2);
  }
}

/** The default port (`kubectl argo rollouts dashboard` takes 3100; this one sits next to it). */
export const DEFAULT_DASHBOARD_PORT = 3110;

/** The header the page sends its token in; a custom header also makes a cross-site request need a CORS preflight. */
export const TOKEN_HEADER = 'x-regatta-token';

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Whether `host` (no port, no brackets) is a loopback name or address: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const m = IPV4_LOOPBACK.exec(h);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

/**
 * Checks `--address`: a loopback address or `localhost` (the dashboard acts with the user's kubeconfig and has no
 * login of its own). Returns the address to listen on.
 */
export function listenAddress(address: string | undefined): string {
  const a = (address ?? '127.0.0.1').trim().replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHost(a)) {
    throw new DashboardUsageError(
      `--address must be a loopback address (127.0.0.1, ::1 or localhost), got ${JSON.stringify(address)}: the ` +
        "dashboard acts with your kubeconfig's rights and has no login; to open it from another machine, forward the " +
        'port (ssh -L 3110:127.0.0.1:3110 host)',
    );
  }
  return a;
}

/** Checks `--port`: 0 (any free port) to 65535. */
export function listenPort(port: string | number | undefined): number {
  const text = String(port ?? DEFAULT_DASHBOARD_PORT);
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new DashboardUsageError(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(port)}`);
  return n;
}

/** The page's address as a browser writes it (IPv6 in brackets). */
export function dashboardUrl(address: string, port: number): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;
}

/** The host of a `Host` header or an origin's authority, without the port and brackets; undefined when malformed. */
function hostOf(authority: string): { host: string; port: string } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/]+)(?::(\d+))?$/.exec(authority);
  if (!m) return undefined;
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port: m[2] ?? '' };
}

/** Why a request is refused, or undefined when it may be answered. */
export type Refusal = { status: 403 | 405; message: string } | undefined;

/** Any request: the `Host` header must name a loopback host on the dashboard's port (no DNS rebinding). */
export function checkHost(hostHeader: string | undefined, port: number): Refusal {
  const h = hostHeader === undefined ? undefined : hostOf(hostHeader);
  if (!h || !isLoopbackHost(h.host) || (h.port !== '' && Number(h.port) !== port) || (h.port === '' && port !== 80)) {
    return {
      status: 403,
      message: `the dashboard answers only to a loopback host on port ${port}, not ${JSON.stringify(hostHeader ?? '')}`,
    };
  }
  return undefined;
}

export interface MutationRequest {
  method: string;
  /** The `Host` header. */
  host: string | undefined;
  /** The `Origin` header (a browser sends it on every POST). */
  origin: string | undefined;
  /** The token header's value. */
  token: string | undefined;
}

/** Constant-time comparison of two tokens of the same length. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * A request that changes the cluster (pause, resume): POST only, from the dashboard's own origin when the browser
 * names one, with the run's token.
 */
export function checkMutation(req: MutationRequest, expectedToken: string, port: number): Refusal {
  if (req.method !== 'POST') return { status: 405, message: `${req.method} is not allowed here: use POST` };
  const host = checkHost(req.host, port);
  if (host) return host;
  if (req.origin !== undefined) {
    let origin: URL | undefined;
    try {
      origin = new URL(req.origin);
    } catch {
      origin = undefined;
    }
    if (!origin || origin.protocol !== 'http:' || origin.host !== req.host) {
      return { status: 403, message: `cross-origin request refused (Origin ${JSON.stringify(req.origin)})` };
    }
  }
  if (!req.token || !sameToken(req.token, expectedToken)) {
    return { status: 403, message: `missing or wrong ${TOKEN_HEADER}: reload the page (the token changes every run)` };
  }
  return undefined;
}
