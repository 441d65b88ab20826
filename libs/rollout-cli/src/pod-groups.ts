/**
 * The pods of the `rollout status --watch` view, grouped as the kind rolls them out: by revision (update revision
 * first, then the current one, then older ones) for CloneSet, Advanced StatefulSet and Advanced DaemonSet; by sidecar
 * hash (the SidecarSet's entry in the pod's `kruise.io/sidecarset-hash`, docs/sidecarset.md) for a SidecarSet; by
 * subset (`apps.kruise.io/subset-name`, docs/uniteddeployment.md) for a UnitedDeployment. Pods not at the update
 * revision are marked: kept by the partition when that is certain, else not yet updated.
 */
import { UnitedDeploymentLabels, type Pod } from '@regatta/api';
import { isPodAtRevision, podRevision } from '@regatta/revision';
import type { RolloutKind } from '@regatta/workload';
import { podRow, type PodRow, type RolloutWindow } from './pod-rows.js';

/** `not updated`: to be updated by this rollout; `partition`: kept at its revision by the partition. */
export type PodMark = '' | 'not updated' | 'partition';

export interface ViewRow extends PodRow {
  mark: PodMark;
}

export interface PodGroup {
  title: string;
  rows: ViewRow[];
}

/** A UnitedDeployment subset as its status reports it. */
export interface SubsetInfo {
  name: string;
  replicas: number;
  ready?: number;
  partition: number;
}

export interface GroupInput {
  kind: RolloutKind;
  pods: readonly Pod[];
  updateRevision: string | undefined;
  currentRevision: string | undefined;
  /** Pods (nodes) the partition keeps at the old revision. */
  partition: number;
  now: Date;
  window?: RolloutWindow | undefined;
  /** SidecarSet: its name and current hash (its `kruise.io/sidecarset-hash` annotation). */
  sidecarSet?: { name: string; hash: string; revision?: string | undefined };
  /** UnitedDeployment: the subsets in spec order. */
  subsets?: readonly SubsetInfo[];
}

/** The subset of a UnitedDeployment's pod (`UnitedDeploymentLabels` of `@regatta/api`, the one definition). */
export const SUBSET_LABEL = UnitedDeploymentLabels.SubsetName;
/** The UnitedDeployment revision of a subset's pod (docs/uniteddeployment.md "Subset workloads"). */
export const UD_REVISION_LABEL = UnitedDeploymentLabels.ControllerRevisionHash;

const byName = (a: PodRow, b: PodRow) =>
  a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name, 'en', { numeric: true });
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ordinalOf = (name: string): number | undefined => {
  const m = /-(\d+)$/.exec(name);
  return m ? Number(m[1]) : undefined;
};

/** The SidecarSet's entry in the pod's `kruise.io/sidecarset-hash` (JSON map by name; old format: name → hash). */
export function sidecarHashOf(pod: Pod, sidecarSet: string): string {
  try {
    const v = (JSON.parse(pod.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, unknown>)[
      sidecarSet
    ];
    if (typeof v === 'string') return v;
    const hash = (v as { hash?: unknown } | undefined)?.hash;
    return typeof hash === 'string' ? hash : '';
  } catch {
    return '';
  }
}

/**
 * Marks the live pods not at the update revision. An Advanced StatefulSet keeps the ordinals below its partition;
 * the other kinds choose which pods the partition keeps by their own priorities, so the marks are certain only when
 * the partition keeps all of them.
 */
function markOld(kind: RolloutKind, rows: ViewRow[], partition: number): void {
  const live = rows.filter((r) => !r.terminating);
  for (const r of live) {
    if (kind === 'StatefulSet') {
      const ordinal = ordinalOf(r.name);
      r.mark = ordinal !== undefined && ordinal < partition ? 'partition' : 'not updated';
    } else {
      r.mark = live.length <= partition ? 'partition' : 'not updated';
    }
  }
}

function keptNote(kind: RolloutKind, oldLive: number, partition: number): string {
  if (kind === 'StatefulSet' || oldLive === 0 || partition === 0 || oldLive <= partition) return '';
  return `, the partition keeps ${partition} of them`;
}

function revisionGroups(input: GroupInput, keyOf: (p: Pod) => string, atUpdate: (p: Pod) => boolean): PodGroup[] {
  const sidecar = input.sidecarSet?.name;
  const groups = new Map<string, { update: boolean; pods: Pod[] }>();
  const updateKey = input.kind === 'SidecarSet' ? input.sidecarSet?.hash : input.updateRevision;
  if (updateKey) groups.set(updateKey, { update: true, pods: [] });
  for (const pod of input.pods) {
    const update = atUpdate(pod);
    const key = update && updateKey ? updateKey : keyOf(pod);
    const g = groups.get(key) ?? { update, pods: [] };
    g.pods.push(pod);
    groups.set(key, g);
  }
  const current = input.currentRevision;
  const rank = (key: string, g: { update: boolean }) =>
    g.update ? 0 : current && input.kind !== 'SidecarSet' && key === current ? 1 : 2;
  const ordered = [...groups].sort(([ka, a], [kb, b]) => rank(ka, a) - rank(kb, b) || b.pods.length - a.pods.length || ka.localeCompare(kb));
  const oldLive = input.pods.filter((p) => !atUpdate(p) && !p.metadata?.deletionTimestamp).length;
  const out: PodGroup[] = [];
  for (const [key, g] of ordered) {
    const rows: ViewRow[] = g.pods.map((p) => ({ ...podRow(p, input.now, input.window, sidecar), mark: '' }));
    rows.sort(input.kind === 'DaemonSet' ? (a, b) => a.node.localeCompare(b.node) || byName(a, b) : byName);
    const role = g.update ? 'update' : rank(key, g) === 1 ? 'current' : 'old';
    let title: string;
    if (input.kind === 'SidecarSet') {
      const rev = g.update && input.sidecarSet?.revision ? `, revision ${input.sidecarSet.revision}` : '';
      title = `sidecar hash ${key || '<none>'} (${g.update ? `latest${rev}` : 'old'})`;
    } else {
      title = `revision ${key || '<no revision label>'} (${role})`;
    }
    const unit = input.kind === 'DaemonSet' ? 'node' : 'pod';
    title += `: ${plural(rows.length, unit)}`;
    if (!g.update) {
      markOld(input.kind, rows, input.partition);
      title += keptNote(input.kind, oldLive, input.partition);
    }
    out.push({ title, rows });
  }
  return out;
}

function subsetGroups(input: GroupInput): PodGroup[] {
  const update = input.updateRevision;
  const bySubset = new Map<string, Pod[]>();
  for (const s of input.subsets ?? []) bySubset.set(s.name, []);
  for (const pod of input.pods) {
    const s = pod.metadata?.labels?.[SUBSET_LABEL] ?? '';
    bySubset.set(s, [...(bySubset.get(s) ?? []), pod]);
  }
  const info = new Map((input.subsets ?? []).map((s) => [s.name, s]));
  return [...bySubset].map(([name, pods]) => {
    const rows: ViewRow[] = pods.map((p) => ({ ...podRow(p, input.now, input.window), mark: '' }));
    rows.sort(byName);
    const s = info.get(name);
    const atUpdate = (p: Pod) => update !== undefined && p.metadata?.labels?.[UD_REVISION_LABEL] === update;
    const old = rows.filter((_, i) => !atUpdate(pods[i]!));
    markOld('UnitedDeployment', old, s?.partition ?? 0);
    const updated = pods.filter(atUpdate).length;
    const counts = s
      ? `${plural(s.replicas, 'replica')}${s.ready === undefined ? '' : `, ${s.ready} ready`}, partition ${s.partition}`
      : 'not in the status';
    return { title: `subset ${name || '<none>'} (${counts}): ${plural(rows.length, 'pod')}, ${updated} updated`, rows };
  });
}

/** The groups of the view, in the order they are printed. */
export function groupPods(input: GroupInput): PodGroup[] {
  switch (input.kind) {
    case 'UnitedDeployment':
      return subsetGroups(input);
    case 'SidecarSet': {
      const name = input.sidecarSet?.name ?? '';
      const hash = input.sidecarSet?.hash ?? '';
      return revisionGroups(
        input,
        (p) => sidecarHashOf(p, name),
        (p) => hash !== '' && sidecarHashOf(p, name) === hash,
      );
    }
    default: {
      const update = input.updateRevision;
      return revisionGroups(input, podRevision, (p) => update !== undefined && isPodAtRevision(p, update));
    }
  }
}
