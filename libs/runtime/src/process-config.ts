import { InvalidOptionsError } from './errors.js';
import { defaultIdentity } from './leader-election.js';

/** What every Regatta program reads from its environment, besides KUBECONFIG and NATS_URL. */
export interface ProcessConfig {
  /** Probes and metrics: `REGATTA_HEALTH_ADDR` (`host:port`), default `0.0.0.0:8081`. */
  health: { host: string; port: number };
  /** Leader-election identity: `POD_NAME`, else `<hostname>_<uuid>`. */
  identity: string;
  /** Where the program's Lease lives: `REGATTA_LEASE_NAMESPACE` or `POD_NAMESPACE`, default `kube-system`. */
  leaseNamespace: string;
}

export function parseHostPort(what: string, value: string): { host: string; port: number } {
  const i = value.lastIndexOf(':');
  const host = i > 0 ? value.slice(0, i) : '0.0.0.0';
  const port = Number(i >= 0 ? value.slice(i + 1) : value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidOptionsError(what, `'${value}' is not host:port (for example 127.0.0.1:8081)`);
  }
  return { host, port };
}

export function readProcessConfig(env: NodeJS.ProcessEnv = process.env): ProcessConfig {
  return {
    health: parseHostPort('REGATTA_HEALTH_ADDR', env['REGATTA_HEALTH_ADDR'] || '0.0.0.0:8081'),
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
