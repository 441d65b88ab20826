/**
 * Building a workload's ControllerRevision the way Kruise's CloneSet does (`revision.NewRevision` over
 * `history.NewControllerRevision`): the data is the patch `{"spec":{"template":{…template, "$patch":"replace"}}}`,
 * the name `<parent>-<hash>` with `hash = SafeEncode(FNV-1(data) + collisionCount)`.
 */
import { type GroupVersionKind, cloneJson, isPlainObject, newControllerRef } from '@regatta/kube';
import { goJson } from './go-json.js';
import { Fnv32, safeEncodeString } from './hash.js';
import { MAX_PARENT_NAME_LENGTH, REVISION_HASH_LABEL, VCT_HASH_ANNOTATION } from './keys.js';
import type { ControllerRevision, PodTemplate, RevisionedWorkload } from './types.js';
import { volumeClaimTemplatesHash } from './vct-hash.js';

/** The kind a CloneSet's revisions are owned by when the object carries no apiVersion/kind (list items). */
export const CLONESET_KIND: GroupVersionKind = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' };

/** The revision cannot be built or read: the workload or the stored data lacks what is needed. */
export class RevisionDataError extends Error {
  readonly code = 'REGATTA_REVISION_INVALID_DATA';

  constructor(message: string) {
    super(message);
    this.name = 'RevisionDataError';
  }
}

/** The revision data of a template: `{"spec":{"template":{…, "$patch":"replace"}}}` (SetRevisionTemplate). */
export function templateRevisionData(template: PodTemplate): Record<string, unknown> {
  return { spec: { template: { ...cloneJson(template), $patch: 'replace' } } };
}

/** The exact bytes Kruise stores as `Data.Raw` (and hashes): Go-marshalled JSON of the data object. */
export function revisionDataBytes(revision: Pick<ControllerRevision, 'data'>): string {
  return goJson(revision.data ?? null);
}

/**
 * The revision with its data's keys in the order Go writes them (sorted), to be sent on create. The API server keeps
 * `data` as the bytes it received and re-encodes it in Go's order when any patch touches the revision (the garbage
 * collector's, orphaning it; a label patch); bytes that differ are refused as a change of the immutable `data`, and
 * the orphaning owner could then never be deleted. (Go's string escaping is the client's: libs/kube json-body.ts.)
 */
export function withGoOrderedData<R extends Pick<ControllerRevision, 'data'>>(revision: R): R {
  return revision.data === undefined
    ? revision
    : { ...revision, data: JSON.parse(goJson(revision.data)) as unknown };
}

/**
 * `history.HashControllerRevision`: FNV-1 32-bit over the data bytes, then the decimal collision count when one is
 * given, printed in decimal and safe-encoded (e.g. `5d4b9c8f7`).
 */
export function hashControllerRevision(
  revision: Pick<ControllerRevision, 'data'>,
  collisionCount?: number | null,
): string {
  const h = new Fnv32('fnv1').write(revisionDataBytes(revision));
  if (collisionCount != null) h.write(String(collisionCount));
  return safeEncodeString(String(h.sum32()));
}

/** `history.ControllerRevisionName`: `<parent (at most 223 chars)>-<hash>`. */
export function controllerRevisionName(parentName: string, hash: string): string {
  return `${parentName.slice(0, MAX_PARENT_NAME_LENGTH)}-${hash}`;
}

/**
 * The update-revision candidate for a CloneSet (`NewRevision`): data from `spec.template`; labels = template labels +
 * `controller.kubernetes.io/hash`; annotations = the CloneSet's + the VCT hash; controller owner reference; name from
 * the hash with `collisionCount` mixed in. Pass `gvk` when the object lacks apiVersion/kind. Advanced StatefulSet
 * builds its revisions the same way without the VCT hash (`options.volumeClaimTemplatesHash: false`; OpenKruise
 * `pkg/controller/statefulset/stateful_set_utils.go` `newRevision`).
 */
export function newCloneSetRevision(
  cloneSet: RevisionedWorkload,
  revisionNumber: number,
  collisionCount: number,
  gvk: GroupVersionKind = CLONESET_KIND,
  options: { volumeClaimTemplatesHash?: boolean } = {},
): ControllerRevision {
  const name = cloneSet.metadata?.name;
  const template = cloneSet.spec?.template;
  if (!name)
    throw new RevisionDataError(
      'the CloneSet has no metadata.name; build revisions from an object read from the API server',
    );
  if (!isPlainObject(template))
    throw new RevisionDataError(`CloneSet ${name} has no spec.template to build a revision from`);
  const data = templateRevisionData(template);
  const hash = hashControllerRevision({ data }, collisionCount);
  const owner = { apiVersion: cloneSet.apiVersion ?? gvk.apiVersion, kind: cloneSet.kind ?? gvk.kind };
  const namespace = cloneSet.metadata?.namespace;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name, hash),
      ...(namespace !== undefined ? { namespace } : {}),
      labels: { ...(template.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
      annotations: {
        ...(cloneSet.metadata?.annotations ?? {}),
        ...(options.volumeClaimTemplatesHash === false
          ? {}
          : { [VCT_HASH_ANNOTATION]: volumeClaimTemplatesHash(cloneSet.spec?.volumeClaimTemplates) }),
      },
      ownerReferences: [newControllerRef(cloneSet, owner)],
    },
    data,
    revision: revisionNumber,
  };
}

/**
 * The same revision renamed for another collision count (what `CreateControllerRevision` tries on each loop). As
 * upstream, only the name changes: the `controller.kubernetes.io/hash` label keeps the first hash.
 */
export function revisionForCollisionCount(
  candidate: ControllerRevision,
  parentName: string,
  collisionCount: number,
): ControllerRevision {
  const out = cloneJson(candidate);
  out.metadata = {
    ...out.metadata,
    name: controllerRevisionName(parentName, hashControllerRevision(candidate, collisionCount)),
  };
  return out;
}

/** What to do when creating `attempted` failed with AlreadyExists and `existing` was read back. */
export type NameCollisionResolution =
  /** The stored revision has the same data: it is the revision (idempotent create). */
  | { type: 'reuse'; revision: ControllerRevision }
  /** A different revision owns the name: bump the collision count (write it to `status.collisionCount`) and retry. */
  | { type: 'retry'; collisionCount: number };

/** `CreateControllerRevision`'s AlreadyExists branch: byte-equal data → reuse, otherwise `collisionCount + 1`. */
export function resolveNameCollision(
  existing: ControllerRevision,
  attempted: ControllerRevision,
  collisionCount: number,
): NameCollisionResolution {
  if (revisionDataBytes(existing) === revisionDataBytes(attempted))
    return { type: 'reuse', revision: existing };
  return { type: 'retry', collisionCount: collisionCount + 1 };
}

/** The pod template stored in a revision (`GetTemplateFromRevision`), without the `$patch` directive. */
export function templateFromRevision(revision: ControllerRevision): PodTemplate {
  const data = revision.data;
  const spec = isPlainObject(data) ? data['spec'] : undefined;
  const template = isPlainObject(spec) ? spec['template'] : undefined;
  if (!isPlainObject(template)) {
    throw new RevisionDataError(
      `ControllerRevision ${revision.metadata?.name ?? '(unnamed)'} has no spec.template in its data`,
    );
  }
  const { $patch: _patch, ...rest } = cloneJson(template);
  return rest as PodTemplate;
}

/**
 * `ApplyRevision`: the workload with `spec.template` replaced by the revision's template (the stored patch uses
 * `$patch: replace`, so nothing of the current template survives). The input is not modified.
 */
export function applyRevision<W extends RevisionedWorkload>(workload: W, revision: ControllerRevision): W {
  const out = cloneJson(workload);
  out.spec = { ...out.spec, template: templateFromRevision(revision) };
  return out;
}
