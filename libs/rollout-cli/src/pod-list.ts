/**
 * The cluster side of the pod view: one LIST of pods per refresh (plus one of namespaces for a SidecarSet with a
 * namespace selector), then the pure selection, grouping and table (pod-select.ts, pod-groups.ts, pod-view.ts).
 */
import type { Pod } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { ROLLOUT_TRACE_ANNOTATION, parseRolloutRecord, type RolloutStatus, type Workload } from '@regatta/workload';
import type { RolloutContext } from './commands.js';
import type { RolloutTarget } from './kinds.js';
import { groupPods } from './pod-groups.js';
import { rolloutWindow } from './pod-rows.js';
import { podQuery, selectPods, sidecarSetOf, subsetsOf } from './pod-select.js';
import { formatPodView } from './pod-view.js';

export interface PodViewText {
  lines: string[];
  /** The same without ages: what is compared to decide whether a frame changed. */
  stable: string[];
}

export async function readPodView(
  ctx: RolloutContext,
  t: RolloutTarget,
  w: Workload,
  p: RolloutStatus,
  opts: { limit: number; now: Date },
): Promise<PodViewText> {
  const kind = t.info.kind;
  const q = podQuery(kind, w, ctx.namespace);
  const list = await ctx.client.list<Pod>(
    { apiVersion: 'v1', kind: 'Pod', ...(q.namespace ? { namespace: q.namespace } : {}) },
    q.labelSelector ? { labelSelector: q.labelSelector } : {},
  );
  let namespaces: Set<string> | undefined;
  if (q.namespaceSelector) {
    const nsList = await ctx.client.list<KubeObject>({ apiVersion: 'v1', kind: 'Namespace' }, { labelSelector: q.namespaceSelector });
    namespaces = new Set(nsList.items.map((n) => n.metadata?.name ?? ''));
  }
  const pods = selectPods(kind, w, list.items, namespaces);
  // an Advanced DaemonSet read through v1alpha1 names its update revision `status.daemonSetHash` (libs/ads)
  const hash = (w.status as { daemonSetHash?: unknown } | undefined)?.daemonSetHash;
  const updateRevision = p.updateRevision ?? (kind === 'DaemonSet' && typeof hash === 'string' && hash !== '' ? hash : undefined);
  const groups = groupPods({
    kind,
    pods,
    updateRevision: kind === 'SidecarSet' ? undefined : updateRevision,
    currentRevision: p.currentRevision,
    partition: p.partition,
    now: opts.now,
    window: rolloutWindow(parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION])),
    ...(kind === 'SidecarSet' ? { sidecarSet: sidecarSetOf(w) } : {}),
    ...(kind === 'UnitedDeployment' ? { subsets: subsetsOf(w) } : {}),
  });
  const view = {
    limit: opts.limit,
    nodeFirst: kind === 'DaemonSet',
    withNamespace: kind === 'SidecarSet' && new Set(pods.map((x) => x.metadata?.namespace)).size > 1,
  };
  const title =
    kind === 'UnitedDeployment'
      ? `  pods by subset (${pods.length}):`
      : kind === 'SidecarSet'
        ? `  matched pods by sidecar hash, latest first (${pods.length}):`
        : `  ${kind === 'DaemonSet' ? 'nodes' : 'pods'} by revision, update revision first (${pods.length}):`;
  const body = formatPodView(groups, view);
  const none = pods.length === 0 && groups.length === 0 ? ['    (none)'] : [];
  return {
    lines: [title, ...none, ...body],
    stable: [title, ...none, ...formatPodView(groups, { ...view, noAge: true })],
  };
}
