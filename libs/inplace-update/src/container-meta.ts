/**
 * Containers and the pod metadata they read: env from `metadata.labels['k']` / `metadata.annotations['k']`
 * (downward API), the env-from-metadata hash the node daemon reports, and container update priorities.
 */
import type { Container, Pod } from '@regatta/lifecycle';
import { deepHashJsonBytes, goJson } from '@regatta/revision';
import {
  CONTAINER_BARRIER_ENV,
  CONTAINER_LAUNCH_PRIORITY_KEY,
  CONTAINER_PRIORITY_ENV,
  EXCLUDED_METADATA_ENVS,
} from './keys.js';

/** k8s `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['k']` → `['metadata.labels', 'k']`; undefined otherwise. */
export function splitSubscriptedPath(fieldPath: string): [path: string, subscript: string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return undefined;
  return [s.slice(0, i), s.slice(i + 2)];
}

/** The env vars that read pod metadata through a subscripted fieldRef (no literal value, not a SidecarSet version env). */
export function metadataEnvs(c: Container): { name: string; path: string; key: string }[] {
  const out: { name: string; path: string; key: string }[] = [];
  for (const env of c.env ?? []) {
    if ((env.value ?? '') !== '' || !env.valueFrom?.fieldRef || EXCLUDED_METADATA_ENVS.has(env.name))
      continue;
    const split = splitSubscriptedPath(env.valueFrom.fieldRef.fieldPath);
    if (split) out.push({ name: env.name, path: split[0], key: split[1] });
  }
  return out;
}

/** `IsContainerReferenceToMeta`: the container has an env from `path` (`metadata.labels` / `metadata.annotations`) key `key`. */
export function isContainerReferenceToMeta(
  c: Container,
  path: 'metadata.labels' | 'metadata.annotations',
  key: string,
): boolean {
  return metadataEnvs(c).some((e) => e.path === path && e.key === key);
}

/**
 * `EnvFromMetadataHasher.GetExpectHash`: the container's label/annotation envs resolved against `meta`, sorted by
 * name, JSON-encoded as `[]EnvVar{name, value}` and hashed with `DeepHashObject(fnv32a)`. The node daemon reports the
 * same hash of what the running container got in `runtime-containers-meta`.
 */
export function envFromMetadataHash(
  c: Container,
  meta: {
    labels?: Readonly<Record<string, string>> | undefined;
    annotations?: Readonly<Record<string, string>> | undefined;
  },
): number {
  const envs: { name: string; value: string }[] = [];
  for (const e of metadataEnvs(c)) {
    if (e.path === 'metadata.annotations')
      envs.push({ name: e.name, value: meta.annotations?.[e.key] ?? '' });
    else if (e.path === 'metadata.labels') envs.push({ name: e.name, value: meta.labels?.[e.key] ?? '' });
  }
  envs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Go: json.Marshal([]EnvVar) — field order name, value (omitted when empty); a nil slice is `null`
  const json =
    envs.length === 0
      ? 'null'
      : `[${envs.map((e) => `{"name":${goJson(e.name)}${e.value !== '' ? `,"value":${goJson(e.value)}` : ''}}`).join(',')}]`;
  return deepHashJsonBytes(json);
}

const GO_ATOI = /^[+-]?\d+$/;

function atoi(s: string): number {
  return GO_ATOI.test(s) ? Number(s) : 0;
}

/**
 * The update priority of each container (higher first; `undefined` = no priority, always in the current batch).
 * Upstream reads only the `KRUISE_CONTAINER_BARRIER` env the pod webhook injects (`p_<n>` → n, unparsable → 0).
 * When no container of the pod carries a barrier (the webhook did not run), the webhook's own rule is applied
 * instead: `apps.kruise.io/container-launch-priority: Ordered` → container i gets `-i`; else, when containers declare
 * different `KRUISE_CONTAINER_PRIORITY` values, each gets its value (0 when unset). A documented Regatta choice.
 */
export function containerPriorities(pod: Pod): Map<string, number | undefined> {
  const containers = pod.spec?.containers ?? [];
  const out = new Map<string, number | undefined>();
  const hasBarrier = containers.some((c) => (c.env ?? []).some((e) => e.name === CONTAINER_BARRIER_ENV));
  if (hasBarrier) {
    for (const c of containers) {
      const barrier = (c.env ?? []).find((e) => e.name === CONTAINER_BARRIER_ENV);
      const key = barrier?.valueFrom?.configMapKeyRef?.key;
      out.set(c.name, barrier === undefined ? undefined : atoi((key ?? '').slice(2)));
    }
    return out;
  }
  if (containers.length <= 1) {
    for (const c of containers) out.set(c.name, undefined);
    return out;
  }
  if (pod.metadata?.annotations?.[CONTAINER_LAUNCH_PRIORITY_KEY] === 'Ordered') {
    containers.forEach((c, i) => out.set(c.name, i === 0 ? 0 : -i));
    return out;
  }
  const declared = containers.map((c) => {
    const v = (c.env ?? []).find((e) => e.name === CONTAINER_PRIORITY_ENV)?.value;
    return v !== undefined && GO_ATOI.test(v) ? Number(v) : 0;
  });
  const differ = declared.some((p) => p !== declared[0]);
  containers.forEach((c, i) => out.set(c.name, differ ? declared[i] : undefined));
  return out;
}
