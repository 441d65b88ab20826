/**
 * Finding a UnitedDeployment's subset workloads (OpenKruise `subset_control.go` `GetAllSubsets`,
 * `uniteddeployment_controller.go` `getExistingSubsets`, `classifySubsetBySubsetName`, `deleteDupSubset`): the
 * workloads of every kind it controls, orphans of the template's kind adopted (sync/claim.ts); those of the
 * template's kind grouped by subset name, duplicates deleted, and
 * those of other kinds (a template-kind switch) returned for deletion.
 */
import type { Pod } from '@regatta/api';
import { compileLabelSelector, controllerRef, isNotFound } from '@regatta/kube';
import { REASONS, SUBSET_NAME_LABEL } from '../keys.js';
import { SUBSET_KINDS, type SubsetKind } from '../subset/kinds.js';
import { type SubsetView, readSubset } from '../subset/read.js';
import type { SubsetWorkload } from '../subset/workload.js';
import type { UnitedDeployment } from '../types.js';
import { claimSubsetWorkloads } from './claim.js';
import type { StepContext } from './context.js';

export interface FoundSubsets {
  existing: Map<string, SubsetView>;
  /** Workloads of the other kinds this UnitedDeployment controls. */
  otherKinds: { kind: SubsetKind; workload: SubsetWorkload }[];
  /** Subsets with a matching orphan not adopted this round: none is created for them (the next round adopts). */
  unadopted: string[];
}

function byAge(a: SubsetWorkload, b: SubsetWorkload): number {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  return ta < tb ? -1 : ta > tb ? 1 : (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** The pods a subset workload selects in its namespace. */
export function podsOfWorkload(s: StepContext, workload: SubsetWorkload): Pod[] {
  const selector = compileLabelSelector(workload.spec.selector ?? null);
  return s.d.pods.list({
    namespace: workload.metadata?.namespace,
    filter: (p) => selector.matches(p.metadata?.labels),
  }) as Pod[];
}

export async function findSubsets(
  s: StepContext,
  ud: UnitedDeployment,
  kind: SubsetKind,
  expectedRevision: string,
): Promise<FoundSubsets> {
  const uid = ud.metadata?.uid;
  const ns = ud.metadata?.namespace;
  const controlled = (k: SubsetKind) =>
    (s.d[k.reader].list({
      namespace: ns,
      filter: (w) => controllerRef(w)?.uid === uid,
    }) as SubsetWorkload[]).filter((w) => !w.metadata?.deletionTimestamp);
  const otherKinds = SUBSET_KINDS.filter((k) => k !== kind).flatMap((k) => controlled(k).map((workload) => ({ kind: k, workload })));
  const { workloads, unadopted } = await claimSubsetWorkloads(s, ud, kind);
  const claimed = workloads.filter((w) => !w.metadata?.deletionTimestamp);
  const groups = new Map<string, SubsetWorkload[]>();
  for (const w of claimed) {
    const name = w.metadata?.labels?.[SUBSET_NAME_LABEL];
    if (!name) continue;
    groups.set(name, [...(groups.get(name) ?? []), w]);
  }
  const existing = new Map<string, SubsetView>();
  for (const [name, list] of groups) {
    const [first, ...duplicates] = [...list].sort(byAge);
    for (const dup of duplicates) {
      try {
        await s.d.client.delete({ apiVersion: kind.apiVersion, kind: kind.kind, namespace: ns, name: dup.metadata?.name ?? '' });
        if (s.d[kind.reader].get(ns, dup.metadata?.name ?? '')) s.d.expectations.expectScale(s.key, 'delete', dup.metadata?.name ?? '');
      } catch (err) {
        if (isNotFound(err)) continue;
        const message = err instanceof Error ? err.message : String(err);
        void s.d.recorder.warning(ud, REASONS.FailedDeleteDuplicatedSubsets, message);
        void s.d.recorder.warning(ud, REASONS.FailedFindSubsetsSpaced, message);
        throw err;
      }
    }
    const workload = first as SubsetWorkload;
    existing.set(name, readSubset(kind, workload, podsOfWorkload(s, workload), expectedRevision));
  }
  return { existing, otherKinds, unadopted };
}
