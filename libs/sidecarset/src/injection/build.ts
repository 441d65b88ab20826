/**
 * One SidecarSet's containers as injected into one pod (OpenKruise `pkg/webhook/pod/mutating/sidecarset.go`
 * `buildSidecars`, `pkg/control/sidecarcontrol/util.go` `GetInjectedVolumeMountsAndEnvs`, `GetSidecarTransferEnvs`,
 * `GetInjectedVolumeDevices`, `pkg/util/pods.go` `Merge*`): shared volume mounts and devices, transferred env,
 * `IS_INJECTED=true`, the volumes the sidecars use, hot-upgrade twins.
 */
import { SidecarSetEnvs } from '@regatta/api';
import { hotUpgradeTwins, isHotUpgrade, type HotUpgradeAnnotations } from './hot-upgrade.js';
import { isNativeSidecar } from './native-sidecar.js';
import { withResourcesPolicy } from './resources-policy.js';
import {
  podContainers,
  type AnySidecarSet,
  type Container,
  type EnvVar,
  type Pod,
  type SidecarContainer,
  type Volume,
  type VolumeDevice,
} from './types.js';

const SUB_PATH_EXPR_VAR = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;

const envsOf = (c: Container): EnvVar[] => (c.env ?? []) as EnvVar[];
const devicesOf = (c: Container): VolumeDevice[] => (c['volumeDevices'] ?? []) as VolumeDevice[];

/** A container the webhook injected earlier (env `IS_INJECTED=true`). */
export function isInjectedContainer(c: Container): boolean {
  return envsOf(c).some((e) => e.name === SidecarSetEnvs.IsInjected && e.value === 'true');
}

/** Appends the `additional` env vars whose names are not there yet (`util.MergeEnvVar`, first occurrence wins). */
export function mergeEnv(original: readonly EnvVar[], additional: readonly EnvVar[]): EnvVar[] {
  const names = new Set(original.map((e) => e.name));
  const out = [...original];
  for (const e of additional) {
    if (names.has(e.name)) continue;
    out.push(e);
    names.add(e.name);
  }
  return out;
}

/** The app containers' mounts (shareVolumePolicy enabled) and the env their `subPathExpr` references. */
export function sharedMountsAndEnvs(
  sidecar: SidecarContainer,
  pod: Pod,
): { mounts: Container['volumeMounts']; envs: EnvVar[] } {
  if (sidecar.shareVolumePolicy?.type !== 'enabled') return { mounts: [], envs: [] };
  const mounts: NonNullable<Container['volumeMounts']> = [];
  const envs: EnvVar[] = [];
  for (const app of podContainers(pod)) {
    if (isInjectedContainer(app)) continue;
    for (const m of app.volumeMounts ?? []) {
      mounts.push(m);
      const expr = typeof m['subPathExpr'] === 'string' ? m['subPathExpr'] : '';
      for (const [, name] of expr.matchAll(SUB_PATH_EXPR_VAR)) {
        const env = envsOf(app).find((e) => e.name === name);
        if (env) envs.push(env);
      }
    }
  }
  return { mounts, envs };
}

/** The app containers' volumeDevices (shareVolumeDevicePolicy enabled). */
export function sharedDevices(sidecar: SidecarContainer, pod: Pod): VolumeDevice[] {
  if (sidecar.shareVolumeDevicePolicy?.type !== 'enabled') return [];
  return podContainers(pod)
    .filter((c) => !isInjectedContainer(c))
    .flatMap(devicesOf);
}

/** `metadata.labels['k']` / `metadata.annotations['k']` of the pod, else undefined (upstream skips the entry). */
function fieldRefValue(fieldPath: string, pod: Pod): string | undefined {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (!m) return undefined;
  const map = m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations;
  return map?.[m[2] ?? ''] ?? '';
}

/** The env vars `transferEnv` copies from the source containers, in order (`GetSidecarTransferEnvs`). */
export function transferEnvs(sidecar: SidecarContainer, pod: Pod): EnvVar[] {
  const out: EnvVar[] = [];
  for (const t of sidecar.transferEnv ?? []) {
    const names = [...new Set([...(t.envName ? [t.envName] : []), ...(t.envNames ?? [])])].sort();
    let source = t.sourceContainerName ?? '';
    const fieldPath = t.sourceContainerNameFrom?.fieldRef?.fieldPath;
    if (fieldPath) {
      const v = fieldRefValue(fieldPath, pod);
      if (v === undefined) continue;
      source = v;
    }
    const container = podContainers(pod).find((c) => c.name === source);
    for (const name of names) {
      const env = container && envsOf(container).find((e) => e.name === name);
      if (env) out.push(env);
    }
  }
  return out;
}

/** Mounts first from the sidecar, then shared ones whose path is free (`util.MergeVolumeMounts`). */
function mergeMounts(
  c: Container,
  additional: NonNullable<Container['volumeMounts']>,
): Container['volumeMounts'] {
  const used = new Set([
    ...(c.volumeMounts ?? []).map((m) => m.mountPath),
    ...devicesOf(c).map((d) => d.devicePath),
  ]);
  const out = [...(c.volumeMounts ?? [])];
  for (const m of additional) {
    if (used.has(m.mountPath)) continue;
    out.push(m);
    used.add(m.mountPath);
  }
  return out;
}

function mergeDevices(c: Container, additional: readonly VolumeDevice[]): VolumeDevice[] {
  const used = new Set([
    ...devicesOf(c).map((d) => d.devicePath),
    ...(c.volumeMounts ?? []).map((m) => m.mountPath),
  ]);
  const out = [...devicesOf(c)];
  for (const d of additional) {
    if (used.has(d.devicePath)) continue;
    out.push(d);
    used.add(d.devicePath);
  }
  return out;
}

/** One sidecar container, merged for `pod`: mounts, `IS_INJECTED`, transferred env, devices. */
export function mergedSidecar(sidecar: SidecarContainer, pod: Pod): SidecarContainer {
  const { mounts, envs: subPathEnvs } = sharedMountsAndEnvs(sidecar, pod);
  const transferred = mergeEnv(transferEnvs(sidecar, pod), subPathEnvs);
  const c: SidecarContainer = structuredClone(sidecar);
  const volumeMounts = mergeMounts(c, mounts ?? []);
  if (volumeMounts?.length) c.volumeMounts = volumeMounts;
  c.env = mergeEnv([...envsOf(c), { name: SidecarSetEnvs.IsInjected, value: 'true' }], transferred);
  const devices = mergeDevices(c, sharedDevices(sidecar, pod));
  if (devices.length) c['volumeDevices'] = devices;
  return c;
}

/** What one SidecarSet adds to a pod. */
export interface BuiltSidecars {
  containers: SidecarContainer[];
  initContainers: SidecarContainer[];
  volumes: Volume[];
  imagePullSecrets: { name?: string }[];
  /** `sidecarList` of the hash annotations: containers and native-sidecar init containers, sorted, base names. */
  sidecarList: string[];
  hotUpgrade: HotUpgradeAnnotations;
}

/**
 * §5.2 step 5 for one SidecarSet (at pod creation). `sidecarNames`: every container name of the matched SidecarSets,
 * which resourcesPolicy never targets.
 */
export function buildSidecars(
  s: AnySidecarSet,
  pod: Pod,
  sidecarNames: ReadonlySet<string> = new Set(),
): BuiltSidecars {
  const volumesByName = new Map((s.spec.volumes ?? []).map((v) => [v.name, v]));
  const out: BuiltSidecars = {
    containers: [],
    initContainers: [],
    volumes: [],
    imagePullSecrets: [...(s.spec.imagePullSecrets ?? [])],
    sidecarList: [],
    hotUpgrade: { annotations: {}, working: {} },
  };
  const useVolumes = (c: Container) => {
    for (const ref of [...(c.volumeMounts ?? []), ...devicesOf(c)]) {
      const v = volumesByName.get(ref.name);
      if (v) out.volumes.push(v);
    }
  };
  const place = (list: SidecarContainer[], c: SidecarContainer, hotAllowed: boolean) => {
    if (hotAllowed && isHotUpgrade(c)) {
      const twins = hotUpgradeTwins(c);
      list.push(...twins.containers);
      Object.assign(out.hotUpgrade.annotations, twins.annotations);
      out.hotUpgrade.working[c.name] = twins.containers[0].name;
    } else list.push(c);
  };
  for (const init of s.spec.initContainers ?? []) {
    if (isNativeSidecar(init)) out.sidecarList.push(init.name);
    useVolumes(init);
    const merged = mergedSidecar(withResourcesPolicy(init, pod, sidecarNames), pod);
    place(out.initContainers, merged, isNativeSidecar(init));
  }
  for (const sidecar of s.spec.containers ?? []) {
    out.sidecarList.push(sidecar.name);
    useVolumes(sidecar);
    place(out.containers, mergedSidecar(withResourcesPolicy(sidecar, pod, sidecarNames), pod), true);
  }
  out.sidecarList = [...new Set(out.sidecarList)].sort();
  return out;
}
