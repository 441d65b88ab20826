// What goes into a Regatta program's image (the layout deploy/Dockerfile describes, without a base image): the pinned
// Node binary at /usr/local/bin/node and the shared libraries `ldd` says it loads, at the paths it names; a few files
// of /etc (the numeric user, and `hosts: files dns` so /etc/hosts, where the kubelet writes hostAliases, is read
// first); an empty world-writable /tmp; and the program's bundle in /app. Entrypoint and environment as the
// Dockerfile's. Run as 65532:65532, nothing written outside /tmp, so `readOnlyRootFilesystem: true` works.
import { NODE_FLAGS, PROGRAM_ENV } from '../build/node-flags.mjs';
import type { RunConfig, TarEntry } from './oci.js';

/** The user the image runs as (numeric, so `runAsNonRoot` can check it): distroless' `nonroot`. */
export const IMAGE_USER = 65532;

export const NODE_PATH = 'usr/local/bin/node';

/**
 * The absolute paths of the shared objects `ldd` lists (resolved ones and the interpreter), in its order; vdso and
 * unresolved lines ("not found") are left out — a missing library is an error the caller reports.
 */
export function parseLdd(output: string): { libraries: string[]; missing: string[] } {
  const libraries: string[] = [];
  const missing: string[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('linux-vdso') || line.startsWith('linux-gate')) continue;
    const arrow = /^(\S+)\s+=>\s+(.*)$/.exec(line);
    if (arrow) {
      const target = arrow[2] ?? '';
      if (target.startsWith('not found')) missing.push(arrow[1] ?? '');
      else {
        const path = /^(\/\S+)/.exec(target)?.[1];
        if (path) libraries.push(path);
      }
      continue;
    }
    const direct = /^(\/\S+)/.exec(line)?.[1];
    if (direct) libraries.push(direct);
  }
  return { libraries: [...new Set(libraries)], missing };
}

/** /etc/passwd, /etc/group and /etc/nsswitch.conf of the image. */
export function etcFiles(user = IMAGE_USER): TarEntry[] {
  const text = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
  return [
    {
      type: 'file',
      path: 'etc/passwd',
      mode: 0o644,
      data: text(
        `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${user}:${user}:nonroot:/tmp:/sbin/nologin\n`,
      ),
    },
    { type: 'file', path: 'etc/group', mode: 0o644, data: text(`root:x:0:\nnonroot:x:${user}:\n`) },
    // glibc without this file asks DNS first and stops at its NXDOMAIN: /etc/hosts (hostAliases) would be unread
    { type: 'file', path: 'etc/nsswitch.conf', mode: 0o644, data: text('hosts: files dns\n') },
    { type: 'dir', path: 'tmp', mode: 0o1777 },
  ];
}

/** The base layer's entries: /etc, /tmp, the libraries at their paths (contents given) and Node. */
export function baseEntries(node: Uint8Array, libraries: ReadonlyMap<string, Uint8Array>): TarEntry[] {
  const out: TarEntry[] = [...etcFiles()];
  for (const [path, data] of [...libraries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push({ type: 'file', path: path.replace(/^\/+/, ''), mode: 0o755, data });
  }
  out.push({ type: 'file', path: NODE_PATH, mode: 0o755, data: node });
  return out;
}

/** The program layer: every file of its bundle folder under /app, read-only for all. */
export function appEntries(files: ReadonlyMap<string, Uint8Array>): TarEntry[] {
  return [...files].map(([name, data]) => ({ type: 'file', path: `app/${name}`, mode: 0o644, data }));
}

/** Entrypoint, environment and user: deploy/Dockerfile's, with Node by absolute path. */
export function runConfig(o: { app: string; version: string }): RunConfig {
  return {
    User: `${IMAGE_USER}:${IMAGE_USER}`,
    Env: [
      'PATH=/usr/local/bin:/usr/bin:/bin',
      'NODE_ENV=production',
      ...Object.entries(PROGRAM_ENV).map(([k, v]) => `${k}=${v}`),
    ],
    Entrypoint: [`/${NODE_PATH}`, ...NODE_FLAGS, '/app/main.mjs'],
    WorkingDir: '/app',
    ExposedPorts: { '8081/tcp': {}, '9443/tcp': {} },
    Labels: {
      'org.opencontainers.image.title': `regatta-${o.app}`,
      'org.opencontainers.image.version': o.version,
      'org.opencontainers.image.source': 'deploy/Dockerfile (layout), tools/release (builder)',
    },
  };
}
