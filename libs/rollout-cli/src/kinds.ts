/**
 * The workload kinds `regatta rollout` knows, with the names kubectl accepts for them (the CRDs' plural, singular
 * and short names, `kind.group` forms) and where each keeps its pause switch (libs/api: CloneSet
 * `spec.updateStrategy.paused`; Advanced StatefulSet and Advanced DaemonSet `spec.updateStrategy.rollingUpdate.paused`;
 * UnitedDeployment has none, its rollout is driven by `manualUpdate.partitions`; SidecarSet, cluster-scoped,
 * `spec.updateStrategy.paused`).
 */
import type { RolloutKind } from '@regatta/workload';
import { UnknownKindError, RolloutUsageError } from './errors.js';

export type { RolloutKind };

export interface KindInfo {
  kind: RolloutKind;
  /** The version read and patched (the storage/served version the controllers use). */
  apiVersion: string;
  /** What a person reads: `CloneSet`, `Advanced StatefulSet`… */
  title: string;
  /** kubectl-style names, the first is the canonical one printed in messages. */
  names: readonly string[];
  /** Path of `paused` under `spec`, undefined when the kind cannot be paused. */
  pausedPath?: readonly string[];
  /** Cluster-scoped (SidecarSet): `--namespace` does not apply to it. */
  clusterScoped?: boolean;
}

const GROUP = 'apps.kruise.io';

export const ROLLOUT_KINDS: readonly KindInfo[] = [
  {
    kind: 'CloneSet',
    apiVersion: `${GROUP}/v1alpha1`,
    title: 'CloneSet',
    names: ['cloneset', 'clonesets', 'clone'],
    pausedPath: ['updateStrategy', 'paused'],
  },
  {
    kind: 'StatefulSet',
    apiVersion: `${GROUP}/v1beta1`,
    title: 'Advanced StatefulSet',
    names: [
      'asts',
      'sts.apps.kruise.io',
      'statefulset.apps.kruise.io',
      'statefulsets.apps.kruise.io',
      'advancedstatefulset',
    ],
    pausedPath: ['updateStrategy', 'rollingUpdate', 'paused'],
  },
  {
    kind: 'DaemonSet',
    apiVersion: `${GROUP}/v1beta1`,
    title: 'Advanced DaemonSet',
    names: [
      'ads',
      'daemon',
      'ds.apps.kruise.io',
      'daemonset.apps.kruise.io',
      'daemonsets.apps.kruise.io',
      'advanceddaemonset',
    ],
    pausedPath: ['updateStrategy', 'rollingUpdate', 'paused'],
  },
  {
    kind: 'UnitedDeployment',
    apiVersion: `${GROUP}/v1beta1`,
    title: 'UnitedDeployment',
    names: ['ud', 'uniteddeployment', 'uniteddeployments'],
  },
  {
    kind: 'SidecarSet',
    apiVersion: `${GROUP}/v1beta1`,
    title: 'SidecarSet',
    names: ['sidecarset', 'sidecarsets'],
    pausedPath: ['updateStrategy', 'paused'],
    clusterScoped: true,
  },
];

export interface RolloutTarget {
  info: KindInfo;
  name: string;
}

/** Parses `KIND/NAME` (kind case-insensitive, also `cloneset.apps.kruise.io` and the kind with its version). */
export function parseTarget(arg: string): RolloutTarget {
  const [info, name] = parseKindTarget(arg, ROLLOUT_KINDS);
  return { info, name };
}

/** `KIND/NAME` against a table of kinds (kubectl's names, `name.apps.kruise.io`, `name.version.apps.kruise.io`). */
export function parseKindTarget<K extends { kind: string; names: readonly string[] }>(
  arg: string,
  table: readonly K[],
): [K, string] {
  const slash = arg.indexOf('/');
  if (slash <= 0 || slash === arg.length - 1 || arg.indexOf('/', slash + 1) !== -1) {
    throw new RolloutUsageError(
      `expected KIND/NAME (e.g. ${table[0]?.names[0] ?? 'clone'}/web), got ${JSON.stringify(arg)}`,
    );
  }
  const kind = arg.slice(0, slash).toLowerCase();
  const info = kindInfo(kind, table);
  if (!info)
    throw new UnknownKindError(
      kind,
      table.flatMap((k) => k.names),
    );
  return [info, arg.slice(slash + 1)];
}

function kindInfo<K extends { kind: string; names: readonly string[] }>(
  kind: string,
  table: readonly K[],
): K | undefined {
  for (const k of table) {
    if (k.names.includes(kind)) return k;
    // `cloneset.apps.kruise.io`, `cloneset.v1alpha1.apps.kruise.io`
    const group = kind.indexOf('.');
    if (group > 0 && kind.endsWith(`.${GROUP}`)) {
      const base = kind.slice(0, group);
      if (k.names.includes(base) || k.kind.toLowerCase() === base) return k;
    }
  }
  return undefined;
}
