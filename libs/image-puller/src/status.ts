// The NodeImage status the puller writes (`imagepuller_controller.go`, sync): desired = tags in spec; per image in
// spec the statuses its workers hold, sorted by tag (`SortStatusImageTagsV1beta1`); counts per phase.
import { ownValue } from '@regatta/kube';
import type { ImageSpec, ImageTagStatus, NodeImageStatus } from './types.js';

/** `held`: image name → tag → the status its pool holds (only tags still in spec count). */
export function nodeImageStatus(
  images: Record<string, ImageSpec> | undefined,
  held: ReadonlyMap<string, ReadonlyMap<string, ImageTagStatus>>,
): NodeImageStatus {
  const out: NodeImageStatus = { desired: 0, pulling: 0, waiting: 0, succeeded: 0, failed: 0 };
  const statuses: Record<string, { tags: ImageTagStatus[] }> = {};
  for (const [name, spec] of Object.entries(images ?? {})) {
    out.desired += spec.tags?.length ?? 0;
    const pool = held.get(name);
    const inSpec = new Set((spec.tags ?? []).map((t) => t.tag));
    const tags = [...(pool?.values() ?? [])]
      .filter((t) => inSpec.has(t.tag))
      .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    if (tags.length === 0) continue;
    statuses[name] = { tags };
    for (const t of tags) {
      if (t.phase === 'Succeeded') out.succeeded! += 1;
      else if (t.phase === 'Failed') out.failed! += 1;
      else if (t.phase === 'Pulling') out.pulling! += 1;
      else if (t.phase === 'Waiting') out.waiting! += 1;
    }
  }
  if (Object.keys(statuses).length > 0) out.imageStatuses = statuses;
  return out;
}

/** Whether anything is still to finish: fewer finished than desired, or a status of an older version. */
export function isPulling(images: Record<string, ImageSpec> | undefined, status: NodeImageStatus): boolean {
  if ((status.succeeded ?? 0) + (status.failed ?? 0) < status.desired) return true;
  for (const [name, st] of Object.entries(status.imageStatuses ?? {})) {
    for (const t of st.tags) {
      const spec = ownValue(images, name)?.tags?.find((s) => s.tag === t.tag);
      if (spec && (spec.version ?? 0) !== (t.version ?? 0)) return true;
    }
  }
  return false;
}
