/**
 * The CloneSet reconciler (spec §2.3): reads the CloneSet, its pods, claims and revisions from caches, decides with
 * the shared rollout machinery, and writes to the API server. One mutation wave per reconcile: scale, or else update.
 */
import type { CloneSet } from '@regatta/api';
import {
  type KubeClient,
  type KubeObject,
  type LabelSelector,
  EventReasons,
  type EventRecorder,
  adoptPatch,
  claimOwnerOf,
  controllerRef,
  isAlreadyExists,
  isConflict,
  isNotFound,
  newControllerRef,
  planClaims,
  releasePatch,
  retryOnConflict,
} from '@regatta/kube';
import {
  LIFECYCLE_TIMESTAMP_KEY,
  LifecycleState,
  getPodLifecycleState,
  type Pod,
  type PodCondition,
  inPlaceUpdateStep,
  isPodActive,
  refreshLifecycleState,
  setPodLifecycle,
  transition,
} from '@regatta/lifecycle';
import { checkPodUpdateCompleted, planInPlaceUpdate, refreshInPlaceUpdate } from '@regatta/inplace-update';
import {
  type ControllerRevision,
  decideUpdateRevision,
  isPodAtRevision,
  newCloneSetRevision,
  nextRevision,
  ownedRevisions,
  podTemplateHashPatch,
  resolveNameCollision,
  revisionForCollisionCount,
  revisionOfPod,
  revisionsToTruncate,
  sortControllerRevisions,
  templateFromRevision,
  currentRevisionOf,
} from '@regatta/revision';
import {
  type CloneSetRolloutSpec,
  type PersistentVolumeClaim,
  type RandomSource,
  SCALING_EXCLUDE_PREPARING_DELETE_LABEL,
  claimOwnedByPod,
  claimsToCreate,
  newCloneSetClaims,
  newCloneSetPod,
  planPvcCleanup,
  planScale,
  planUpdate,
  prunePodsToDelete,
  slowStartBatches,
  specifiedDeletePatch,
} from '@regatta/rollout';
import {
  type Expectations,
  type Reconciler,
  type ReconcileContext,
  type Request,
  type Result,
  forEachLimited,
  requestKey,
} from '@regatta/runtime';
import { CONTROLLER_NAME, INVALID_SPEC_REASON, errText, messages } from './events.js';
import { type WorkloadCondition, syncProgressing } from './progressing.js';
import { type ComputedCloneSetStatus, computeStatus, statusChanged } from './status.js';
import { type ImagePreDownloader, preDownloadStep } from './image-predownload.js';
import { SpecGuard } from './spec-guard.js';
import { activeHolds, syncHolds } from './rollout-holds.js';
import {
  ROLLOUT_TRACE_ANNOTATION,
  type RolloutRecord,
  type RolloutTracer,
  parseRolloutRecord,
} from './tracing.js';

export const CLONESET_GVK = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
/** Pods written at once in one reconcile (each pod's own writes stay in order). */
const POD_WRITE_CONCURRENCY = 16;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const PVC = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } as const;
const REVISION = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

/** What the reconciler reads: a bus cache fits. */
export interface ObjectReader<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  byIndex(index: string, value: string): T[];
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

/** The CloneSet as the reconciler reads it (v1alpha1). */
export interface CloneSetObject extends KubeObject {
  spec?: CloneSetRolloutSpec & {
    selector?: LabelSelector | null;
    revisionHistoryLimit?: number | null;
    [k: string]: unknown;
  };
  status?: Record<string, unknown> & { currentRevision?: string; collisionCount?: number | null };
}

export type KubeWriter = Pick<KubeClient, 'create' | 'patch' | 'patchStatus' | 'delete' | 'replace' | 'get'>;

export interface CloneSetReconcilerDeps {
  client: KubeWriter;
  clonesets: ObjectReader<KubeObject>;
  pods: ObjectReader<KubeObject>;
  pvcs: ObjectReader<KubeObject>;
  revisions: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: EventRecorder;
  now?: () => Date;
  random?: RandomSource;
  /** Rollout traces (one trace per rollout, context stored on the CloneSet). */
  rollouts?: RolloutTracer;
  /** Pulls a rollout's images ahead of in-place updates (none until ImagePullJob is wired in). */
  imagePreDownload?: ImagePreDownloader;
  /** Feature gates (OpenKruise's names and defaults, {@link CLONESET_FEATURE_GATES}). */
  gates?: Partial<CloneSetFeatureGates>;
}

/** The feature gates the CloneSet controller reads, with OpenKruise's defaults (spec §10). */
export const CLONESET_FEATURE_GATES = {
  /** Scale counts a pod in PreparingUpdate as updated (Alpha). */
  PreparingUpdateAsUpdate: false,
  /** A volumeClaimTemplates change makes pods be recreated instead of updated in place (Alpha). */
  RecreatePodWhenChangeVCTInCloneSetGate: false,
  /** In-place update of env read from labels/annotations, restarting only those containers (Beta). */
  InPlaceUpdateEnvFromMetadata: true,
} as const;
export type CloneSetFeatureGates = Record<keyof typeof CLONESET_FEATURE_GATES, boolean>;

export function cloneSetKey(namespace: string | undefined, name: string): string {
  return requestKey({ ...(namespace ? { namespace } : {}), name });
}

/** The v1alpha1 spec as the rollout math reads it (defaults the webhook would have set, when missing). */
export function rolloutSpec(cs: CloneSetObject): CloneSetRolloutSpec {
  const spec = cs.spec ?? {};
  const excluded = cs.metadata?.labels?.[SCALING_EXCLUDE_PREPARING_DELETE_LABEL] === 'true';
  return {
    ...spec,
    replicas: spec.replicas ?? 1,
    updateStrategy: spec.updateStrategy ?? {},
    scaleStrategy: { ...(spec.scaleStrategy ?? {}), ...(excluded ? { excludePreparingDelete: true } : {}) },
  };
}

function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}

export class CloneSetReconciler implements Reconciler {
  readonly #d: CloneSetReconcilerDeps;
  readonly #now: () => Date;
  readonly #random: RandomSource;
  readonly #gates: CloneSetFeatureGates;
  readonly #specGuard = new SpecGuard();

  constructor(deps: CloneSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...CLONESET_FEATURE_GATES, ...deps.gates };
    this.#now = deps.now ?? (() => new Date());
    this.#random = deps.random ?? Math.random;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = cloneSetKey(req.namespace, req.name);
    const { expectations } = this.#d;
    const cs = this.#d.clonesets.get(req.namespace, req.name) as CloneSetObject | undefined;
    if (!cs) {
      expectations.deleteScale(key);
      expectations.deleteUpdated(key);
      this.#d.rollouts?.forget(key);
      this.#specGuard.forget(key);
      return {};
    }
    const cloneSet: CloneSetObject = { ...cs, apiVersion: CLONESET_GVK.apiVersion, kind: CLONESET_GVK.kind };
    const problem = this.#specGuard.problem(key, cloneSet as unknown as CloneSet);
    if (problem) {
      // nothing to retry until the CloneSet changes; the event tells the user what to fix
      ctx.log.warn({ problem }, 'not reconciling this CloneSet: it fails validation');
      void this.#d.recorder.warning(
        cloneSet,
        INVALID_SPEC_REASON,
        `not acting on this CloneSet until it is fixed: ${problem}`,
      );
      return {};
    }
    const scaleSat = expectations.satisfiedScale(key);
    if (!scaleSat.satisfied) {
      ctx.log.debug({ pending: scaleSat.pending }, 'waiting for scale expectations');
      return { requeueAfterMs: Math.min(scaleSat.remainingMs, 5_000) };
    }
    expectations.observeUpdatedFrom(
      key,
      (name) => this.#d.pods.get(req.namespace, name)?.metadata?.resourceVersion ?? undefined,
    );
    const updSat = expectations.isUpdatedSatisfied(key);
    if (!updSat.satisfied) {
      ctx.log.debug({ pending: updSat.pending }, 'waiting for the cache to show our pod updates');
      return { requeueAfterMs: Math.min(updSat.remainingMs, 2_000) };
    }

    const uid = cloneSet.metadata?.uid ?? '';
    const owned = await this.#claimPods(cloneSet, ctx);
    const activePods = owned.filter(isPodActive);
    const inactivePods = owned.filter((p) => !isPodActive(p));
    const pvcs = (this.#d.pvcs.byIndex('ownerUid', uid) as PersistentVolumeClaim[]).filter(
      (c) => controllerRef(c)?.uid === uid && !c.metadata?.deletionTimestamp,
    );

    await this.#cleanupPvcs(cloneSet, key, activePods, inactivePods, pvcs);

    const { sorted, updateRevision, currentRevision, collisionCount } = await this.#revisions(cloneSet);
    const updateName = nameOf(updateRevision);
    const currentName = nameOf(currentRevision);

    await this.#preDownload(cloneSet, currentRevision, updateRevision, ctx);

    const stored = parseRolloutRecord(cloneSet.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
    let record = this.#d.rollouts ? this.#d.rollouts.current(key, stored) : stored;
    if (currentName !== updateName && record?.to !== updateName && !cloneSet.metadata?.deletionTimestamp) {
      // begin before acting, so the first pod updates of the rollout fall inside it
      record = await this.#beginRollout(cloneSet, key, record, currentName, updateName, ctx);
    }
    // a rollout whose last pods are seen done after its end still gets their spans (see #tracePod)
    const activeRecord = record && record.to === updateName ? record : undefined;
    const delays: number[] = [];
    let failure: { type: 'FailedScale' | 'FailedUpdate'; err: unknown } | undefined;
    if (!cloneSet.metadata?.deletionTimestamp) {
      try {
        const scaled = await this.#scale(
          cloneSet,
          key,
          activePods,
          pvcs,
          currentRevision,
          updateRevision,
          ctx,
          activeRecord,
        );
        if (!scaled) {
          try {
            await this.#update(
              cloneSet,
              key,
              activePods,
              sorted,
              currentName,
              updateRevision,
              delays,
              ctx,
              activeRecord,
            );
          } catch (err) {
            failure = { type: 'FailedUpdate', err };
          }
        }
      } catch (err) {
        failure = { type: 'FailedScale', err };
      }
    }

    // status from what the cache shows now (the writes above are seen on the next round)
    const now = this.#now();
    const spec = rolloutSpec(cloneSet);
    let conditions = (cloneSet.status?.['conditions'] as { type: string }[] | undefined) ?? [];
    if (failure) {
      conditions = [
        ...conditions.filter((c) => c.type !== failure.type),
        {
          type: failure.type,
          status: 'True',
          lastTransitionTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          message: errText(failure.err),
        } as { type: string },
      ];
    }
    const status = computeStatus({
      generation: cloneSet.metadata?.generation ?? 0,
      specReplicas: spec.replicas ?? 1,
      partition: spec.updateStrategy?.partition,
      minReadySeconds: spec.minReadySeconds ?? 0,
      selector: cloneSet.spec?.selector,
      pods: activePods,
      updateRevision: updateName,
      currentRevision: currentName,
      collisionCount,
      conditions,
      now,
    });
    const progress = syncProgressing({
      progressDeadlineSeconds: cloneSet.spec?.['progressDeadlineSeconds'] as number | null | undefined,
      paused: spec.updateStrategy?.paused === true,
      specReplicas: spec.replicas ?? 1,
      status,
      conditions: (status.conditions ?? []) as WorkloadCondition[],
      now,
    });
    if (progress.conditions.length > 0) status.conditions = progress.conditions;
    else delete status.conditions;
    if (progress.requeueAfterMs > 0) delays.push(progress.requeueAfterMs);
    await this.#writeStatus(cloneSet, status);
    await this.#followRollout(cloneSet, key, record, status, ctx);

    const pruned = prunePodsToDelete(spec.scaleStrategy?.podsToDelete, activePods);
    if (pruned !== undefined) {
      await this.#d.client
        .patch(
          { ...CLONESET_GVK, namespace: req.namespace, name: req.name },
          { spec: { scaleStrategy: { podsToDelete: pruned } } },
          { type: 'merge' },
        )
        .catch((err: unknown) => ctx.log.warn({ err }, 'could not prune podsToDelete'));
    }

    for (const r of revisionsToTruncate({
      sortedRevisions: sorted,
      currentRevision: status.currentRevision,
      updateRevision: updateName,
      pods: activePods,
      revisionHistoryLimit: cloneSet.spec?.revisionHistoryLimit ?? null,
    })) {
      await this.#d.client
        .delete({ ...REVISION, namespace: req.namespace, name: nameOf(r) })
        .catch((err: unknown) => {
          if (!isNotFound(err)) ctx.log.warn({ err, revision: nameOf(r) }, 'could not truncate history');
        });
    }

    if (failure) throw failure.err;
    const minReady = spec.minReadySeconds ?? 0;
    if (minReady > 0 && status.availableReplicas !== status.readyReplicas) delays.push(minReady * 1000);
    // pods that are scheduled but not yet Normal (e.g. waiting for a preNormal hook) are re-checked by their events
    const delay = delays.filter((d) => d > 0);
    return delay.length > 0 ? { requeueAfterMs: Math.min(...delay) } : {};
  }

  // ── claims ────────────────────────────────────────────────────────────────────────────────

  /**
   * The pods this CloneSet controls after claiming (spec §2.3 step 6): orphans in its namespace that match the
   * selector are adopted, owned pods that no longer match are released. An adoption is preceded by a live read of
   * the CloneSet (the cached one may be stale or deleted and re-created under the same name).
   */
  async #claimPods(cs: CloneSetObject, ctx: ReconcileContext): Promise<Pod[]> {
    const uid = cs.metadata?.uid ?? '';
    const ns = cs.metadata?.namespace;
    const owned = this.#d.pods.byIndex('ownerUid', uid) as Pod[];
    const orphans = ns
      ? (this.#d.pods.byIndex('namespace', ns) as Pod[]).filter((p) => controllerRef(p) === undefined)
      : [];
    const decisions = planClaims(claimOwnerOf(cs), [...owned, ...orphans], cs.spec?.selector ?? null);
    const claimed = [...decisions.keep];
    let canAdopt: boolean | undefined;
    for (const pod of decisions.adopt) {
      canAdopt ??= await this.#canAdopt(cs);
      if (!canAdopt) break;
      try {
        const out = await this.#d.client.patch<Pod>(
          { ...POD, namespace: ns, name: nameOf(pod) },
          adoptPatch(pod, newControllerRef(cs, CLONESET_GVK)),
          { type: 'strategic' },
        );
        this.#expectUpdated(cloneSetKey(ns, nameOf(cs)), out);
        claimed.push(out);
        ctx.log.info({ pod: nameOf(pod) }, 'adopted an orphan pod matching the selector');
      } catch (err) {
        // gone, or changed (the UID precondition): the next round sees it as it is now
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
    for (const pod of decisions.release) {
      try {
        await this.#d.client.patch({ ...POD, namespace: ns, name: nameOf(pod) }, releasePatch(pod, uid), {
          type: 'strategic',
        });
        ctx.log.info({ pod: nameOf(pod) }, 'released a pod that no longer matches the selector');
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
    return claimed;
  }

  async #canAdopt(cs: CloneSetObject): Promise<boolean> {
    try {
      const fresh = await this.#d.client.get<CloneSetObject>({
        ...CLONESET_GVK,
        namespace: cs.metadata?.namespace,
        name: nameOf(cs),
      });
      return fresh.metadata?.uid === cs.metadata?.uid && !fresh.metadata?.deletionTimestamp;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  // ── revisions ──────────────────────────────────────────────────────────────────────────────

  async #revisions(cs: CloneSetObject): Promise<{
    sorted: ControllerRevision[];
    updateRevision: ControllerRevision;
    currentRevision: ControllerRevision;
    collisionCount: number;
  }> {
    const ns = cs.metadata?.namespace;
    const all = this.#d.revisions.list(ns !== undefined ? { namespace: ns } : {}) as ControllerRevision[];
    let sorted = sortControllerRevisions(ownedRevisions(all, cs, cs.spec?.selector));
    let collisionCount = cs.status?.collisionCount ?? 0;
    const candidate = newCloneSetRevision(cs, nextRevision(sorted), collisionCount, CLONESET_GVK);
    const decision = decideUpdateRevision(sorted, candidate);
    let updateRevision: ControllerRevision;
    if (decision.type === 'reuse') {
      updateRevision = decision.revision;
    } else if (decision.type === 'rollback') {
      updateRevision = await this.#d.client.replace(decision.revision);
      sorted = sortControllerRevisions(
        sorted.map((r) => (nameOf(r) === nameOf(updateRevision) ? updateRevision : r)),
      );
    } else {
      let attempt = decision.revision;
      for (;;) {
        try {
          updateRevision = await this.#d.client.create(attempt);
          break;
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          const existing = await this.#d.client.get<ControllerRevision>({
            ...REVISION,
            namespace: ns,
            name: nameOf(attempt),
          });
          const resolution = resolveNameCollision(existing, attempt, collisionCount);
          if (resolution.type === 'reuse') {
            updateRevision = resolution.revision;
            break;
          }
          collisionCount = resolution.collisionCount;
          attempt = revisionForCollisionCount(candidate, cs.metadata?.name ?? '', collisionCount);
        }
      }
      if (!sorted.some((r) => nameOf(r) === nameOf(updateRevision))) sorted = [...sorted, updateRevision];
    }
    const currentRevision = currentRevisionOf(sorted, cs.status?.currentRevision, updateRevision);
    return { sorted, updateRevision, currentRevision, collisionCount };
  }

  // ── image pre-download (spec §2.3 step 10) ──────────────────────────────────────────────────

  async #preDownload(
    cs: CloneSetObject,
    currentRevision: ControllerRevision,
    updateRevision: ControllerRevision,
    ctx: ReconcileContext,
  ): Promise<void> {
    const downloader = this.#d.imagePreDownload;
    if (!downloader) return;
    const step = preDownloadStep({
      annotations: cs.metadata?.annotations,
      replicas: rolloutSpec(cs).replicas ?? 1,
      currentRevision: nameOf(currentRevision),
      updateRevision: nameOf(updateRevision),
      status: cs.status as { updateRevision?: string; updatedReadyReplicas?: number } | undefined,
    });
    try {
      if (step.action === 'prepare')
        await downloader.prepare({ cloneSet: cs, currentRevision, updateRevision });
      else if (step.action === 'cleanup') await downloader.cleanup(cs);
    } catch (err) {
      // pulling ahead only saves time: the rollout goes on without it
      ctx.log.warn({ err, step: step.action }, 'image pre-download failed');
    }
  }

  // ── PVC clean-up (reuse disabled) ─────────────────────────────────────────────────────────

  async #cleanupPvcs(
    cs: CloneSetObject,
    key: string,
    activePods: Pod[],
    inactivePods: Pod[],
    pvcs: PersistentVolumeClaim[],
  ): Promise<void> {
    if (!cs.spec?.scaleStrategy?.disablePVCReuse) return;
    const plan = planPvcCleanup(activePods, inactivePods, pvcs);
    // claims of a terminating / terminated pod: the pod owns them now, so they go with it
    for (const { pvc, pod } of plan.handOver) {
      await this.#d.client
        .replace({ ...claimOwnedByPod(pvc, cs.metadata?.uid ?? '', pod), ...PVC })
        .catch((err: unknown) => {
          if (!isNotFound(err) && !isConflict(err)) {
            void this.#d.recorder.warning(
              cs,
              EventReasons.FailedUpdate,
              `failed to update pvc ${nameOf(pvc)}: ${errText(err)}`,
            );
          }
        });
    }
    for (const pvc of plan.remove) {
      this.#d.expectations.expectScale(key, 'delete', nameOf(pvc));
      try {
        await this.#d.client.delete({ ...PVC, namespace: pvc.metadata?.namespace, name: nameOf(pvc) });
      } catch (err) {
        this.#d.expectations.observeScale(key, 'delete', nameOf(pvc));
        if (!isNotFound(err)) {
          void this.#d.recorder.warning(
            cs,
            EventReasons.FailedDelete,
            `failed to delete pvc ${nameOf(pvc)}: ${errText(err)}`,
          );
        }
      }
    }
  }

  // ── scale ──────────────────────────────────────────────────────────────────────────────────

  /** Returns true when it changed something (the update step then waits for the next round). */
  async #scale(
    cs: CloneSetObject,
    key: string,
    pods: Pod[],
    pvcs: PersistentVolumeClaim[],
    currentRevision: ControllerRevision,
    updateRevision: ControllerRevision,
    ctx: ReconcileContext,
    record?: RolloutRecord,
  ): Promise<boolean> {
    const spec = rolloutSpec(cs);
    const now = this.#now();
    const plan = planScale(
      { spec, pods, pvcs, currentRevision: nameOf(currentRevision), updateRevision: nameOf(updateRevision) },
      {
        now,
        random: this.#random,
        excludePreparingDelete: spec.scaleStrategy?.excludePreparingDelete ?? false,
        preparingUpdateAsUpdate: this.#gates.PreparingUpdateAsUpdate,
      },
    );
    if (plan.action !== 'cancelPreparingDelete' && plan.scaleUpLimited) {
      void this.#d.recorder.warning(
        cs,
        'ScaleUpLimited',
        messages.scaleUpLimited(plan.diffs?.scaleUpLimit ?? 0),
      );
    }
    switch (plan.action) {
      case 'none':
        return false;
      case 'cancelPreparingDelete': {
        for (const p of plan.pods) await this.#transition(key, p, LifecycleState.PreparingNormal, {});
        return true;
      }
      case 'create': {
        ctx.log.info({ count: plan.creations.length }, 'creating pods');
        const { created, errors } = await this.#createPods(
          cs,
          key,
          plan.creations,
          pvcs,
          currentRevision,
          updateRevision,
        );
        for (const err of errors) ctx.log.warn({ err }, 'pod creation failed');
        if (created === 0 && errors.length > 0) throw errors[0];
        return created > 0;
      }
      case 'delete': {
        let modified = false;
        await forEachLimited(plan.deletions, POD_WRITE_CONCURRENCY, async (d) => {
          if (d.step.action === 'prepareDelete') {
            const wrote = await this.#transition(key, d.pod, LifecycleState.PreparingDelete, {
              markPodNotReady: d.step.markPodNotReady,
            });
            if (wrote) modified = true;
            return;
          }
          if (await this.#deletePod(cs, key, d.pod, d.pvcs)) {
            modified = true;
            if (getPodLifecycleState(d.pod) === LifecycleState.PreparingDelete)
              this.#traceHookWait(record, d.pod, 'preDelete');
          }
        });
        return modified;
      }
    }
  }

  async #createPods(
    cs: CloneSetObject,
    key: string,
    creations: { id: string; revision: 'current' | 'update' }[],
    existingPvcs: PersistentVolumeClaim[],
    currentRevision: ControllerRevision,
    updateRevision: ControllerRevision,
  ): Promise<{ created: number; errors: unknown[] }> {
    const now = this.#now();
    const { expectations, client, recorder } = this.#d;
    const vcts = cs.spec?.volumeClaimTemplates ?? null;
    let created = 0;
    const errors: unknown[] = [];
    let index = 0;
    const create = async (c: { id: string; revision: 'current' | 'update' }): Promise<boolean> => {
      const rev = c.revision === 'current' ? currentRevision : updateRevision;
      const pod = newCloneSetPod({
        cloneSet: cs,
        template: templateFromRevision(rev),
        revision: nameOf(rev),
        volumeClaimTemplates: vcts,
        id: c.id,
        now,
      });
      for (const claim of claimsToCreate(newCloneSetClaims(cs, vcts, c.id), existingPvcs)) {
        expectations.expectScale(key, 'create', nameOf(claim));
        try {
          await client.create(claim);
        } catch (err) {
          expectations.observeScale(key, 'create', nameOf(claim));
          if (!isAlreadyExists(err)) {
            void recorder.warning(cs, EventReasons.FailedCreate, messages.failedCreatePvc(err));
            errors.push(err);
            return false;
          }
        }
      }
      expectations.expectScale(key, 'create', nameOf(pod));
      try {
        await client.create(pod);
      } catch (err) {
        expectations.observeScale(key, 'create', nameOf(pod));
        void recorder.warning(cs, EventReasons.FailedCreate, messages.failedCreatePod(err));
        errors.push(err);
        return false;
      }
      void recorder.normal(cs, EventReasons.SuccessfulCreate, messages.createdPod(nameOf(pod)));
      return true;
    };
    for (const size of slowStartBatches(creations.length)) {
      const batch = creations.slice(index, index + size);
      index += size;
      const results: boolean[] = [];
      // a slow-start batch, at most POD_WRITE_CONCURRENCY creates in flight
      await forEachLimited(batch, POD_WRITE_CONCURRENCY, async (c) => {
        results.push(await create(c));
      });
      created += results.filter(Boolean).length;
      if (results.some((ok) => !ok)) break;
    }
    return { created, errors };
  }

  async #deletePod(
    cs: CloneSetObject,
    key: string,
    pod: Pod,
    pvcs: PersistentVolumeClaim[],
  ): Promise<boolean> {
    const { expectations, client, recorder } = this.#d;
    const name = nameOf(pod);
    expectations.expectScale(key, 'delete', name);
    try {
      await client.delete(
        { ...POD, namespace: pod.metadata?.namespace, name },
        pod.metadata?.uid ? { preconditions: { uid: pod.metadata.uid } } : {},
      );
    } catch (err) {
      expectations.observeScale(key, 'delete', name);
      if (isNotFound(err)) return false;
      void recorder.warning(cs, EventReasons.FailedDelete, messages.failedDeletePod(name, err));
      throw err;
    }
    void recorder.normal(cs, EventReasons.SuccessfulDelete, messages.deletedPod(name));
    for (const pvc of pvcs) {
      expectations.expectScale(key, 'delete', nameOf(pvc));
      await client
        .delete({ ...PVC, namespace: pvc.metadata?.namespace, name: nameOf(pvc) })
        .catch((err: unknown) => {
          expectations.observeScale(key, 'delete', nameOf(pvc));
          if (!isNotFound(err)) throw err;
        });
    }
    return true;
  }

  // ── pod writes ──────────────────────────────────────────────────────────────────────────────

  /** Writes status conditions (strategic merge by type) and returns the pod the server answered. */
  async #writeConditions(
    key: string,
    pod: Pod,
    conditions: PodCondition[],
    /** When given, the write fails with a conflict unless the pod is still at this version. */
    resourceVersion?: string,
  ): Promise<Pod> {
    const out = await this.#d.client.patchStatus<Pod>(
      { ...POD, namespace: pod.metadata?.namespace, name: nameOf(pod) },
      { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status: { conditions } },
      { type: 'strategic' },
    );
    this.#expectUpdated(key, out);
    return out;
  }

  #expectUpdated(key: string, pod: KubeObject): void {
    const rv = pod.metadata?.resourceVersion;
    if (rv) this.#d.expectations.expectUpdated(key, nameOf(pod), rv);
  }

  async #patchPod(key: string, pod: Pod, patch: unknown): Promise<Pod> {
    const out = await this.#d.client.patch<Pod>(
      { ...POD, namespace: pod.metadata?.namespace, name: nameOf(pod) },
      patch,
      { type: 'strategic' },
    );
    this.#expectUpdated(key, out);
    return out;
  }

  /** A lifecycle state change; true when something was written. */
  async #transition(
    key: string,
    pod: Pod,
    to: Parameters<typeof transition>[1],
    options: Parameters<typeof transition>[3],
  ): Promise<boolean> {
    const t = transition(pod, to, this.#now(), options);
    let wrote = false;
    if (t.conditions) {
      await this.#writeConditions(key, pod, t.conditions);
      wrote = true;
    }
    if (t.updated && t.patch) {
      await this.#patchPod(key, pod, t.patch);
      wrote = true;
    }
    return wrote;
  }

  // ── update ──────────────────────────────────────────────────────────────────────────────────

  async #update(
    cs: CloneSetObject,
    key: string,
    pods: Pod[],
    revisions: ControllerRevision[],
    currentName: string,
    updateRevision: ControllerRevision,
    delays: number[],
    ctx: ReconcileContext,
    record?: RolloutRecord,
  ): Promise<void> {
    const spec = rolloutSpec(cs);
    const lifecycle = spec.lifecycle ?? null;
    const updateName = nameOf(updateRevision);
    const now = this.#now();

    // 1. per-pod refresh: in-place progress, lifecycle, pod-template-hash (pods in parallel, each pod's writes in order)
    let modified = false;
    await forEachLimited(pods, POD_WRITE_CONCURRENCY, async (pod) => {
      const refresh = refreshInPlaceUpdate(pod, { now });
      if (refresh.action === 'wait') delays.push(refresh.delaySeconds * 1000);
      else if (refresh.action === 'update') {
        try {
          this.#expectUpdated(key, await this.#d.client.replace(refresh.pod));
        } catch (err) {
          if (!isConflict(err) && !isNotFound(err)) throw err;
        }
      } else if (refresh.action === 'setReady') {
        await this.#writeConditions(key, pod, refresh.conditions).catch((err: unknown) => {
          if (!isConflict(err) && !isNotFound(err)) throw err;
        });
      }
      const to = refreshLifecycleState(pod, lifecycle, {
        atUpdateRevision: isPodAtRevision(pod, updateName),
        inPlaceUpdateCompleted: checkPodUpdateCompleted(pod).completed,
      });
      if (to !== undefined) {
        const markPodNotReady = lifecycle?.inPlaceUpdate?.markPodNotReady === true;
        if (await this.#transition(key, pod, to, { markPodNotReady })) {
          modified = true;
          if (record) this.#tracePod(record, pod, updateName, now);
        }
      }
      const hashPatch = podTemplateHashPatch(pod);
      if (hashPatch) {
        await this.#patchPod(key, pod, hashPatch);
        modified = true;
      }
    });
    if (modified) return;

    // 2–7. what to update this round
    const plan = planUpdate(spec, pods, currentName, updateName, { now });
    if (!plan) return;
    const target = revisions.find((r) => nameOf(r) === plan.targetRevision) ?? updateRevision;
    const type = spec.updateStrategy?.type ?? 'ReCreate';
    await forEachLimited(plan.pods, POD_WRITE_CONCURRENCY, (pod) =>
      this.#updatePod(cs, key, pod, revisions, target, type, delays, ctx, record),
    );
  }

  async #updatePod(
    cs: CloneSetObject,
    key: string,
    pod: Pod,
    revisions: ControllerRevision[],
    target: ControllerRevision,
    type: string,
    delays: number[],
    ctx: ReconcileContext,
    record?: RolloutRecord,
  ): Promise<void> {
    const { client, recorder } = this.#d;
    const spec = rolloutSpec(cs);
    const lifecycle = spec.lifecycle ?? null;
    const name = nameOf(pod);
    const targetName = nameOf(target);
    const now = this.#now();
    if (type === 'InPlaceIfPossible' || type === 'InPlaceOnly') {
      const old = revisionOfPod(pod, revisions);
      const grace = spec.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
      const options = {
        now,
        gracePeriodSeconds: grace,
        recreatePodWhenChangeVCT: this.#gates.RecreatePodWhenChangeVCTInCloneSetGate,
        envFromMetadata: this.#gates.InPlaceUpdateEnvFromMetadata,
        ...(type === 'InPlaceOnly' ? { ignoreVolumeClaimTemplatesHashDiff: true } : {}),
        additional: [(p: Pod) => setPodLifecycle(p, LifecycleState.Updating, now)],
      };
      const plan = planInPlaceUpdate(pod, old, target, options);
      if (plan.inPlace) {
        const step = inPlaceUpdateStep(pod, lifecycle);
        if (step.action === 'wait') return;
        if (step.action === 'prepareUpdate') {
          await this.#transition(key, pod, LifecycleState.PreparingUpdate, {
            markPodNotReady: step.markPodNotReady,
          });
          return;
        }
        if (step.action === 'rehook') {
          await this.#transition(key, pod, LifecycleState.PreparingUpdate, {
            rehook: lifecycle?.inPlaceUpdate ?? null,
          });
          return;
        }
        try {
          let attempt = 0;
          await retryOnConflict(async () => {
            // the cached pod first, its resourceVersion the precondition of both writes; a fresh read after a conflict
            const fresh =
              attempt++ === 0
                ? pod
                : await client.get<Pod>({ ...POD, namespace: pod.metadata?.namespace, name });
            const p = planInPlaceUpdate(fresh, old, target, options);
            if (!p.inPlace) return;
            let rv = fresh.metadata?.resourceVersion;
            if (p.conditions)
              rv = (await this.#writeConditions(key, fresh, p.conditions, rv)).metadata?.resourceVersion;
            const body: Pod = {
              ...p.pod,
              metadata: { ...p.pod.metadata, ...(rv ? { resourceVersion: rv } : {}) },
            };
            const out = await client.replace(body);
            this.#expectUpdated(key, out);
            if (p.delaySeconds > 0) delays.push(p.delaySeconds * 1000);
          });
        } catch (err) {
          void recorder.warning(
            cs,
            EventReasons.FailedUpdatePodInPlace,
            messages.failedUpdateInPlace(name, targetName, err),
          );
          throw err;
        }
        void recorder.normal(
          cs,
          EventReasons.SuccessfulUpdatePodInPlace,
          messages.updatedInPlace(name, targetName),
        );
        if (getPodLifecycleState(pod) === LifecycleState.PreparingUpdate)
          this.#traceHookWait(record, pod, 'inPlaceUpdate');
        return;
      }
      if (type === 'InPlaceOnly') throw new Error(messages.inPlaceOnlyImpossible(name));
      ctx.log.debug({ pod: name, reason: plan.reason }, 'cannot update in place; recreating');
    }
    // recreate: mark the pod; the scale step deletes it and creates the replacement
    const patch = specifiedDeletePatch(pod);
    if (!patch) return;
    try {
      await this.#patchPod(key, pod, patch);
    } catch (err) {
      void recorder.warning(
        cs,
        EventReasons.FailedUpdatePodReCreate,
        messages.failedRecreate(name, targetName, err),
      );
      throw err;
    }
    void recorder.normal(cs, EventReasons.SuccessfulUpdatePodReCreate, messages.recreated(name, targetName));
  }

  // ── traces ──────────────────────────────────────────────────────────────────────────────────

  /** A pod of the rollout reached Normal/Updated: its update span, from the controller's write until now. */
  #tracePod(record: RolloutRecord, pod: Pod, updateName: string, now: Date): void {
    const rollouts = this.#d.rollouts;
    if (!rollouts || !isPodAtRevision(pod, updateName)) return;
    const state = pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
    const rolloutStart = Date.parse(record.start);
    // after the rollout ended, only updates that began before its end belong to it
    const rolloutEnd = record.done && record.end ? Date.parse(record.end) : Number.POSITIVE_INFINITY;
    const belongs = (started: number) => started >= rolloutStart - 1000 && started <= rolloutEnd;
    if (state === LifecycleState.Updating) {
      let started: number;
      try {
        const raw = pod.metadata?.annotations?.['apps.kruise.io/inplace-update-state'];
        started = Date.parse((JSON.parse(raw ?? '{}') as { updateTimestamp?: string }).updateTimestamp ?? '');
      } catch {
        started = Number.NaN;
      }
      if (belongs(started)) rollouts.podUpdate(record, nameOf(pod), 'in-place', new Date(started), now);
    } else if (state === LifecycleState.PreparingNormal) {
      const created = Date.parse(pod.metadata?.creationTimestamp ?? '');
      if (belongs(created)) rollouts.podUpdate(record, nameOf(pod), 'recreate', new Date(created), now);
    }
  }

  /** A new rollout: its root span begins (an open one for an older revision was superseded and ends). */
  async #beginRollout(
    cs: CloneSetObject,
    key: string,
    previous: RolloutRecord | undefined,
    from: string,
    to: string,
    ctx: ReconcileContext,
  ): Promise<RolloutRecord | undefined> {
    const rollouts = this.#d.rollouts;
    if (!rollouts) return previous;
    const now = this.#now();
    if (previous && !previous.done) {
      for (const h of syncHolds(previous.holds, new Set(), now).ended)
        rollouts.hold(previous, h.hold, new Date(h.start), now);
    }
    const spec = rolloutSpec(cs);
    const record = rollouts.begin(
      key,
      {
        namespace: cs.metadata?.namespace ?? '',
        name: nameOf(cs),
        from,
        to,
        strategy: spec.updateStrategy?.type ?? 'ReCreate',
        replicas: spec.replicas ?? 1,
        partition: String(spec.updateStrategy?.partition ?? 0),
      },
      now,
      previous,
    );
    await this.#storeRollout(cs, record, ctx);
    return record;
  }

  /** Follows the open rollout: its holds (pause, partition), and its end once every pod is updated and ready. */
  async #followRollout(
    cs: CloneSetObject,
    key: string,
    record: RolloutRecord | undefined,
    status: ComputedCloneSetStatus,
    ctx: ReconcileContext,
  ): Promise<void> {
    const rollouts = this.#d.rollouts;
    if (!rollouts || !record || record.done || record.to !== status.updateRevision) return;
    if (cs.metadata?.deletionTimestamp) return;
    const now = this.#now();
    const rolling = status.currentRevision !== status.updateRevision;
    const finished = !rolling && status.updatedReadyReplicas === status.replicas;
    const holds = syncHolds(
      record.holds,
      finished
        ? new Set()
        : activeHolds({
            rolling,
            paused: rolloutSpec(cs).updateStrategy?.paused === true,
            replicas: status.replicas,
            updatedReplicas: status.updatedReplicas,
            updatedReadyReplicas: status.updatedReadyReplicas,
            expectedUpdatedReplicas: status.expectedUpdatedReplicas,
          }),
      now,
    );
    for (const h of holds.ended) rollouts.hold(record, h.hold, new Date(h.start), now);
    let next: RolloutRecord | undefined;
    if (finished) next = rollouts.finish(key, record, now);
    else if (holds.changed) {
      const withHolds: RolloutRecord = { ...record };
      if (Object.keys(holds.open).length > 0) withHolds.holds = holds.open;
      else delete withHolds.holds;
      next = rollouts.update(key, withHolds);
    }
    if (next) await this.#storeRollout(cs, next, ctx);
  }

  /** Stores the rollout record on the CloneSet (best effort: the tracer keeps the freshest record meanwhile). */
  async #storeRollout(cs: CloneSetObject, next: RolloutRecord, ctx: ReconcileContext): Promise<void> {
    await this.#d.client
      .patch(
        { ...CLONESET_GVK, namespace: cs.metadata?.namespace, name: nameOf(cs) },
        { metadata: { annotations: { [ROLLOUT_TRACE_ANNOTATION]: JSON.stringify(next) } } },
        { type: 'merge' },
      )
      .catch((err: unknown) => ctx.log.debug({ err }, 'could not store the rollout trace context'));
  }

  /** A pod leaves a lifecycle hook's waiting state during a rollout: its wait, from the state's timestamp. */
  #traceHookWait(record: RolloutRecord | undefined, pod: Pod, hook: 'preDelete' | 'inPlaceUpdate'): void {
    const since = Date.parse(pod.metadata?.annotations?.[LIFECYCLE_TIMESTAMP_KEY] ?? '');
    if (!record || record.done || !this.#d.rollouts || Number.isNaN(since)) return;
    this.#d.rollouts.hookWait(record, nameOf(pod), hook, new Date(since), this.#now());
  }

  // ── status ──────────────────────────────────────────────────────────────────────────────────

  async #writeStatus(cs: CloneSetObject, status: ComputedCloneSetStatus): Promise<void> {
    if (!statusChanged(cs.status, status)) return;
    const ref = { ...CLONESET_GVK, namespace: cs.metadata?.namespace, name: nameOf(cs) };
    try {
      await this.#d.client.patchStatus(ref, { status }, { type: 'merge' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

export { CONTROLLER_NAME };
