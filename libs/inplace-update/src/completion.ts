/**
 * Has an in-place update finished (`DefaultCheckInPlaceUpdateCompleted`, `defaultCheckContainersInPlaceUpdateCompleted`)?
 *
 * 1. Env from metadata changed: the node daemon must report, for every container, the same container ID as the
 *    status and the env-from-metadata hash of the pod's current labels/annotations.
 * 2. Resources resized (`updateResources`): the kubelet has actuated them (`checkResizeActuated`).
 * 3. Then by image: each container recorded in `lastContainerStatuses` must report a status, and either a
 *    different image ID than recorded, or a status image equal to the spec image (`:latest` added to an untagged
 *    spec image).
 *
 * Before 2, as upstream: completed when the daemon meta reports, for every container, the status's container ID and
 * the kubelet's hash of the spec container (`plainHash`, `kubeletContainerHash`: name and image). The node agent
 * reports the hash a real kubelet gave the container (docs/adr/0084); this is what completes an update to a tag of
 * the same digest, whose status keeps showing the first tag the runtime knows. The simulator reports 0 (never
 * consistent), so its pods complete by the image check.
 */
import type { Pod } from '@regatta/lifecycle';
import { envFromMetadataHash } from './container-meta.js';
import { kubeletContainerHash } from './container-meta-set.js';
import { checkResizeActuated } from './resize.js';
import { type RuntimeContainerMeta, readRuntimeContainersMeta } from './runtime-meta.js';
import { type InPlaceUpdateState, hasNextBatch, readInPlaceUpdateState } from './state.js';
import { inPlaceUpdateGraceAnnotation } from './update-spec.js';

/** The result of a completion check. */
export type CompletionCheck = { completed: true } | { completed: false; reason: string };

const done: CompletionCheck = { completed: true };
const pending = (reason: string): CompletionCheck => ({ completed: false, reason });

function envHashesConsistent(pod: Pod, meta: RuntimeContainerMeta[] | undefined): CompletionCheck {
  if (meta === undefined)
    return pending('waiting for all containers hash consistent, but runtime-container-meta not found');
  for (const c of pod.spec?.containers ?? []) {
    const status = pod.status?.containerStatuses?.find((s) => s.name === c.name);
    if (!status)
      return pending(`waiting for all containers hash consistent: container ${c.name} has no status`);
    const m = meta.filter((x) => x.name === c.name).pop();
    if (!m)
      return pending(
        `waiting for all containers hash consistent: container ${c.name} is not in runtime-container-meta`,
      );
    if (m.containerID !== (status.containerID ?? ''))
      return pending(`waiting for all containers hash consistent: container ${c.name} was not restarted yet`);
    const expected = envFromMetadataHash(c, {
      labels: pod.metadata?.labels,
      annotations: pod.metadata?.annotations,
    });
    if ((m.hashes.extractedEnvFromMetadataHash ?? 0) !== expected)
      return pending(`waiting for all containers hash consistent: container ${c.name} env is not updated`);
  }
  return done;
}

/** `checkAllContainersHashConsistent(..., plainHash)`: every container restarted with the kubelet hash of its spec. */
function plainHashesConsistent(pod: Pod, meta: RuntimeContainerMeta[]): boolean {
  return (pod.spec?.containers ?? []).every((c) => {
    const status = pod.status?.containerStatuses?.find((s) => s.name === c.name);
    const m = meta.filter((x) => x.name === c.name).pop();
    return (
      status !== undefined &&
      m !== undefined &&
      m.containerID === (status.containerID ?? '') &&
      m.hashes.plainHash === kubeletContainerHash(c)
    );
  });
}

/** `checkContainersUpdateCompleted`: the containers of the latest batch run what the state says. */
export function checkContainersUpdateCompleted(pod: Pod, state: InPlaceUpdateState): CompletionCheck {
  let meta: RuntimeContainerMeta[] | undefined;
  try {
    meta = readRuntimeContainersMeta(pod);
  } catch (e) {
    // as upstream: an unreadable daemon annotation keeps the update pending
    return pending((e as Error).message);
  }
  if (state.updateEnvFromMetadata) {
    const env = envHashesConsistent(pod, meta);
    if (!env.completed) return env;
  }
  // resized: the kubelet reports the new resources and no resize condition (docs/adr/0087)
  if (state.updateResources) {
    const resized = checkResizeActuated(pod);
    if (!resized.completed) return resized;
  }
  if (meta !== undefined && plainHashesConsistent(pod, meta)) return done;
  const specImages = new Map<string, string>();
  for (const c of pod.spec?.containers ?? []) {
    const image = c.image ?? '';
    specImages.set(c.name, image.split(':').length <= 1 ? `${image}:latest` : image);
  }
  const remaining = new Set(Object.keys(state.lastContainerStatuses ?? {}));
  for (const s of pod.status?.containerStatuses ?? []) {
    const last = state.lastContainerStatuses?.[s.name];
    if (last === undefined) continue;
    if ((last.imageID ?? '') === (s.imageID ?? '') && specImages.get(s.name) !== (s.image ?? '')) {
      return pending(`container ${s.name} imageID not changed`);
    }
    remaining.delete(s.name);
  }
  if (remaining.size > 0)
    return pending(`not found statuses of containers ${[...remaining].sort().join(', ')}`);
  return done;
}

/** `checkPodUpdateCompleted`: no grace period pending, no next batch, and the containers are updated. */
export function checkPodUpdateCompleted(pod: Pod): CompletionCheck {
  if (inPlaceUpdateGraceAnnotation(pod) !== undefined)
    return pending('still in grace period of in-place update');
  let state: InPlaceUpdateState | undefined;
  try {
    state = readInPlaceUpdateState(pod);
  } catch (e) {
    return pending((e as Error).message);
  }
  if (state === undefined) return done;
  if (hasNextBatch(state)) return pending('existing containers to in-place update in next batches');
  return checkContainersUpdateCompleted(pod, state);
}
