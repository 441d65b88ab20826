/**
 * The claim step of a workload round (docs/adr/0072-one-workload-round.md; OpenKruise `claimPods` in
 * `pkg/controller/cloneset/cloneset_controller.go`, `getPodsForStatefulSet`, `getDaemonPods`): the pods the cache
 * shows owned by the workload, and the orphans of its namespace it may adopt, claimed with {@link claim}. The claimed
 * pods that carry the `KruisePodReady` gate and no such condition get it `True` first (OpenKruise
 * `pkg/controller/podreadiness`; docs/adr/0082-kruise-pod-ready-gate.md: the owning workload writes it).
 */
import { type KubeObject, controllerRef } from '@regatta/kube';
import { type Pod, writeInitialKruisePodReady } from '@regatta/lifecycle';
import { claim } from '../claim-control.js';
import type { ControlLogger, KubeWriter, ObjectReader, OnWritten, WorkloadKind } from '../types.js';

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;

export interface ClaimPodsInput {
  owner: KubeObject & { spec?: { selector?: Parameters<typeof claim>[1]['selector'] } };
  ownerKind: WorkloadKind;
  log: ControlLogger;
  onWritten: OnWritten;
  /** Which orphans the kind adopts besides their having no controller (default: all of them). */
  adoptable?: (orphan: Pod) => boolean;
  /** The round's clock (the first `KruisePodReady` condition's lastTransitionTime); default: now. */
  now?: () => Date;
}

/**
 * The workload's pods after adopting matching orphans and releasing owned pods that no longer match, each as the
 * server last answered (a pod given its first `KruisePodReady` condition is the written one).
 */
export async function claimPods(
  d: { client: KubeWriter; pods: ObjectReader<KubeObject> },
  input: ClaimPodsInput,
): Promise<Pod[]> {
  const { owner, adoptable } = input;
  const uid = owner.metadata?.uid ?? '';
  const ns = owner.metadata?.namespace;
  // the cache is read synchronously, when the step is called (a round that checks its expectations just before
  // claims at least the pods the check counted as seen)
  const orphans = ns
    ? (d.pods.byIndex('namespace', ns) as Pod[]).filter(
        (p) => controllerRef(p) === undefined && (!adoptable || adoptable(p)),
      )
    : [];
  const claimed = await claim(
    { client: d.client, log: input.log, onWritten: input.onWritten },
    {
      owner,
      ownerKind: input.ownerKind,
      kind: POD,
      selector: owner.spec?.selector,
      owned: d.pods.byIndex('ownerUid', uid) as Pod[],
      orphans,
    },
  );
  const now = input.now?.() ?? new Date();
  return writeInitialKruisePodReady({ client: d.client, onWritten: input.onWritten }, claimed, now);
}
