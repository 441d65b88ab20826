// The kubelet's check of env vars read from ConfigMaps (`valueFrom.configMapKeyRef`) when it creates a container:
// a missing ConfigMap or key that is not `optional` keeps the container from being created (waiting,
// CreateContainerConfigError, event Failed "Error: …") until it exists; the kubelet retries on its next pod sync.
// Container launch priority relies on it (OpenKruise's barrier env reads `<pod>-barrier`, docs/sidecarset.md).
import type { Container, EnvVar } from './types.js';

interface ConfigMapKeySelector {
  name?: string;
  key: string;
  optional?: boolean | null;
}

const keyRefOf = (e: EnvVar): ConfigMapKeySelector | undefined =>
  (e.valueFrom?.['configMapKeyRef'] ?? undefined) as ConfigMapKeySelector | undefined;

/** How often a container waiting for a ConfigMap key is checked again (the simulator also wakes on ConfigMap changes). */
export const CONFIG_RETRY_MS = 2000;

/** The kubelet's message for the first env var whose ConfigMap or key is missing, or undefined when all resolve. */
export function missingConfigMapRef(
  c: Container | undefined,
  namespace: string,
  data: (namespace: string, name: string) => Readonly<Record<string, string>> | undefined,
): string | undefined {
  for (const e of c?.env ?? []) {
    const ref = keyRefOf(e);
    if (!ref || ref.optional === true) continue;
    const name = ref.name ?? '';
    const cm = data(namespace, name);
    if (cm === undefined) return `configmap "${name}" not found`;
    if (!(ref.key in cm)) return `couldn't find key ${ref.key} in ConfigMap ${namespace}/${name}`;
  }
  return undefined;
}

/** The ConfigMap names a container's env reads. */
export function configMapNamesOf(containers: readonly Container[]): Set<string> {
  const out = new Set<string>();
  for (const c of containers)
    for (const e of c.env ?? []) {
      const name = keyRefOf(e)?.name;
      if (name) out.add(name);
    }
  return out;
}
