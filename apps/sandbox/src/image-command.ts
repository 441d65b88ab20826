// `regatta sandbox image push --dir D SOURCE NAME:TAG` (docs/real-nodes.md "Images"): a user's own image, a docker-style
// tarball or an OCI image layout folder, into the sandbox's registry, where the real nodes pull `NAME:TAG` from.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { imagePushArgs, missingNodeComponents, nodeBinaries, readEndpoints } from '@regatta/local-cluster';
import { UsageError } from './controllers.js';

const run = promisify(execFile);

/** Pushes `source` as `image`; resolves with the pushed reference (`127.0.0.1:PORT/library/app@sha256:…`). */
export async function sandboxImagePush(dir: string, source: string, image: string): Promise<string> {
  const endpoints = (await readEndpoints(dir).catch((err: unknown) => {
    throw new UsageError(`${dir} is not the folder of a running sandbox (${(err as Error).message})`);
  })) as { registry?: string };
  if (!endpoints.registry) {
    throw new UsageError(
      `the sandbox in ${dir} has no registry: it runs no real node (sandbox up --real-nodes 1)`,
    );
  }
  if (!existsSync(source)) throw new UsageError(`${source}: no such tarball or OCI layout folder`);
  if (missingNodeComponents().includes('crane')) {
    throw new UsageError("crane is not built: run 'bash tools/controlplane/build.sh crane'");
  }
  const { stdout } = await run(nodeBinaries().crane, imagePushArgs(source, image, endpoints.registry));
  return stdout.trim();
}
