/**
 * Pod writes of the upgrade: one update of the freshest pod (GET, change, write, retried on conflict — upstream
 * `retry.RetryOnConflict` around `Client.Update`) and the `SidecarSetUpgradable` condition (status patch).
 *
 * Where upstream PUTs the pod, the update goes out as one JSON patch from the pod read to the pod planned
 * (`updatePatch`): the pod read first is the cache's projection (docs/adr/0060-pod-projection.md), which a PUT would
 * strip of the fields it left out. The patch replaces `metadata.resourceVersion` with the version read, so a stale
 * pod is refused with 409 Conflict as the PUT was: one write per pod, the same retries. A sidecar resize
 * (../resize.ts) goes through `pods/resize` just before, on the same version.
 */
import { type ContainerResources, isResizeRefusal, resizePatch } from '@regatta/inplace-update';
import { InvalidError, retryOnConflict, writeUpdatePatch } from '@regatta/kube';
import { SidecarResizeRefusedError } from '../errors.js';
import { type Pod, writePodConditions } from '@regatta/lifecycle';
import { upgradableCondition } from '../pod-upgrade.js';
import { POD, type UpgradeSync } from './context.js';

/** A planned pod write: the pod (its `resources` untouched), and the requests/limits to send through `pods/resize`. */
export interface PodChange {
  pod: Pod;
  changed: string[];
  resize?: Readonly<Record<string, ContainerResources>>;
}

/**
 * Sends the new requests/limits through `pods/resize` as a strategic merge patch on the version read (a pod changed
 * meanwhile: 409, retried with the rest); undefined when the pod already asks for them.
 */
async function resizePod(
  s: UpgradeSync,
  pod: Pod,
  wanted: Readonly<Record<string, ContainerResources>> | undefined,
): Promise<Pod | undefined> {
  const body = wanted ? resizePatch(pod, wanted, pod.metadata?.resourceVersion) : undefined;
  if (!body) return undefined;
  let out: Pod;
  try {
    out = await s.d.client.patch<Pod>(
      { ...POD, namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
      body,
      { type: 'strategic', subresource: 'resize' },
    );
  } catch (err) {
    // the API server refuses this resize for good (beyond the node's allocatable, or invalid for this pod)
    if (isResizeRefusal(err) || err instanceof InvalidError)
      throw new SidecarResizeRefusedError(err.serverMessage || err.message);
    throw err;
  }
  s.expectUpdated(out);
  return out;
}

/**
 * Updates the pod with `change` applied to its latest version (the cached pod first, a GET after a conflict), as a
 * guarded patch from that version to the changed pod; returns what was written, or undefined when the
 * latest version needs nothing (`change` answers undefined: another writer got there first).
 */
export async function updatePod(
  s: UpgradeSync,
  pod: Pod,
  change: (fresh: Pod) => PodChange | undefined,
): Promise<{ pod: Pod; changed: string[] } | undefined> {
  let first = true;
  let result: { pod: Pod; changed: string[] } | undefined;
  await retryOnConflict(async () => {
    const fresh = first
      ? pod
      : await s.d.client.get<Pod>({
          ...POD,
          namespace: pod.metadata?.namespace,
          name: pod.metadata?.name ?? '',
        });
    first = false;
    const next = change(fresh);
    result = undefined;
    if (!next) return;
    // the resize first, on the version read (docs/adr/0087): a pod at the SidecarSet's hash asks for the new resources
    const resized = await resizePod(s, fresh, next.resize);
    const out = await writeUpdatePatch(
      s.d.client,
      POD,
      fresh,
      next.pod,
      resized?.metadata?.resourceVersion ?? fresh.metadata?.resourceVersion,
    );
    s.expectUpdated(out);
    result = { pod: out, changed: next.changed };
  });
  return result;
}

/** Sets this SidecarSet's entry of the pod's `SidecarSetUpgradable` condition (no write when unchanged). */
export async function writeUpgradable(s: UpgradeSync, pod: Pod, upgradable: boolean): Promise<void> {
  const condition = upgradableCondition(s.set, pod, upgradable, s.now());
  if (!condition) return;
  const out = await writePodConditions({ client: s.d.client }, pod, [condition]);
  s.expectUpdated(out);
}
