// The kubelet's downward-API env resolution, for the part the simulator needs: env vars that read a pod label or
// annotation (`valueFrom.fieldRef.fieldPath` = `metadata.labels['k']` / `metadata.annotations['k']`) get their value
// when a container instance is created, and keep it for that instance's life, whatever happens to the pod's
// metadata later. Other fieldRefs (metadata.name, status.podIP, …) are not resolved: nothing reads them.
import { splitSubscriptedPath } from '@regatta/inplace-update';
import type { Container, ObjectMeta } from './types.js';

/** The pod metadata a container's env reads: the label or annotation key of each such env var, by env name. */
export function metadataEnvRefs(
  c: Container | undefined,
): { name: string; path: 'metadata.labels' | 'metadata.annotations'; key: string }[] {
  const out: { name: string; path: 'metadata.labels' | 'metadata.annotations'; key: string }[] = [];
  for (const e of c?.env ?? []) {
    const fieldPath = e.valueFrom?.fieldRef?.fieldPath;
    if (fieldPath === undefined) continue;
    const split = splitSubscriptedPath(fieldPath);
    if (split?.[0] === 'metadata.labels' || split?.[0] === 'metadata.annotations')
      out.push({ name: e.name, path: split[0], key: split[1] });
  }
  return out;
}

/**
 * The values a new instance of the container gets for its label/annotation env vars, by env name (a missing key
 * resolves to '' as in the kubelet). Later entries of the same name win, like duplicate env names in a container.
 */
export function resolveMetadataEnv(
  c: Container | undefined,
  meta: Pick<ObjectMeta, 'labels' | 'annotations'>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const r of metadataEnvRefs(c)) {
    const source = r.path === 'metadata.labels' ? meta.labels : meta.annotations;
    env[r.name] = source?.[r.key] ?? '';
  }
  return env;
}
