/** `regatta rollout history`: the ControllerRevisions a workload owns, oldest first. */
import type { KubeObject } from '@regatta/kube';
import { formatTable } from './table.js';

export interface ControllerRevision extends KubeObject {
  revision?: number;
}

export interface HistoryRow {
  revision: number;
  name: string;
  hash: string;
  /** Seconds since creation. */
  ageSeconds: number;
  current: boolean;
  update: boolean;
}

/** The revisions whose controller reference is the object with `ownerUid`. */
export function ownedBy<R extends ControllerRevision>(ownerUid: string, revisions: readonly R[]): R[] {
  return revisions.filter((r) => r.metadata?.ownerReferences?.some((o) => o.uid === ownerUid && o.controller === true));
}

/** Rows for the revisions owned (controller reference) by the object with `ownerUid`, by revision number. */
export function revisionHistory(
  ownerUid: string,
  revisions: readonly ControllerRevision[],
  marks: { currentRevision?: string | undefined; updateRevision?: string | undefined },
  now: Date,
): HistoryRow[] {
  return ownedBy(ownerUid, revisions)
    .map((r) => {
      const name = r.metadata?.name ?? '';
      const created = Date.parse(r.metadata?.creationTimestamp ?? '');
      return {
        revision: r.revision ?? 0,
        name,
        hash: r.metadata?.labels?.['controller-revision-hash'] ?? name.slice(name.lastIndexOf('-') + 1),
        ageSeconds: Number.isNaN(created) ? 0 : Math.max(0, Math.floor((now.getTime() - created) / 1000)),
        current: name === marks.currentRevision,
        update: name === marks.updateRevision,
      };
    })
    .sort((a, b) => a.revision - b.revision || a.name.localeCompare(b.name));
}

/** kubectl's short age: 45s, 3m, 2h, 5d. */
export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

export function formatHistory(rows: readonly HistoryRow[]): string {
  const table = [
    ['REVISION', 'NAME', 'HASH', 'AGE', ''],
    ...rows.map((r) => [
      String(r.revision),
      r.name,
      r.hash,
      formatAge(r.ageSeconds),
      [r.current ? 'current' : '', r.update ? 'update' : ''].filter(Boolean).join(','),
    ]),
  ];
  return formatTable(table);
}
