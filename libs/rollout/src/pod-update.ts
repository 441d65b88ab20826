/** Which pods count as updated, in the scale and the update flavours of CloneSet. */
import { LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';

/** Revision `IsPodUpdate` (scale flavour): at the update revision, or — gate `PreparingUpdateAsUpdate` — in PreparingUpdate. */
export function isPodUpdate(
  pod: Pod,
  updateRevision: string,
  options: { preparingUpdateAsUpdate?: boolean } = {},
): boolean {
  if (options.preparingUpdateAsUpdate && getPodLifecycleState(pod) === LifecycleState.PreparingUpdate)
    return true;
  return isPodAtRevision(pod, updateRevision);
}

/** `GroupUpdateAndNotUpdatePods` with {@link isPodUpdate}. */
export function splitPodsByUpdate(
  pods: readonly Pod[],
  updateRevision: string,
  options: { preparingUpdateAsUpdate?: boolean } = {},
): { updated: Pod[]; notUpdated: Pod[] } {
  const updated: Pod[] = [];
  const notUpdated: Pod[] = [];
  for (const p of pods) (isPodUpdate(p, updateRevision, options) ? updated : notUpdated).push(p);
  return { updated, notUpdated };
}
