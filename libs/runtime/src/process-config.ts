import { InvalidOptionsError } from './errors.js';
import { defaultIdentity } from './leader-election.js';

/** A listen address. */
export interface HostPort {
  host: string;
  port: number;
}

/** What every Regatta program reads from its environment, besides KUBECONFIG and NATS_URL. */
export interface ProcessConfig {
  /** Probes and metrics: `REGATTA_HEALTH_ADDR` (`host:port`), default `<defaultListenHost>:8081`. */
  health: HostPort;
  /**
   * Admission webhooks (controllers): `REGATTA_WEBHOOK_ADDR` (`host:port`); undefined when unset (no webhooks
   * served). A value without a host takes `defaultListenHost`.
   */
  webhook: HostPort | undefined;
  /** Leader-election identity: `POD_NAME`, else `<hostname>_<uuid>`. */
  identity: string;
  /** Where the program's Lease lives: `REGATTA_LEASE_NAMESPACE` or `POD_NAMESPACE`, default `kube-system`. */
  leaseNamespace: string;
}

/**
 * The host a server listens on when its address names none. Inside a pod (the kubelet sets
 * `KUBERNETES_SERVICE_HOST` in every container) probes and the API server's webhook calls arrive on the
 * pod IP, so all IPv4 interfaces (`0.0.0.0`); anywhere else (a laptop, the sandbox, CI) only loopback, so a
 * program run by hand never exposes its metrics or webhooks to the network.
 */
export function defaultListenHost(env: NodeJS.ProcessEnv = process.env): string {
  return env['KUBERNETES_SERVICE_HOST'] ? '0.0.0.0' : '127.0.0.1';
}

/**
 * Parses `host:port`; `:port` and `port` take `defaultHost` (by default `defaultListenHost()`).
 * Bracketed IPv6 hosts (`[::1]:8081`) are returned without brackets.
 */
export function parseHostPort(
  what: string,
  value: string,
  defaultHost: string = defaultListenHost(),
): HostPort {
  const i = value.lastIndexOf(':');
  const rawHost = i > 0 ? value.slice(0, i) : defaultHost;
  const host = rawHost.startsWith('[') && rawHost.endsWith(']') ? rawHost.slice(1, -1) : rawHost;
  const portText = i >= 0 ? value.slice(i + 1) : value;
  const port = Number(portText);
  if (portText.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidOptionsError(what, `'${value}' is not host:port (for example 127.0.0.1:8081)`);
  }
  return { host, port };
}

export function readProcessConfig(env: NodeJS.ProcessEnv = process.env): ProcessConfig {
  const host = defaultListenHost(env);
  const webhookAddr = env['REGATTA_WEBHOOK_ADDR'];
  return {
    health: parseHostPort('REGATTA_HEALTH_ADDR', env['REGATTA_HEALTH_ADDR'] || `${host}:8081`, host),
    webhook: webhookAddr ? parseHostPort('REGATTA_WEBHOOK_ADDR', webhookAddr, host) : undefined,
    identity: env['POD_NAME'] || defaultIdentity(),
    leaseNamespace: env['REGATTA_LEASE_NAMESPACE'] || env['POD_NAMESPACE'] || 'kube-system',
  };
}

/**
 * A namespace scope from `key=value[,key=value]` (e.g. `REGATTA_NAMESPACE_SELECTOR`): the labels a namespace must
 * carry. Undefined when unset or empty.
 */
export function parseNamespaceScope(
  what: string,
  value: string | undefined,
): { matchLabels: Record<string, string> } | undefined {
  if (!value?.trim()) return undefined;
  const matchLabels: Record<string, string> = {};
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq <= 0 || key === '') {
      throw new InvalidOptionsError(
        what,
        `'${value}' is not key=value[,key=value] (for example team=payments)`,
      );
    }
    matchLabels[key] = part.slice(eq + 1).trim();
  }
  return { matchLabels };
}
