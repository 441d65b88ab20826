/**
 * Claiming a UnitedDeployment's subset workloads and revisions (OpenKruise `pkg/controller/uniteddeployment/
 * subset_control.go` `GetAllSubsets` and `revision.go` `controlledHistories`, both through
 * `pkg/util/refmanager`): orphans in its namespace that match its selector are adopted, owned ones that no longer
 * match are released (docs/adr/0029). Regatta adopts only what it could have written itself: a workload of the
 * template's kind carrying `apps.kruise.io/subset-name` (upstream adopts any match, then fails to read a workload
 * without the label), a revision named `<ud>-…`.
 */
import { type KubeObject, type LabelSelector, compileLabelSelector, controllerRef } from '@regatta/kube';
import { claim } from '@regatta/workload';
import { SUBSET_NAME_LABEL, UNITED_DEPLOYMENT_GVK } from '../keys.js';
import type { SubsetKind } from '../subset/kinds.js';
import type { SubsetWorkload } from '../subset/workload.js';
import type { UnitedDeployment } from '../types.js';
import type { StepContext } from './context.js';

const REVISION = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

/** A selector that selects something (a missing or empty one never adopts nor releases). */
function claimingSelector(ud: UnitedDeployment): LabelSelector | undefined {
  const sel = ud.spec.selector;
  const keys = Object.keys(sel?.matchLabels ?? {}).length + (sel?.matchExpressions?.length ?? 0);
  return sel && keys > 0 ? (sel as LabelSelector) : undefined;
}

const isOrphan = (o: KubeObject) => controllerRef(o) === undefined && !o.metadata?.deletionTimestamp;

/** Expect the adopted object's version in the cache before the next round (so it is not adopted twice). */
function expectWritten(s: StepContext): (obj: KubeObject) => void {
  return (obj) => {
    const name = obj.metadata?.name;
    const rv = obj.metadata?.resourceVersion;
    if (name && rv) s.d.expectations.expectUpdated(s.key, name, rv);
  };
}

/** Pure: the candidates for claiming among the objects of one kind in the UnitedDeployment's namespace. */
export function claimCandidates<T extends KubeObject>(
  ud: UnitedDeployment,
  objects: readonly T[],
  adoptable: (o: T) => boolean,
): { owned: T[]; orphans: T[] } {
  const uid = ud.metadata?.uid;
  return {
    owned: objects.filter((o) => controllerRef(o)?.uid === uid),
    orphans: objects.filter((o) => isOrphan(o) && adoptable(o)),
  };
}

export interface ClaimedWorkloads {
  workloads: SubsetWorkload[];
  /**
   * Subset names not to be created anew this round: matching orphans left unadopted (changed meanwhile), and
   * workloads still controlled by a former UnitedDeployment of the same name (deleted; the garbage collector has not
   * orphaned or deleted them yet, or the cache does not show it yet).
   */
  unadopted: string[];
}

/** Controlled by another UnitedDeployment of the same name (a deleted one this one replaces). */
function ofFormerUnitedDeployment(ud: UnitedDeployment, o: KubeObject): boolean {
  const ref = controllerRef(o);
  return (
    ref !== undefined &&
    ref.kind === UNITED_DEPLOYMENT_GVK.kind &&
    ref.name === ud.metadata?.name &&
    ref.uid !== ud.metadata?.uid
  );
}

/** The workloads of the template's kind this UnitedDeployment controls, after adopting and releasing. */
export async function claimSubsetWorkloads(s: StepContext, ud: UnitedDeployment, kind: SubsetKind): Promise<ClaimedWorkloads> {
  const all = s.d[kind.reader].list({ namespace: ud.metadata?.namespace }) as SubsetWorkload[];
  const { owned, orphans } = claimCandidates(ud, all, (w) => Boolean(w.metadata?.labels?.[SUBSET_NAME_LABEL]));
  const selector = claimingSelector(ud);
  if (!selector || ud.metadata?.deletionTimestamp) return { workloads: owned, unadopted: [] };
  const matches = compileLabelSelector(selector);
  const former = all
    .filter((w) => ofFormerUnitedDeployment(ud, w) && matches.matches(w.metadata?.labels))
    .map((w) => w.metadata?.labels?.[SUBSET_NAME_LABEL] ?? '')
    .filter((n) => n !== '');
  const workloads = await claim(
    { client: s.d.client, log: s.log, onWritten: expectWritten(s) },
    {
      owner: ud,
      ownerKind: UNITED_DEPLOYMENT_GVK,
      kind: { apiVersion: kind.apiVersion, kind: kind.kind },
      selector,
      owned,
      orphans,
      // CloneSets and Advanced StatefulSets are custom resources: no strategic merge
      patchType: kind.apiVersion === 'apps/v1' ? 'strategic' : 'merge',
    },
  );
  const claimed = new Set(workloads.map((w) => w.metadata?.uid));
  const unadopted = orphans
    .filter((o) => !claimed.has(o.metadata?.uid) && matches.matches(o.metadata?.labels))
    .map((o) => o.metadata?.labels?.[SUBSET_NAME_LABEL] ?? '');
  return { workloads, unadopted: [...new Set([...unadopted, ...former])] };
}

/**
 * The revisions this UnitedDeployment controls, after adopting orphans. Owned revisions are never released: those of
 * a CloneSet template carry no labels the selector could match (upstream lists by selector, so never sees them).
 */
export async function claimRevisions<T extends KubeObject>(s: StepContext, ud: UnitedDeployment): Promise<T[]> {
  const all = s.d.revisions.list({ namespace: ud.metadata?.namespace }) as T[];
  const prefix = `${ud.metadata?.name ?? ''}-`;
  const { owned, orphans } = claimCandidates(ud, all, (r) => (r.metadata?.name ?? '').startsWith(prefix));
  const selector = claimingSelector(ud);
  if (!selector || orphans.length === 0 || ud.metadata?.deletionTimestamp) return owned;
  // an adoption the cache does not show yet is only repeated (an idempotent patch): nothing to wait for
  const adopted = await claim(
    { client: s.d.client, log: s.log },
    { owner: ud, ownerKind: UNITED_DEPLOYMENT_GVK, kind: REVISION, selector, owned: [], orphans },
  );
  return [...owned, ...adopted];
}
