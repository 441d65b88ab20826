/**
 * Which ImagePullJobs a NodeImage change concerns (`pkg/controller/imagepulljob/imagepulljob_event_handler.go`,
 * the reconcile-amplification fix #2483): on update only the jobs owning a tag whose spec (version, owners) or
 * status (phase, version) changed, every job of an image whose secrets / sandbox config changed or that was
 * removed, plus jobs whose selection of the NodeImage changed with its labels.
 */
import { type ImageSpec, type ImageStatus, type ImageTagSpec, type NodeImage } from '@regatta/api';
import { jsonEqual, ownValue } from '@regatta/kube';

/** Tag names whose spec differs between two tag lists (order-insensitive; for duplicates the last one counts). */
export function changedSpecTags(oldTags: readonly ImageTagSpec[] = [], newTags: readonly ImageTagSpec[] = []): Set<string> {
  const index = (tags: readonly ImageTagSpec[]) => new Map(tags.map((t) => [t.tag, t]));
  const a = index(oldTags);
  const b = index(newTags);
  const out = new Set<string>();
  for (const [tag, t] of a) {
    const u = b.get(tag);
    if (!u || (u.version ?? 0) !== (t.version ?? 0) || !jsonEqual((u.ownerReferences ?? []) as never, (t.ownerReferences ?? []) as never))
      out.add(tag);
  }
  for (const tag of b.keys()) if (!a.has(tag)) out.add(tag);
  return out;
}

/** Tag names whose status (phase or version) differs. */
export function changedStatusTags(oldStatus: ImageStatus | undefined, newStatus: ImageStatus | undefined): Set<string> {
  const index = (s: ImageStatus | undefined) => new Map((s?.tags ?? []).map((t) => [t.tag, t]));
  const a = index(oldStatus);
  const b = index(newStatus);
  const out = new Set<string>();
  for (const [tag, t] of a) {
    const u = b.get(tag);
    if (!u || u.phase !== t.phase || (u.version ?? 0) !== (t.version ?? 0)) out.add(tag);
  }
  for (const tag of b.keys()) if (!a.has(tag)) out.add(tag);
  return out;
}

/** `<ns>/<name>` of the ImagePullJobs owning the given tags of an image. */
function ownersOf(image: ImageSpec | undefined, tags: Set<string> | 'all'): Set<string> {
  const out = new Set<string>();
  for (const t of image?.tags ?? []) {
    if (tags !== 'all' && !tags.has(t.tag)) continue;
    for (const o of t.ownerReferences ?? []) if (o.kind === 'ImagePullJob') out.add(`${o.namespace ?? ''}/${o.name ?? ''}`);
  }
  return out;
}

/**
 * The jobs (`<ns>/<name>`) owning tags an update of a NodeImage changed. Owners are read from both versions (a job
 * removed from a tag still needs to see it).
 */
export function jobsForNodeImageUpdate(oldNi: NodeImage, newNi: NodeImage): Set<string> {
  const out = new Set<string>();
  const names = new Set([...Object.keys(oldNi.spec?.images ?? {}), ...Object.keys(newNi.spec?.images ?? {}),
    ...Object.keys(oldNi.status?.imageStatuses ?? {}), ...Object.keys(newNi.status?.imageStatuses ?? {})]);
  for (const name of names) {
    const a = ownValue(oldNi.spec?.images, name);
    const b = ownValue(newNi.spec?.images, name);
    const add = (s: Set<string>) => s.forEach((k) => out.add(k));
    if (!b || !a || !jsonEqual((a.pullSecrets ?? []) as never, (b.pullSecrets ?? []) as never) ||
        !jsonEqual((a.sandboxConfig ?? null) as never, (b.sandboxConfig ?? null) as never)) {
      add(ownersOf(a, 'all'));
      add(ownersOf(b, 'all'));
      continue;
    }
    const tags = changedSpecTags(a.tags, b.tags);
    changedStatusTags(ownValue(oldNi.status?.imageStatuses, name), ownValue(newNi.status?.imageStatuses, name)).forEach((t) => tags.add(t));
    if (tags.size === 0) continue;
    add(ownersOf(a, tags));
    add(ownersOf(b, tags));
  }
  return out;
}
