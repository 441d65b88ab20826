/**
 * The DaemonSet's ControllerRevision (OpenKruise `pkg/controller/daemonset/daemonset_history.go`): the template patch
 * as data, named `<ds>-<hash>`, labelled with the template labels and `controller-revision-hash=<hash>` (the hash
 * daemon pods carry), annotated with the DaemonSet's annotations. The hash is the shared revision hash of
 * `@regatta/revision` (deterministic over the template, collision count mixed in; upstream's byte-exact value is
 * not reproduced, docs/ads.md "Revisions").
 */
import { type GroupVersionKind, isPlainObject, newControllerRef } from '@regatta/kube';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type ControllerRevision,
  REVISION_HASH_LABEL,
  RevisionDataError,
  controllerRevisionName,
  hashControllerRevision,
  templateRevisionData,
} from '@regatta/revision';
import { DAEMONSET_GVK, type DaemonSetObject } from '../daemonset-object.js';

export function newDaemonSetRevision(
  ds: DaemonSetObject,
  revisionNumber: number,
  collisionCount: number,
  gvk: GroupVersionKind = DAEMONSET_GVK,
): ControllerRevision {
  const name = ds.metadata?.name;
  const template = ds.spec?.template;
  if (!name) throw new RevisionDataError('the DaemonSet has no metadata.name');
  if (!isPlainObject(template)) throw new RevisionDataError(`DaemonSet ${name} has no spec.template`);
  const data = templateRevisionData(template);
  const hash = hashControllerRevision({ data }, collisionCount);
  const namespace = ds.metadata?.namespace;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name, hash),
      ...(namespace !== undefined ? { namespace } : {}),
      labels: {
        ...(template.metadata?.labels ?? {}),
        [CONTROLLER_REVISION_HASH_LABEL]: hash,
        [REVISION_HASH_LABEL]: hash,
      },
      annotations: { ...(ds.metadata?.annotations ?? {}) },
      ownerReferences: [
        newControllerRef(ds, { apiVersion: ds.apiVersion ?? gvk.apiVersion, kind: ds.kind ?? gvk.kind }),
      ],
    },
    data,
    revision: revisionNumber,
  };
}

/**
 * The hash daemon pods of this revision carry: the suffix of its name `<ds>-<hash>` (unique per revision, also after
 * a name collision, where the create loop renames the revision but keeps its first labels).
 */
export function revisionHash(revision: ControllerRevision): string {
  const name = revision.metadata?.name ?? '';
  return name.slice(name.lastIndexOf('-') + 1);
}
