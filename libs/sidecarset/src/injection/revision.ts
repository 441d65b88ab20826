/**
 * The SidecarSet version a new pod gets (OpenKruise `pkg/webhook/pod/mutating/sidecarset.go`
 * `getSuitableRevisionSidecarSet`, `pkg/control/sidecarcontrol/history_control.go` `GetHistorySidecarSet`): the
 * latest, or the one restored from a ControllerRevision named by `injectionStrategy.revision`.
 */
import { SidecarSetAnnotations, SidecarSetLabels } from '@regatta/api';
import { compileLabelSelector } from '@regatta/kube';
import { InjectionError } from './errors.js';
import type { AnySidecarSet, Pod, SidecarSetRevision } from './types.js';

/** The spec fields a revision records and restores (`copySidecarSetSpecRevision`). */
const REVISION_FIELDS = [
  'volumes',
  'containers',
  'initContainers',
  'imagePullSecrets',
  'patchPodMetadata',
] as const;

/** Newest last: by `revision`, then creation time, then name (`history.SortControllerRevisions`). */
function byRevision(a: SidecarSetRevision, b: SidecarSetRevision): number {
  const r = (a.revision ?? 0) - (b.revision ?? 0);
  if (r !== 0) return r;
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** The revision `injectionStrategy.revision` names: by name, or the newest labelled with the custom version. */
export function pinnedRevision(
  s: AnySidecarSet,
  revisions: readonly SidecarSetRevision[],
): SidecarSetRevision {
  const info = s.spec.injectionStrategy?.revision;
  const name = s.metadata?.name ?? '';
  if (info?.revisionName) {
    const found = revisions.find((r) => r.metadata?.name === info.revisionName);
    if (!found) throw new InjectionError(`SidecarSet ${name}: revision ${info.revisionName} not found`);
    return found;
  }
  const own = revisions
    .filter((r) => r.metadata?.labels?.[SidecarSetLabels.SidecarSetName] === name)
    .filter((r) => r.metadata?.labels?.[SidecarSetLabels.CustomVersion] === info?.customVersion)
    .sort(byRevision);
  const newest = own.at(-1);
  if (!newest) {
    throw new InjectionError(
      `SidecarSet ${name}: no revision with custom version ${info?.customVersion ?? ''}`,
    );
  }
  return newest;
}

/** The SidecarSet as the revision recorded it: its spec fields replaced, its hashes and latestRevision restored. */
export function restoreSidecarSet(s: AnySidecarSet, revision: SidecarSetRevision): AnySidecarSet {
  const recorded = revision.data?.spec ?? {};
  const spec: Record<string, unknown> = { ...s.spec };
  for (const f of REVISION_FIELDS) {
    if (recorded[f] === undefined || recorded[f] === null) delete spec[f];
    else spec[f] = structuredClone(recorded[f]);
  }
  const annotations = { ...(s.metadata?.annotations ?? {}) };
  for (const key of [SidecarSetAnnotations.Hash, SidecarSetAnnotations.HashWithoutImage]) {
    const v = revision.metadata?.annotations?.[key];
    if (v) annotations[key] = v;
  }
  return {
    ...s,
    metadata: { ...s.metadata, annotations },
    spec: spec as AnySidecarSet['spec'],
    status: {
      matchedPods: 0,
      updatedPods: 0,
      readyPods: 0,
      ...s.status,
      latestRevision: revision.metadata?.name ?? '',
    },
  };
}

/** `"30%"` → 0.3 (`util.ParsePercentageAsFloat64`). */
function percentage(v: string): number {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(v.trim());
  if (!m) throw new InjectionError(`partition ${v} is not a percentage`);
  return Number(m[1]) / 100;
}

/**
 * §5.2 step 2: no pinned revision → latest; paused update or policy Always → the pinned one; Partial → the pinned one
 * for pods outside `updateStrategy.selector`, else the pinned one with probability = partition percentage.
 */
export function versionToInject(
  s: AnySidecarSet,
  pod: Pod,
  revisions: readonly SidecarSetRevision[],
  random: () => number = Math.random,
): AnySidecarSet {
  const info = s.spec.injectionStrategy?.revision;
  if (!info || (!info.revisionName && !info.customVersion)) return s;
  const historical = restoreSidecarSet(s, pinnedRevision(s, revisions));
  const update = s.spec.updateStrategy;
  if (update?.paused) return historical;
  if (info.policy !== 'Partial') return historical;
  if (update?.selector && !compileLabelSelector(update.selector).matches(pod.metadata?.labels ?? {})) {
    return historical;
  }
  const partition = update?.partition;
  if (partition === undefined || partition === null || typeof partition === 'number') return s;
  return random() <= percentage(partition) ? historical : s;
}
