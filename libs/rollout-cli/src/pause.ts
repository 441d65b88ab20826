/** The merge patch `regatta rollout pause|resume` sends (the pause switch of each kind: kinds.ts). */
import { RolloutUsageError } from './errors.js';
import type { KindInfo } from './kinds.js';

export function pausePatch(info: KindInfo, paused: boolean): Record<string, unknown> {
  if (!info.pausedPath) {
    throw new RolloutUsageError(
      `${info.title} has no pause switch; hold its rollout with spec.updateStrategy.manualUpdate.partitions`,
    );
  }
  let patch: Record<string, unknown> = { paused };
  for (const key of [...info.pausedPath.slice(0, -1)].reverse()) patch = { [key]: patch };
  return { spec: patch };
}
