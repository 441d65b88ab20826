// Every scenario works in namespaces of its own on the shared cluster (docs/adr/0005).
import { randomBytes } from 'node:crypto';
import type { KubeClient } from '@regatta/kube';

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
  return name;
}
