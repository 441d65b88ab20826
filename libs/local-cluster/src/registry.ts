// The sandbox's image registry and the stand-in images in it (docs/real-nodes.md): `crane registry serve` on
// 127.0.0.1, and images built without Docker from the static programs in tools/images — a tar of one binary
// (`crane append`, on no base) given its entrypoint and environment (`crane mutate`). Each tag's configuration names
// the image, so every tag has a digest of its own and an image change is a real one.
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { LocalClusterError } from './errors.js';
import { freePort } from './ports.js';
import { ManagedProcess } from './process.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const IMAGES_SRC = fileURLToPath(new URL('../../../tools/images/', import.meta.url));

/** A stand-in: the program in tools/images it runs, the repository (path in the registry) and tag. */
export interface StandIn {
  program: 'pause' | 'http' | 'sleep' | 'slow-stop' | 'exit' | 'agnhost';
  /** As a pod names it (`nginx:1.28`); the registry path adds `library/` for Docker Hub's short names. */
  image: string;
  /**
   * Another stand-in (earlier in the list) this tag is a copy of: the same digest under a second name, as Docker Hub's
   * `nginx:alpine` and `nginx:mainline-alpine` were when OpenKruise's "same imageID" spec was written.
   */
  sameAs?: string;
  /** The entrypoint when not the program (`/bin/sh` for busybox: with no command it exits at once, as busybox does). */
  entrypoint?: string;
}

/**
 * The commands of tools/images/toolbox, linked in /bin of every stand-in (but pause): what `kubectl exec`, exec
 * probes and hooks, and OpenKruise's e2e specs run in a container.
 */
export const TOOLBOX_COMMANDS = [
  'sh',
  'sleep',
  'test',
  '[',
  'true',
  'false',
  'echo',
  'cat',
  'mv',
  'cp',
  'dd',
  'hostname',
  'ls',
  'find',
  'mkdir',
  'touch',
  'rm',
  'env',
  'pwd',
] as const;

/** Where OpenKruise's e2e specs (Kubernetes' `test/utils/image` manifest of v1.32) take their images from. */
const E2E = 'registry.k8s.io/e2e-test-images';

/**
 * The pause image (the pinned sandbox image), HTTP servers under the names our docs and OpenKruise's specs use, and
 * the sleep, slow-stop and exit programs (docs/real-nodes.md "Images").
 */
export const STAND_INS: readonly StandIn[] = [
  { program: 'pause', image: 'registry.k8s.io/pause:3.10' },
  ...['nginx:alpine', 'nginx:latest', 'nginx:1.27', 'nginx:1.28', 'nginx:mainline'].map(
    (image) => ({ program: 'http', image }) as const,
  ),
  ...['regatta/http:v1', 'regatta/http:v2', 'regatta/http:v3'].map(
    (image) => ({ program: 'http', image }) as const,
  ),
  // the names OpenKruise's e2e specs use (a spec's `command` runs the toolbox's commands)
  ...[`${E2E}/nginx:1.14-4`, `${E2E}/nginx:1.15-4`, `${E2E}/httpd:2.4.38-4`, `${E2E}/httpd:2.4.39-4`].map(
    (image) => ({ program: 'http', image }) as const,
  ),
  { program: 'http', image: 'nginx:mainline-alpine', sameAs: 'nginx:alpine' },
  // sleeps until SIGTERM; ignores SIGTERM (a slow stop: the grace period runs out); exits with EXIT_CODE
  ...['regatta/sleep:v1', 'regatta/sleep:v2'].map((image) => ({ program: 'sleep', image }) as const),
  // busybox runs `sh` when given no command, which ends at once without a terminal (OpenKruise's "should not
  // update the next when the previous one failed" spec counts on that); redis serves until stopped
  ...['busybox:latest', 'busybox:1.34', `${E2E}/busybox:1.36.1-1`].map(
    (image) => ({ program: 'sleep', image, entrypoint: '/bin/sh' }) as const,
  ),
  { program: 'sleep', image: `${E2E}/redis:5.0.5-3` },
  // agnhost (the ContainerRecreateRequest specs' second container): `pause` when given no command, as the real one
  { program: 'agnhost', image: `${E2E}/agnhost:2.53` },
  { program: 'slow-stop', image: 'regatta/slow-stop:v1' },
  { program: 'exit', image: 'regatta/exit:v1' },
];

/**
 * Where `image` lives in the sandbox registry: the repository path a mirrored name maps to (containerd sends
 * `docker.io/nginx` as `library/nginx`, `registry.k8s.io/pause` as `pause`).
 */
export function registryPath(image: string): string {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasHost = first.includes('.') || first.includes(':') || first === 'localhost';
  if (hasHost) return image.slice(slash + 1);
  return slash < 0 ? `library/${image}` : image;
}

/** The crane command lines that build one stand-in in `registry` from a layer tar. */
export function standInCommands(s: StandIn, registry: string, layerTar: string): string[][] {
  const ref = `${registry}/${registryPath(s.image)}`;
  if (s.sameAs) return [['copy', '--insecure', `${registry}/${registryPath(s.sameAs)}`, ref]];
  return [
    ['append', '--insecure', '-f', layerTar, '-t', ref],
    [
      'mutate',
      '--insecure',
      ref,
      '--entrypoint',
      s.entrypoint ?? `/${s.program}`,
      '--env',
      `IMAGE=${s.image}`,
      '--env',
      'PATH=/bin:/usr/bin:/usr/local/bin',
      '--set-platform',
      'linux/amd64',
      '-t',
      ref,
    ],
  ];
}

/**
 * `crane push` of a user's image into the sandbox registry (`regatta sandbox image push`): `source` is a docker-style
 * tarball or an OCI image layout folder (crane tells them apart), `image` the name pods use (`myapp:v1`).
 */
export function imagePushArgs(source: string, image: string, registry: string): string[] {
  return ['push', '--insecure', source, `${registry}/${registryPath(image)}`];
}

export interface Registry {
  /** `127.0.0.1:PORT`. */
  address: string;
  process: ManagedProcess;
}

/** Starts `crane registry serve` (in memory) on a free loopback port and waits until it answers `/v2/`. */
export async function startRegistry(o: {
  crane: string;
  logFile: string;
  keepAfterExit?: boolean;
}): Promise<Registry> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const p = ManagedProcess.start(
    {
      name: 'registry',
      command: o.crane,
      args: ['registry', 'serve', '--address', address],
      logFile: o.logFile,
    },
    { keepAfterExit: o.keepAfterExit ?? false },
  );
  await waitFor(
    `the registry on ${address}`,
    async () => {
      p.assertRunning();
      return (await fetch(`http://${address}/v2/`)).status === 200;
    },
    { timeoutMs: 15_000, intervalMs: 100 },
  );
  return { address, process: p };
}

/**
 * Builds tools/images' programs (static, no cgo) into `<workDir>/bin`, a layer tar of each, and pushes every stand-in
 * to the registry. Needs Go (as the node's build does).
 */
export async function pushStandIns(o: {
  crane: string;
  registry: string;
  workDir: string;
  standIns?: readonly StandIn[];
}): Promise<string[]> {
  const standIns = o.standIns ?? STAND_INS;
  const bin = join(o.workDir, 'bin');
  await mkdir(bin, { recursive: true });
  const programs = [...new Set(standIns.map((s) => s.program))];
  const built = [...programs, 'toolbox'];
  try {
    await run(
      'go',
      ['build', '-trimpath', '-ldflags', '-s -w', '-o', `${bin}/`, ...built.map((p) => `./${p}`)],
      {
        cwd: IMAGES_SRC,
        env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '', GOTOOLCHAIN: 'local' },
      },
    );
  } catch (err) {
    throw new LocalClusterError(
      'REGATTA_IMAGE_BUILD',
      `building the stand-in images (tools/images) failed: ${String(err)}`,
    );
  }
  const tars = new Map<string, string>();
  for (const program of programs) {
    const root = join(o.workDir, 'rootfs', program);
    await mkdir(join(root, 'tmp'), { recursive: true });
    await chmod(join(root, 'tmp'), 0o1777);
    await copyFile(join(bin, program), join(root, program));
    await chmod(join(root, program), 0o755);
    if (program !== 'pause') {
      // a shell and coreutils for exec, hooks and the specs' commands: /bin/toolbox and one link per command
      await mkdir(join(root, 'bin'), { recursive: true });
      await copyFile(join(bin, 'toolbox'), join(root, 'bin', 'toolbox'));
      await chmod(join(root, 'bin', 'toolbox'), 0o755);
      for (const c of TOOLBOX_COMMANDS) await symlink('toolbox', join(root, 'bin', c)).catch(() => undefined);
    }
    const tar = join(o.workDir, `${program}.tar`);
    await run('tar', ['--owner=0', '--group=0', '--numeric-owner', '-C', root, '-cf', tar, '.']);
    tars.set(program, tar);
  }
  const pushed: string[] = [];
  for (const s of standIns) {
    for (const args of standInCommands(s, o.registry, tars.get(s.program) ?? '')) {
      await run(o.crane, args).catch((err: unknown) => {
        throw new LocalClusterError('REGATTA_IMAGE_PUSH', `crane ${args.join(' ')} failed: ${String(err)}`);
      });
    }
    pushed.push(s.image);
  }
  await writeFile(join(o.workDir, 'images.txt'), pushed.join('\n') + '\n');
  return pushed;
}
