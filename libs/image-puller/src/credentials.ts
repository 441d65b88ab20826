// Registry credentials from pull secrets (`kubernetes.io/dockerconfigjson` or `kubernetes.io/dockercfg`), as
// kruise-daemon's `pkg/util/secret` matches them to an image: entries whose registry is the image's, in the secret
// order given. Pure: the agent reads the Secrets from the API server.
import type { AuthConfig } from '@regatta/cri';

export interface SecretData {
  type?: string;
  /** base64 values, as the API server returns them. */
  data?: Record<string, string>;
}

interface DockerEntry {
  username?: string;
  password?: string;
  auth?: string;
}

const DOCKER_HUB = 'docker.io';

/** The registry host of an image name (`nginx` → docker.io, `registry.k8s.io/pause` → registry.k8s.io). */
export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return DOCKER_HUB;
  const first = image.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost'
    ? normalizeRegistry(first)
    : DOCKER_HUB;
}

/** `https://index.docker.io/v1/` → docker.io; scheme and path dropped. */
export function normalizeRegistry(server: string): string {
  const host = server.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '');
  return host === 'index.docker.io' || host === 'registry-1.docker.io' ? DOCKER_HUB : host;
}

function decode(b64: string): string {
  return Buffer.from(b64, 'base64').toString('utf8');
}

function entriesOf(secret: SecretData): Record<string, DockerEntry> {
  try {
    if (secret.data?.['.dockerconfigjson']) {
      const cfg = JSON.parse(decode(secret.data['.dockerconfigjson'])) as {
        auths?: Record<string, DockerEntry>;
      };
      return cfg.auths ?? {};
    }
    if (secret.data?.['.dockercfg'])
      return JSON.parse(decode(secret.data['.dockercfg'])) as Record<string, DockerEntry>;
  } catch {
    // a malformed secret gives no credentials, as upstream skips it
  }
  return {};
}

/** The credentials of `secrets` that apply to `image`, username/password filled from `auth` when only it is set. */
export function credentialsFor(image: string, secrets: SecretData[]): AuthConfig[] {
  const registry = registryOf(image);
  const out: AuthConfig[] = [];
  for (const s of secrets) {
    for (const [server, e] of Object.entries(entriesOf(s))) {
      if (normalizeRegistry(server) !== registry) continue;
      let { username, password } = e;
      if ((!username || !password) && e.auth) {
        const plain = decode(e.auth);
        const colon = plain.indexOf(':');
        if (colon > 0) [username, password] = [plain.slice(0, colon), plain.slice(colon + 1)];
      }
      if (username) out.push({ username, password: password ?? '', serverAddress: server });
    }
  }
  return out;
}
