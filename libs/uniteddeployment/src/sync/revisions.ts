/**
 * UnitedDeployment revisions (OpenKruise `pkg/controller/uniteddeployment/revision.go`, docs/uniteddeployment.md
 * "Revisions"): only `spec.template` is versioned, as `{"spec":{"template":{…,"$patch":"replace"}}}`; the revision is
 * named `<ud>-<hash>` and labelled with the StatefulSet/ASTS/Deployment template's labels. Revisions are found by
 * owner reference (those of a CloneSet template carry no labels the selector could match); orphans named `<ud>-…`
 * that match the selector are adopted (sync/claim.ts).
 */
import { type KubeObject, newControllerRef } from '@regatta/kube';
import {
  type ControllerRevision,
  type PodTemplate,
  controllerRevisionName,
  hashControllerRevision,
  syncRevisions,
  templateRevisionData,
  truncateHistory,
} from '@regatta/revision';
import {
  DEFAULT_UD_REVISION_HISTORY_LIMIT,
  REASONS,
  REVISION_HASH_LABEL,
  UNITED_DEPLOYMENT_GVK,
} from '../keys.js';
import type { SubsetKind } from '../subset/kinds.js';
import type { UnitedDeployment } from '../types.js';
import { claimRevisions } from './claim.js';
import type { StepContext } from './context.js';

export interface UdRevisions {
  current: string;
  update: string;
  collisionCount: number;
}

/** The revision of the UnitedDeployment's template now, numbered `revision`. */
export function newUdRevision(
  ud: UnitedDeployment,
  kind: SubsetKind | undefined,
  revision: number,
  collisionCount: number,
): ControllerRevision {
  const labels =
    kind && kind.template !== 'cloneSetTemplate'
      ? { ...ud.spec.template?.[kind.template]?.metadata?.labels }
      : {};
  const cr: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      namespace: ud.metadata?.namespace,
      labels,
      ownerReferences: [newControllerRef(ud as KubeObject, UNITED_DEPLOYMENT_GVK)],
    },
    data: templateRevisionData((ud.spec.template ?? {}) as PodTemplate),
    revision,
  };
  const hash = hashControllerRevision(cr, collisionCount);
  cr.metadata = {
    ...cr.metadata,
    name: controllerRevisionName(ud.metadata?.name ?? '', hash),
    labels: { ...labels, [REVISION_HASH_LABEL]: hash },
  };
  return cr;
}

export async function revisionsStep(
  s: StepContext,
  ud: UnitedDeployment,
  kind: SubsetKind | undefined,
): Promise<UdRevisions> {
  try {
    const owned = await claimRevisions<ControllerRevision>(s, ud);
    const sync = await syncRevisions(s.d.client, {
      owner: ud,
      selector: {},
      revisions: owned,
      collisionCount: ud.status?.collisionCount ?? 0,
      currentRevision: ud.status?.currentRevision,
      candidate: (revision, collisionCount) => newUdRevision(ud, kind, revision, collisionCount),
    });
    const current = sync.currentRevision.metadata?.name ?? '';
    const update = sync.updateRevision.metadata?.name ?? '';
    await truncateHistory(
      s.d.client,
      {
        sortedRevisions: sync.sorted,
        currentRevision: current,
        updateRevision: update,
        pods: [],
        revisionHistoryLimit: ud.spec.revisionHistoryLimit ?? DEFAULT_UD_REVISION_HISTORY_LIMIT,
      },
      (err, name) => s.log.warn({ err, revision: name }, 'could not delete an old revision'),
    );
    return { current, update, collisionCount: sync.collisionCount };
  } catch (err) {
    void s.d.recorder.warning(
      ud,
      REASONS.FailedRevisionProvision,
      err instanceof Error ? err.message : String(err),
    );
    throw err;
  }
}
