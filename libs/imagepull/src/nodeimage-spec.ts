/**
 * The NodeImage controller's spec maintenance (`pkg/controller/nodeimage` doUpdateNodeImage), pure: labels copied
 * from the Node, tags without `createdAt` dropped, ImagePullJob owners that are gone (or another UID) dropped, a tag
 * without owners left dropped, tags past their TTL after completion dropped, legacy secrets that no longer exist
 * dropped (`mode: batch` ones are kept), images without tags dropped.
 */
import { IMAGE_PULL_JOB_KIND, KRUISE_APPS_GROUP, SECRET_MODE_BATCH, type NodeImage, type ObjectReference } from '@regatta/api';
import { cloneJson, jsonEqual, ownValue } from '@regatta/kube';
import { sortTags } from './sync.js';

/** What the maintenance looks up: an owner job's UID (`undefined` = gone; `'unknown'` = a read error: keep). */
export interface SpecLookups {
  jobUid(namespace: string, name: string): string | undefined | 'unknown';
  /** Whether a legacy (non-batch) secret exists; `'unknown'` on a read error (keep it). */
  secretExists(namespace: string, name: string): boolean | 'unknown';
}

export interface SpecMaintenance {
  /** The NodeImage to write, when something changed. */
  updated?: NodeImage;
  messages: string[];
  /** Milliseconds until the next tag TTL expires, if any tag is waiting for one. */
  waitMs?: number;
}

function isImagePullJobRef(ref: ObjectReference): boolean {
  const group = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/')[0] : '';
  return group === KRUISE_APPS_GROUP && ref.kind === IMAGE_PULL_JOB_KIND;
}

export function maintainNodeImageSpec(
  nodeImage: NodeImage,
  nodeLabels: Record<string, string> | undefined | null,
  lookups: SpecLookups,
  now: Date,
): SpecMaintenance {
  const out = cloneJson(nodeImage);
  const messages: string[] = [];
  let modified = false;
  let waitMs: number | undefined;
  if (nodeLabels !== null && nodeLabels !== undefined && !jsonEqual(out.metadata?.labels ?? {}, nodeLabels)) {
    modified = true;
    messages.push('node labels changed');
    (out.metadata ??= {}).labels = { ...nodeLabels };
  }

  const newImages: NonNullable<NonNullable<NodeImage['spec']>['images']> = {};
  for (const [name, image] of Object.entries(out.spec?.images ?? {})) {
    const tags = [];
    for (const tag of image.tags ?? []) {
      const fullName = `${name}:${tag.tag}`;
      if (!tag.createdAt) {
        modified = true;
        messages.push(`image ${fullName} has no createAt field`);
        continue;
      }
      const owners = tag.ownerReferences ?? [];
      const active = owners.filter((ref) => {
        if (!isImagePullJobRef(ref)) return true;
        const uid = lookups.jobUid(ref.namespace ?? '', ref.name ?? '');
        return uid === 'unknown' || (uid !== undefined && uid === ref.uid);
      });
      if (active.length !== owners.length) {
        modified = true;
        if (active.length === 0) {
          messages.push(`image ${fullName} owners is cleared`);
          continue;
        }
        messages.push(`image ${fullName} owners changed`);
        tag.ownerReferences = active;
      }
      const ttl = tag.pullPolicy?.ttlSecondsAfterFinished;
      if (ttl != null) {
        const st = ownValue(nodeImage.status?.imageStatuses, name)?.tags.find(
          (s) => s.tag === tag.tag && (s.version ?? 0) === (tag.version ?? 0),
        );
        if (st?.completionTime) {
          const left = ttl * 1000 - (now.getTime() - Date.parse(st.completionTime));
          if (left <= 0) {
            modified = true;
            messages.push(`image ${fullName} has exceeded TTL (${ttl})s since ${st.completionTime} completed`);
            continue;
          }
          waitMs = Math.min(waitMs ?? left, left);
        }
      }
      tags.push(tag);
    }

    const secrets = (image.pullSecrets ?? []).filter(
      (ref) => ref.mode === SECRET_MODE_BATCH || lookups.secretExists(ref.namespace ?? '', ref.name ?? '') !== false,
    );
    if (secrets.length !== (image.pullSecrets ?? []).length) {
      modified = true;
      image.pullSecrets = secrets;
    }
    if (tags.length > 0) {
      image.tags = sortTags(tags);
      newImages[name] = image;
    } else {
      modified = true;
      messages.push(`no longer has ${name} image spec`);
    }
  }
  if (!modified) return { messages, ...(waitMs !== undefined ? { waitMs } : {}) };
  (out.spec ??= {}).images = newImages;
  return { updated: out, messages, ...(waitMs !== undefined ? { waitMs } : {}) };
}
