// Every scenario works in namespaces of its own on the shared cluster (docs/adr/0005).
import { randomBytes } from 'node:crypto';
import { isNotFound, type KubeClient } from '@regatta/kube';

/** A short random suffix for names that must not clash between files and runs. */
export const randomId = (bytes = 3): string => randomBytes(bytes).toString('hex');

/** Creates `<prefix>-<random>` with `labels` (e.g. the label a program's namespace selector serves); returns its name. */
export async function createNamespace(
  client: KubeClient,
  prefix: string,
  labels: Record<string, string> = {},
): Promise<string> {
  const name = `${prefix}-${randomId(2)}`;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  created.add(name);
  return name;
}

// the namespaces this test file created (a module per file: vitest isolates files)
const created = new Set<string>();

/**
 * Deletes every namespace this file created with `createNamespace` (without waiting for them to go). Left behind, a
 * whole run's pods filled the shared cluster's five simulated nodes (110 pods each), and the run's later files
 * waited for pods kube-scheduler could not place (tools/testing/namespace-cleanup.ts calls this after each file).
 */
export async function deleteCreatedNamespaces(client: KubeClient): Promise<void> {
  const names = [...created];
  created.clear();
  await Promise.all(
    names.map((name) =>
      client.delete({ apiVersion: 'v1', kind: 'Namespace', name }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      }),
    ),
  );
}
