/**
 * `regatta rollout undo`: which revision to go back to and the patch that restores its template, as `kubectl rollout
 * undo` does for a StatefulSet or DaemonSet (k8s.io/kubectl `pkg/polymorphichelpers/rollback.go`): without
 * `--to-revision` the revision before the newest, else the one numbered N; refused when it does not exist, and
 * skipped (nothing sent, exit 0, kubectl's "skipped rollback") when the workload's template already equals it. Each kind's revision data holds `{"spec":{"template":{…,"$patch":"replace"}}}`
 * (libs/revision `templateRevisionData`; CloneSet, Advanced StatefulSet, Advanced DaemonSet and UnitedDeployment build
 * theirs that way), so the template is restored by replacing `spec.template` whole.
 */
import { isPlainObject, jsonEqual, type JsonPatchOperation } from '@regatta/kube';
import { RevisionDataError, templateFromRevision, type ControllerRevision as StoredRevision } from '@regatta/revision';
import { RolloutCliError, RolloutUsageError } from './errors.js';
import type { ControllerRevision } from './history.js';
import type { KindInfo } from './kinds.js';
import type { Workload } from './progress.js';

/** The kinds whose revisions hold `spec.template` (SidecarSet's hold its containers and volumes instead). */
const UNDO_KINDS = new Set(['CloneSet', 'StatefulSet', 'DaemonSet', 'UnitedDeployment']);

/** The revision to roll back to does not exist, or there is none before the newest. */
export class RevisionNotFoundError extends RolloutCliError {
  constructor(message: string) {
    super('REGATTA_ROLLOUT_REVISION_NOT_FOUND', message, 1);
  }
}

/**
 * What `undo` does: restore a revision's template, or nothing when the workload's template already matches it
 * (`skip`; kubectl's `rollback.go` answers "skipped rollback (current template already matches revision N)" and
 * exits 0).
 */
export type UndoPlan =
  | {
      action: 'rollback';
      /** The revision whose template is restored. */
      revision: number;
      revisionName: string;
      /** RFC 6902: a `test` of the resourceVersion read (a concurrent edit makes it fail), then `replace /spec/template`. */
      patch: JsonPatchOperation[];
    }
  | { action: 'skip'; revision: number; revisionName: string };

/**
 * The pod template a revision stores, without the `$patch` directive (libs/revision `templateFromRevision`);
 * undefined when its data holds none.
 */
export function revisionTemplate(r: ControllerRevision): Record<string, unknown> | undefined {
  try {
    return templateFromRevision(r as StoredRevision) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof RevisionDataError) return undefined;
    throw err;
  }
}

/** Go writes a template's zero `metadata.creationTimestamp` as null; it says nothing about the template. */
function comparable(template: unknown): unknown {
  if (!isPlainObject(template) || !isPlainObject(template['metadata'])) return template;
  const { creationTimestamp, ...metadata } = template['metadata'];
  return creationTimestamp == null ? { ...template, metadata } : template;
}

/** Whether the workload's `spec.template` equals the template stored in `r`. */
export function templateMatches(w: Workload, r: ControllerRevision): boolean {
  const stored = revisionTemplate(r);
  return stored !== undefined && jsonEqual(comparable(w.spec?.['template']), comparable(stored));
}

/**
 * The revision to restore and the patch. `owned` are the ControllerRevisions the workload controls (any order);
 * `toRevision` 0 means the one before the newest.
 */
export function planUndo(
  info: KindInfo,
  name: string,
  w: Workload,
  owned: readonly ControllerRevision[],
  toRevision = 0,
): UndoPlan {
  const label = `${info.title} ${JSON.stringify(name)}`;
  if (!UNDO_KINDS.has(info.kind)) {
    throw new RolloutUsageError(`${info.title} has no template revisions to roll back to; edit its spec instead`);
  }
  if (!Number.isInteger(toRevision) || toRevision < 0) {
    throw new RolloutUsageError(`--to-revision must be a whole number ≥ 0, got ${toRevision}`);
  }
  const sorted = [...owned].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
  let target: ControllerRevision | undefined;
  if (toRevision === 0) {
    if (sorted.length < 2) throw new RevisionNotFoundError(`${label} has no previous revision to roll back to`);
    target = sorted[sorted.length - 2];
  } else {
    target = sorted.find((r) => r.revision === toRevision);
    if (!target) {
      const have = sorted.map((r) => r.revision ?? 0).join(', ') || 'none';
      throw new RevisionNotFoundError(`${label} has no revision ${toRevision} (revisions: ${have})`);
    }
  }
  const found = target!;
  const revision = found.revision ?? 0;
  const revisionName = found.metadata?.name ?? '';
  const template = revisionTemplate(found);
  if (!template) {
    throw new RolloutCliError(
      'REGATTA_ROLLOUT_REVISION_INVALID',
      `ControllerRevision ${revisionName} (revision ${revision}) holds no spec.template`,
      1,
    );
  }
  if (templateMatches(w, found)) return { action: 'skip', revision, revisionName };
  const patch: JsonPatchOperation[] = [];
  const rv = w.metadata?.resourceVersion;
  if (rv) patch.push({ op: 'test', path: '/metadata/resourceVersion', value: rv });
  patch.push({ op: 'replace', path: '/spec/template', value: template });
  return { action: 'rollback', revision, revisionName, patch };
}
