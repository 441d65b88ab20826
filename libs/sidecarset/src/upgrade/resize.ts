/**
 * In-place resize of injected sidecars (docs/adr/0087-in-place-resource-resize.md, docs/sidecarset.md "Resources
 * resized in place"), the pure parts. Beyond OpenKruise, whose `IsSidecarSetUpgradable`
 * (`pkg/control/sidecarcontrol/sidecarset_control.go`) refuses any change but images: a SidecarSet whose sidecars
 * changed only in images and in cpu/memory requests/limits of existing sidecar containers resizes its pods through
 * `pods/resize` (libs/inplace-update `resize.ts`), then writes the pod's hash annotations as an image upgrade does.
 *
 * What changed is read from the SidecarSet's revision the pod came from (the revision whose without-image hash is
 * the pod's entry: ./revisions.ts stores the containers): every field but the image and `resources` of each
 * container equal, native sidecars (init containers) equal but their images, and every resource change a replace of
 * an existing cpu or memory request or limit (as CloneSet: adding or removing one is no resize). Hot-upgrade sidecars
 * and sidecars with a `resourcesPolicy` (their resources computed per pod at injection) are not resized. A change
 * that would move the pod's QoS class is refused by the API server, so it is not tried.
 */
import { canonicalJson } from '@regatta/api';
import { compareQuantities, isPlainObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import {
  type ContainerResources,
  RESIZABLE_RESOURCES,
  podQosClass,
  readContainerResources,
} from '@regatta/inplace-update';
import { SIDECARSET_HASH_WITHOUT_IMAGE_KEY, SIDECARSET_NAME_LABEL } from './keys.js';
import { podHashEntries } from './pod-state.js';
import type { SidecarContainerView, SidecarSetView } from './types.js';

/** The sidecars of a SidecarSet spec or of one of its revisions. */
export interface SidecarSpecs {
  containers?: readonly unknown[] | null;
  initContainers?: readonly unknown[] | null;
}

/** A revision as the upgrade reads it (ControllerRevision: labels, annotations, `data.spec`). */
export interface SidecarRevisionView {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: unknown;
}

export type SidecarResizePlan =
  | {
      ok: true;
      /** New requests/limits per pod container, for `pods/resize` (only what changed). */
      wanted: Record<string, ContainerResources>;
    }
  | { ok: false; reason: string };

const no = (reason: string): SidecarResizePlan => ({ ok: false, reason });

/** A container without image and resources (`resources` too when `withResources`), as canonical JSON. */
function rest(c: unknown, withResources: boolean): string {
  if (!isPlainObject(c)) return canonicalJson(c);
  return canonicalJson({ ...c, image: undefined, ...(withResources ? {} : { resources: undefined }) });
}

const nameOf = (c: unknown): string => (isPlainObject(c) && typeof c['name'] === 'string' ? c['name'] : '');

/** cpu/memory request and limit changes of one container, or why they are no resize. */
function resourceChanges(
  name: string,
  before: ContainerResources,
  after: ContainerResources,
): ContainerResources | string {
  const out: ContainerResources = {};
  for (const kind of ['limits', 'requests'] as const) {
    const a = before[kind] ?? {};
    const b = after[kind] ?? {};
    for (const r of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const was = a[r];
      const now = b[r];
      if (was === undefined || now === undefined)
        return `${name}: ${kind}.${r} ${was === undefined ? 'added' : 'removed'}`;
      let same: boolean;
      try {
        same = compareQuantities(was, now) === 0;
      } catch {
        return `${name}: ${kind}.${r} is not a quantity`;
      }
      if (same) continue;
      if (!RESIZABLE_RESOURCES.has(r)) return `${name}: only cpu and memory are resized in place (${r})`;
      (out[kind] ??= {})[r] = now;
    }
  }
  return out;
}

/**
 * The resize that brings the pod from the SidecarSet's `before` sidecars (its revision) to `set`'s, or why the
 * change is no resize. `wanted` is empty when only images changed.
 */
export function planSidecarResize(before: SidecarSpecs, set: SidecarSetView, pod: Pod): SidecarResizePlan {
  const old = before.containers ?? [];
  const cur = (set.spec?.containers ?? []) as readonly SidecarContainerView[];
  if (old.length !== cur.length) return no('sidecar containers added or removed');
  const oldInits = (before.initContainers ?? []).map((c) => rest(c, true));
  const curInits = (set.spec?.initContainers ?? []).map((c) => rest(c, true));
  if (canonicalJson(oldInits) !== canonicalJson(curInits))
    return no('init containers changed beyond their images');
  const wanted: Record<string, ContainerResources> = {};
  for (const [i, c] of cur.entries()) {
    const o = old[i];
    if (nameOf(o) !== c.name || rest(o, false) !== rest(c, false))
      return no(`sidecar ${c.name} changed beyond its image and resources`);
    const changes = resourceChanges(
      c.name,
      readContainerResources(isPlainObject(o) ? o['resources'] : undefined),
      readContainerResources(c.resources),
    );
    if (typeof changes === 'string') return no(changes);
    if (!changes.limits && !changes.requests) continue;
    if (c.upgradeStrategy?.upgradeType === 'HotUpgrade')
      return no(`${c.name}: hot-upgrade sidecars are not resized in place`);
    if ((c as { resourcesPolicy?: unknown }).resourcesPolicy)
      return no(`${c.name}: resources computed by resourcesPolicy are not resized in place`);
    const inPod = pod.spec?.containers?.find((x) => x.name === c.name);
    if (!inPod) return no(`${c.name} is not in the pod`);
    wanted[c.name] = changes;
  }
  const after = resizedSpec(pod, wanted);
  const from = podQosClass(pod.spec);
  const to = podQosClass(after);
  if (from !== to) return no(`the resize would move the pod's QoS class from ${from} to ${to}`);
  return { ok: true, wanted };
}

/** The pod's spec with `wanted` applied to its containers (for the QoS class after). */
function resizedSpec(pod: Pod, wanted: Readonly<Record<string, ContainerResources>>): Pod['spec'] {
  return {
    ...pod.spec,
    containers: (pod.spec?.containers ?? []).map((c) => {
      const w = wanted[c.name];
      if (!w) return c;
      return {
        ...c,
        resources: {
          ...c.resources,
          limits: { ...c.resources?.limits, ...w.limits },
          requests: { ...c.resources?.requests, ...w.requests },
        },
      };
    }),
  };
}

/**
 * The SidecarSet's revision the pod's sidecars came from: the one (labelled with the SidecarSet's name) whose
 * without-image hash annotation is the pod's entry; its `data.spec` holds the sidecars then. Undefined when history
 * no longer holds it.
 */
export function podSidecarRevisionSpec(
  set: SidecarSetView,
  pod: Pod,
  revisions: readonly SidecarRevisionView[],
): SidecarSpecs | undefined {
  const name = set.metadata?.name ?? '';
  const hash = podHashEntries(pod, SIDECARSET_HASH_WITHOUT_IMAGE_KEY)[name]?.hash;
  if (!hash) return undefined;
  for (const r of revisions) {
    if (r.metadata?.labels?.[SIDECARSET_NAME_LABEL] !== name) continue;
    if (r.metadata?.annotations?.[SIDECARSET_HASH_WITHOUT_IMAGE_KEY] !== hash) continue;
    const spec = isPlainObject(r.data) ? r.data['spec'] : undefined;
    if (!isPlainObject(spec)) continue;
    const list = (k: string) => (Array.isArray(spec[k]) ? (spec[k] as unknown[]) : []);
    return { containers: list('containers'), initContainers: list('initContainers') };
  }
  return undefined;
}
