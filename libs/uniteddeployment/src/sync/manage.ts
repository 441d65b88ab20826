/**
 * `manageSubsets` (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_update.go`; docs/uniteddeployment.md
 * "Reconcile"): create the missing subsets at the expected revision, delete those that left the spec and those of
 * another kind, then rewrite every subset whose revision, replicas, partition or patch moved (a fresh read and up to
 * five attempts each). Creates and updates go in slow-start batches (slow-start.ts). Conditions `SubsetProvisioned`
 * and `SubsetUpdated` and the events' wording as upstream (the subset type in parentheses).
 */
import type { Pod } from '@regatta/api';
import { TimeoutError, cloneJson, generatedOnRead, isConflict, isNotFound, setCondition, settleWrite } from '@regatta/kube';
import { REASONS, SUBSET_NAME_LABEL, UD_REVISION_LABEL, UnitedDeploymentConditions } from '../keys.js';
import type { SubsetTarget, SubsetsPlan } from '../planning/plan.js';
import { buildSubsetWorkload } from '../subset/build.js';
import type { SubsetKind } from '../subset/kinds.js';
import { isPodReady } from '../subset/pods.js';
import type { SubsetWorkload } from '../subset/workload.js';
import type { Subset, UDCondition, UnitedDeployment } from '../types.js';
import type { StepContext } from './context.js';
import type { FoundSubsets } from './subsets.js';
import type { SubsetWrite } from './trace.js';
import { inSlowStartBatches } from './slow-start.js';
import { podsOfWorkload } from './subsets.js';

const UPDATE_ATTEMPTS = 5;

export interface ManageInput {
  ud: UnitedDeployment;
  kind: SubsetKind;
  found: FoundSubsets;
  plan: SubsetsPlan;
  target: (name: string) => SubsetTarget;
  conditions: UDCondition[];
}

export interface ManageResult {
  conditions: UDCondition[];
  /** The workloads created, deleted or rewritten. */
  writes: SubsetWrite[];
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function subsetOf(ud: UnitedDeployment, name: string): Subset {
  return (ud.spec.topology?.subsets ?? []).find((x) => x.name === name) ?? { name };
}

/**
 * Creates a subset workload. Its name is generated, so a create whose answer was lost (a timeout, a 5xx) is read back
 * by the subset's label and the UnitedDeployment's uid (docs/adr/0061-writes-without-an-answer.md): found, it counts
 * as created and the next round waits for the cache to show it, instead of making a second workload for the subset;
 * not found, the failure stands. Unreadable: a timeout is taken as done (undefined), as before the read-back.
 */
async function createSubset(
  s: StepContext,
  ud: UnitedDeployment,
  kind: SubsetKind,
  name: string,
  obj: SubsetWorkload,
): Promise<SubsetWorkload | undefined> {
  const ns = ud.metadata?.namespace;
  try {
    return await s.d.client.create<SubsetWorkload>(obj);
  } catch (err) {
    let found: SubsetWorkload | undefined;
    const outcome = await settleWrite(err, async () => {
      const ref = { apiVersion: kind.apiVersion, kind: kind.kind, ...(ns ? { namespace: ns } : {}) };
      const selector = { matchLabels: { [SUBSET_NAME_LABEL]: name } };
      found = await generatedOnRead<SubsetWorkload>(s.d.client, ref, selector, ud.metadata?.uid, (n) =>
        s.d[kind.reader].get(ns, n) !== undefined,
      );
      return found !== undefined;
    });
    if (outcome === 'applied' && found) {
      s.log.info({ subset: name, workload: found.metadata?.name, err }, 'a subset create without an answer went through');
      return found;
    }
    if (outcome === 'unknown' && err instanceof TimeoutError) {
      s.log.warn({ subset: name, err }, 'creating a subset timed out');
      return undefined;
    }
    throw err;
  }
}

export async function manageSubsets(s: StepContext, m: ManageInput): Promise<ManageResult> {
  const { ud, kind, plan } = m;
  const ns = ud.metadata?.namespace;
  let conditions = m.conditions;
  const writes: SubsetWrite[] = [];

  // creates in slow-start batches; one without an answer is read back (createSubset)
  const created: string[] = [];
  const creates = await inSlowStartBatches(plan.create, async (name) => {
    const t = m.target(name);
    const obj = buildSubsetWorkload({ ud, kind, subset: subsetOf(ud, name), revision: t.revision, replicas: t.replicas, partition: t.partition });
    const out = await createSubset(s, ud, kind, name, obj);
    if (!out) return;
    const createdName = out.metadata?.name ?? '';
    if (!s.d[kind.reader].get(ns, createdName)) s.d.expectations.expectScale(s.key, 'create', createdName);
    created.push(createdName);
    writes.push({ action: 'create', subset: name, workload: out });
    s.log.info({ subset: name, workload: createdName, replicas: t.replicas }, 'created a subset');
  });
  const createErrors = creates.failed.map((f) => `fail to create Subset (${kind.subsetType}) ${f.item}: ${messageOf(f.error)}`);
  if (createErrors.length === 0 && creates.done.length > 0) {
    void s.d.recorder.normal(ud, REASONS.SuccessfulUpdateSubset, `Create ${creates.done.length} Subset (${kind.subsetType})`);
  }

  const removed = [...m.found.existing.values()].filter((v) => plan.remove.includes(v.workload.metadata?.name ?? ''));
  const deletions = [
    ...removed.map((v) => ({ kind, name: v.workload.metadata?.name ?? '', workload: v.workload, subset: v.name })),
    ...m.found.otherKinds.map((o) => ({
      kind: o.kind,
      name: o.workload.metadata?.name ?? '',
      workload: o.workload,
      subset: o.workload.metadata?.labels?.[SUBSET_NAME_LABEL] ?? '',
    })),
  ];
  const deleted: string[] = [];
  for (const del of deletions) {
    try {
      await s.d.client.delete(
        { apiVersion: del.kind.apiVersion, kind: del.kind.kind, namespace: ns, name: del.name },
        { propagationPolicy: 'Background' },
      );
      // the cache may already show the delete (then there is nothing to wait for)
      if (del.kind === kind && s.d[kind.reader].get(ns, del.name)) s.d.expectations.expectScale(s.key, 'delete', del.name);
      deleted.push(del.name);
      writes.push({ action: 'delete', subset: del.subset, workload: del.workload });
      s.log.info({ workload: del.name, kind: del.kind.kind }, 'deleted a subset workload');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  if (removed.length > 0) {
    void s.d.recorder.normal(ud, REASONS.SuccessfulUpdateSubset, `Delete ${removed.length} Subset (${kind.subsetType})`);
  }
  if (createErrors.length > 0) throw new Error(createErrors.join('; '));
  if (created.length > 0 || deleted.length > 0) {
    conditions = setCondition(conditions, { type: UnitedDeploymentConditions.SubsetProvisioned, status: 'True' }, s.now);
  }

  if (plan.update.length > 0) {
    const updates = await inSlowStartBatches(plan.update, async ({ name, reason }) => {
      const view = m.found.existing.get(name);
      if (!view) return;
      const updated = await updateSubset(s, ud, kind, subsetOf(ud, name), view.workload, m.target(name));
      writes.push({ action: 'update', subset: name, workload: updated, reason });
      s.log.info({ subset: name, workload: updated.metadata?.name, reason }, 'updated a subset');
      if (kind.partition === 'statefulset') await deleteStuckPods(s, updated, m.target(name));
    });
    const failures = updates.failed.map(({ item, error }) => {
      const message = messageOf(error);
      void s.d.recorder.warning(
        ud,
        REASONS.FailedUpdateSubset,
        `Error updating PodSet (${kind.subsetType}) ${m.found.existing.get(item.name)?.workload.metadata?.name ?? ''} when updating: ${message}`,
      );
      return message;
    });
    conditions = setCondition(
      conditions,
      failures.length === 0
        ? { type: UnitedDeploymentConditions.SubsetUpdated, status: 'True' }
        : { type: UnitedDeploymentConditions.SubsetUpdated, status: 'False', reason: 'Error', message: failures.join('; ') },
      s.now,
    );
    if (failures.length > 0) throw new Error(failures.join('; '));
  }
  return { conditions, writes };
}

/** Re-reads the workload, re-applies the template and writes it; a conflict is retried with a fresh read. */
async function updateSubset(
  s: StepContext,
  ud: UnitedDeployment,
  kind: SubsetKind,
  subset: Subset,
  cached: SubsetWorkload,
  t: SubsetTarget,
): Promise<SubsetWorkload> {
  const ref = { apiVersion: kind.apiVersion, kind: kind.kind, namespace: ud.metadata?.namespace, name: cached.metadata?.name ?? '' };
  let lastError: unknown;
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const fresh = await s.d.client.get<SubsetWorkload>(ref);
    const next = buildSubsetWorkload(
      {
        ud,
        kind,
        subset,
        revision: t.revision,
        replicas: t.replicas,
        partition: t.partition,
        ...(t.maxUnavailable !== undefined ? { maxUnavailable: t.maxUnavailable } : {}),
      },
      fresh,
    );
    try {
      const out = await s.d.client.replace<SubsetWorkload>(next);
      const rv = out.metadata?.resourceVersion;
      if (rv) s.d.expectations.expectUpdated(s.key, ref.name, rv);
      return out;
    } catch (err) {
      lastError = err;
      if (!isConflict(err)) throw err;
    }
  }
  throw lastError;
}

/**
 * The StatefulSet adapter's `PostUpdate` (work-around for kubernetes#67250): pods at or above the partition, of an
 * older revision and not Ready are deleted, so the rolling update cannot get stuck on them.
 */
async function deleteStuckPods(s: StepContext, workload: SubsetWorkload, t: SubsetTarget): Promise<void> {
  const strategy = workload.spec['updateStrategy'] as { type?: string } | undefined;
  if (strategy?.type && strategy.type !== 'RollingUpdate') return;
  const setName = workload.metadata?.name ?? '';
  for (const pod of podsOfWorkload(s, cloneJson(workload)) as Pod[]) {
    const podName = pod.metadata?.name ?? '';
    const ordinal = Number(podName.slice(setName.length + 1));
    if (!podName.startsWith(`${setName}-`) || !Number.isInteger(ordinal) || ordinal < t.partition) continue;
    if (pod.metadata?.labels?.[UD_REVISION_LABEL] === t.revision || isPodReady(pod) || pod.metadata?.deletionTimestamp) continue;
    try {
      await s.d.client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata?.namespace, name: podName });
      s.log.info({ pod: podName }, 'deleted a stuck pod of an older revision');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
