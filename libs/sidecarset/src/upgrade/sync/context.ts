/** What the SidecarSet upgrade steps share (the reconciler builds it once per reconcile). */
import { POD_GVK } from '@regatta/api';
import type { EventRecorder, KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { Expectations } from '@regatta/runtime';
import type { ControlLogger, KubeWriter, ObjectReader } from '@regatta/workload';
import type { SidecarSetView } from '../types.js';
import type { SidecarResizeRefusals } from './resize.js';

export interface SidecarSetUpgradeDeps {
  client: KubeWriter;
  sidecarsets: ObjectReader<KubeObject>;
  pods: ObjectReader<KubeObject>;
  /** ControllerRevisions (those of {@link controllerNamespace} are read). */
  revisions: ObjectReader<KubeObject>;
  /** Namespaces, for `namespaceSelector` (absent: only SidecarSets without one select pods). */
  namespaces?: ObjectReader<KubeObject>;
  /** Where SidecarSet revisions live (the controller's own namespace). */
  controllerNamespace: string;
  expectations: Expectations;
  recorder: EventRecorder;
  now?: () => Date;
  /**
   * Whether the pod webhook configuration already sends the SidecarSet's pods to the webhook, as the set is now
   * (absent: not checked, no webhook served). Until it does, `status.observedGeneration` keeps its former value.
   */
  podWebhookInStep?: (set: SidecarSetView) => Promise<boolean>;
}

export interface UpgradeSync {
  d: SidecarSetUpgradeDeps;
  set: SidecarSetView;
  /** Expectations key: the SidecarSet's name (cluster-scoped). */
  key: string;
  now: () => Date;
  log: ControlLogger;
  /** Records a pod write so the next reconcile waits until the cache shows it. */
  expectUpdated: (pod: KubeObject) => void;
  /** Resizes refused and reported (kept by the reconciler across rounds; absent: none remembered). */
  resizeRefusals?: SidecarResizeRefusals;
}

/** A pod's apiVersion and kind (`POD_GVK` of `@regatta/api`, from the kind registry). */
export const POD = POD_GVK;

/** Expectation names of pods: `<namespace>/<name>` (a SidecarSet spans namespaces). */
export const podKey = (pod: Pod): string => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
