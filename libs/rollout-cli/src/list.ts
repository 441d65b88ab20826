/**
 * `regatta list [-A]`: every Regatta workload with its rollout state, one row each (pure: the rows from the
 * workloads, the table from the rows). The phase is the controllers' rollout metrics' (libs/workload rollout-phase.ts).
 */
import { rolloutSample, type RolloutPhase, type Workload } from '@regatta/workload';
import { formatAge } from './history.js';
import type { KindInfo } from './kinds.js';
import { formatTable } from './table.js';

export interface ListRow {
  /** The kind's `KIND/NAME` prefix, as `rollout` takes it (clone, asts, ads, ud, sidecarset). */
  kind: string;
  apiVersion: string;
  namespace?: string;
  name: string;
  phase: RolloutPhase;
  desired: number;
  updated: number;
  ready: number;
  available?: number;
  ageSeconds: number;
}

export function listRow(info: KindInfo, w: Workload, now: Date): ListRow {
  const s = rolloutSample(info.kind, w);
  const created = Date.parse(w.metadata?.creationTimestamp ?? '');
  const ns = w.metadata?.namespace;
  return {
    kind: info.names[0]!,
    apiVersion: info.apiVersion,
    ...(ns ? { namespace: ns } : {}),
    name: w.metadata?.name ?? '',
    phase: s.phase,
    desired: s.desired,
    updated: s.updated,
    ready: s.ready,
    ...(s.available === undefined ? {} : { available: s.available }),
    ageSeconds: Number.isNaN(created) ? 0 : Math.max(0, Math.floor((now.getTime() - created) / 1000)),
  };
}

/** Rows in a stable order: by kind (the order of `kinds`), then namespace, then name. */
export function sortRows(rows: readonly ListRow[], kinds: readonly string[]): ListRow[] {
  return [...rows].sort(
    (a, b) =>
      kinds.indexOf(a.kind) - kinds.indexOf(b.kind) ||
      (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
      a.name.localeCompare(b.name),
  );
}

/** The table: NAMESPACE first with `allNamespaces` (kubectl's `-A`), KIND/NAME as `rollout` takes it. */
export function formatList(rows: readonly ListRow[], allNamespaces: boolean): string {
  if (rows.length === 0) return 'No Regatta workloads found.';
  return formatTable([
    [...(allNamespaces ? ['NAMESPACE'] : []), 'NAME', 'DESIRED', 'UPDATED', 'READY', 'AVAILABLE', 'ROLLOUT', 'AGE'],
    ...rows.map((r) => [
      ...(allNamespaces ? [r.namespace ?? ''] : []),
      `${r.kind}/${r.name}`,
      String(r.desired),
      String(r.updated),
      String(r.ready),
      r.available === undefined ? '-' : String(r.available),
      r.phase,
      formatAge(r.ageSeconds),
    ]),
  ]);
}
