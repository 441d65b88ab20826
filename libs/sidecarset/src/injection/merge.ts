/**
 * Placement (OpenKruise `pkg/webhook/pod/mutating/sidecarset.go` `mergeSidecarContainers`, `mergeSidecarSecrets`,
 * `pkg/util/pods.go` `MergeVolumes`): a sidecar whose name is in the pod replaces it in place; the others go before
 * (BeforeAppContainer) or after (AfterAppContainer, and any other value) the pod's containers.
 */
import type { Container, SidecarContainer, Volume } from './types.js';

/** The pod's containers with the sidecars placed. The sidecar fields are dropped from what the pod gets. */
export function mergeSidecarContainers(
  origins: readonly Container[],
  injected: readonly SidecarContainer[],
): Container[] {
  const index = new Map(origins.map((c, i) => [c.name, i]));
  const result = [...origins];
  const before: Container[] = [];
  const after: Container[] = [];
  for (const sidecar of injected) {
    const c = toContainer(sidecar);
    const at = index.get(sidecar.name);
    if (at !== undefined) result[at] = c;
    else if (sidecar.podInjectPolicy === 'BeforeAppContainer') before.push(c);
    else after.push(c);
  }
  return [...before, ...result, ...after];
}

/** A core/v1 Container: the SidecarContainer without podInjectPolicy, upgradeStrategy, shareVolume*, transferEnv… */
export function toContainer(s: SidecarContainer): Container {
  const {
    podInjectPolicy: _p,
    upgradeStrategy: _u,
    shareVolumePolicy: _s,
    shareVolumeDevicePolicy: _d,
    transferEnv: _t,
    resourcesPolicy: _r,
    ...container
  } = s;
  return container;
}

/** Pod volumes first; a sidecar volume is added only when no volume of that name exists yet. */
export function mergeVolumes(original: readonly Volume[], additional: readonly Volume[]): Volume[] {
  const names = new Set(original.map((v) => v.name));
  const out = [...original];
  for (const v of additional) {
    if (names.has(v.name)) continue;
    out.push(v);
    names.add(v.name);
  }
  return out;
}

/** imagePullSecrets, deduplicated by name, the pod's first. */
export function mergeSecrets(
  inPod: readonly { name?: string }[],
  inSidecars: readonly { name?: string }[],
): { name?: string }[] {
  const seen = new Set<string>();
  const out: { name?: string }[] = [];
  for (const s of [...inPod, ...inSidecars]) {
    if (seen.has(s.name ?? '')) continue;
    seen.add(s.name ?? '');
    out.push(s);
  }
  return out;
}
