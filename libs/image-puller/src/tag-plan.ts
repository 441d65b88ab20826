// Which tag workers an image's pool runs (`pkg/daemon/imagepuller/imagepuller_worker.go`, realWorkerPool.Sync): a
// tag of the spec is active unless the observed status holds it, for the same version, with a completionTime.
import type { ImageSpec, ImageStatus, ImageTagSpec, ImageTagStatus } from './types.js';

export interface TagPlan {
  /** Tags to start a worker for (none runs for them now). */
  start: ImageTagSpec[];
  /** Running workers to stop: their tag left the spec, its version changed, or it is finished. */
  stop: string[];
  /** Finished statuses of the current versions, kept as they are. */
  finished: ImageTagStatus[];
  /** Tags of the spec: statuses of any other tag are dropped. */
  tags: Set<string>;
}

/** `running`: tag → version of the worker running for it. */
export function planTags(
  spec: ImageSpec,
  observed: ImageStatus | undefined,
  running: ReadonlyMap<string, number>,
): TagPlan {
  const active = new Map<string, ImageTagSpec>();
  const finished: ImageTagStatus[] = [];
  const tags = new Set<string>();
  for (const t of spec.tags ?? []) {
    tags.add(t.tag);
    const st = observed?.tags?.find((s) => s.tag === t.tag && (s.version ?? 0) === (t.version ?? 0));
    if (st?.completionTime) finished.push(st);
    else active.set(t.tag, t);
  }
  const stop: string[] = [];
  for (const [tag, version] of running) {
    const t = active.get(tag);
    if (!t || (t.version ?? 0) !== version) stop.push(tag);
  }
  const start = [...active.values()].filter((t) => !running.has(t.tag) || stop.includes(t.tag));
  return { start, stop, finished, tags };
}
