/**
 * The parts the SidecarSet program's declaration (apps/sidecarset) names: the pod mapping, the webhooks (pod injection
 * at CREATE, the SidecarSet webhooks, SidecarSets effective from their admission: docs/adr/0040-…) whose pod webhook
 * configuration follows the SidecarSets (docs/adr/0026-sidecarset-blast-radius.md), and the one reconciler that serves
 * the upgrade (SidecarSet requests) and the launch barriers (pod requests). `env` is the process's (POD_NAMESPACE,
 * REGATTA_SIDECARSET_REVISION_NAMESPACE, REGATTA_WEBHOOK_ADDR, REGATTA_NAMESPACE_SELECTOR).
 */
import type { SIDECARSET_POD_FIELDS } from '@regatta/bus';
import type { Pod } from '@regatta/api';
import {
  mutating,
  validating,
  type ProgramContext,
  type ReaderObject,
  type WebhookDeclaration,
} from '@regatta/kit';
import type { Change, KubeObject } from '@regatta/kube';
import type { Reconciler, Request } from '@regatta/runtime';
import type { SidecarSetFeatureGates } from './feature-gates.js';
import type { AnySidecarSet, SidecarSetRevision } from './injection/types.js';
import {
  BarrierReconciler,
  barrierRequestsForPodChange,
  isPodRequest,
} from './launch-priority/barrier-reconciler.js';
import { sidecarSetRevisionNamespace, sidecarSetsForPod } from './upgrade/events.js';
import { SidecarSetUpgradeReconciler } from './upgrade/reconciler.js';
import { InjectionPolicyKeeper } from './admission-policy/keeper.js';
import { AdmittedSidecarSets } from './webhooks/admitted-sidecarsets.js';
import { admitAndApply, storedSidecarSetRevisions } from './webhooks/effective-at-admission.js';
import { podWebhookConfiguration } from './webhooks/pod-webhook-configuration.js';
import { podWebhookInStepCheck } from './webhooks/pod-webhook-in-step.js';
import { MUTATE_POD_PATH, podDefaulter } from './webhooks/pod-webhook.js';
import {
  MUTATE_SIDECARSET_PATH,
  VALIDATE_SIDECARSET_PATH,
  sidecarSetDefaulter,
  sidecarSetValidator,
  sidecarSetWebhookConfigurations,
} from './webhooks/sidecarset-webhooks.js';

/** The readers the program declares. */
export type SidecarSetReaders = {
  sidecarsets: AnySidecarSet;
  pods: ReaderObject<Pod, typeof SIDECARSET_POD_FIELDS>;
  namespaces: KubeObject;
  revisions: SidecarSetRevision;
};
export type SidecarSetProgramContext = ProgramContext<SidecarSetReaders, keyof SidecarSetFeatureGates>;

/**
 * A pod's change → the SidecarSets it names in its injected list (pods are not owned by SidecarSets), and the pod
 * itself while it waits on a launch barrier (a namespaced request: SidecarSets are cluster-scoped).
 */
export function sidecarSetPodMapping(
  change: Change<KubeObject>,
  readers: { sidecarsets: { get(ns: string | undefined, name: string): KubeObject | undefined } },
): Request[] {
  return [...sidecarSetsForPod(change, readers.sidecarsets), ...barrierRequestsForPodChange(change)];
}

/** The pod injection webhook and the SidecarSet webhooks, with the configurations that follow the SidecarSets. */
export function sidecarSetWebhooks(
  { readers, gates, client, log, webhookConfigurations }: SidecarSetProgramContext,
  env: NodeJS.ProcessEnv = process.env,
): WebhookDeclaration {
  // SidecarSets admitted but not cached yet: effective from their admission (docs/adr/0040-…)
  const admitted = new AdmittedSidecarSets({
    client,
    cached: (name) => readers.sidecarsets.get(undefined, name),
    log,
  });
  // SidecarSets compiled into MutatingAdmissionPolicies inject without this program (docs/adr/0089)
  const policies = new InjectionPolicyKeeper({
    client,
    log,
    compile: { sortContainersByName: gates.EnableSortSidecarContainerByName },
  });
  return {
    routes: [
      mutating(
        MUTATE_POD_PATH,
        podDefaulter({
          sidecarSets: () => admitted.merged(readers.sidecarsets.list()),
          namespaceLabels: (ns) => readers.namespaces.get(undefined, ns)?.metadata?.labels,
          revisions: () => readers.revisions.list(),
          sortContainersByName: gates.EnableSortSidecarContainerByName,
        }),
      ),
      mutating(MUTATE_SIDECARSET_PATH, sidecarSetDefaulter()),
      validating(
        VALIDATE_SIDECARSET_PATH,
        sidecarSetValidator({
          sidecarSets: () => readers.sidecarsets.list(),
          revisions: () => readers.revisions.list(),
          storedRevisions: storedSidecarSetRevisions(client, sidecarSetRevisionNamespace(env)),
          admitted: admitAndApply(admitted, webhookConfigurations, log),
          patchPodMetadataDefaultsAllowed: gates.SidecarSetPatchPodMetadataDefaultsAllowed,
        }),
      ),
    ],
    // recomputed by the kit on every pass: the pod webhook's entries follow the SidecarSets
    configurations: (url, ca, scope) => [
      podWebhookConfiguration(
        readers.sidecarsets.list(),
        url,
        ca,
        scope,
        admitted.needingEntries(),
        env['POD_NAMESPACE'],
        policies.follow(readers.sidecarsets.list(), scope),
      ),
      ...sidecarSetWebhookConfigurations(url, ca, scope),
    ],
    // a new or changed SidecarSet gets its entry at once, not at the keeper's next poll (2 s)
    followedReaders: ['sidecarsets'],
  };
}

/** One queue: a namespaced request is a pod waiting on its launch barrier, the others are SidecarSets. */
export function sidecarSetReconciler(
  { readers, client, expectations, recorder, tracer }: SidecarSetProgramContext,
  env: NodeJS.ProcessEnv = process.env,
): Reconciler {
  const barriers = new BarrierReconciler({ pods: readers.pods, client });
  const upgrade = new SidecarSetUpgradeReconciler({
    ...readers,
    client,
    expectations,
    recorder,
    tracer, // rollout traces, service regatta-sidecarset
    controllerNamespace: sidecarSetRevisionNamespace(env),
    // a new generation is reported observed once new pods get its sidecars (docs/adr/0037-…)
    podWebhookInStep: podWebhookInStepCheck(client, env),
  });
  return { reconcile: (req, ctx) => (isPodRequest(req) ? barriers : upgrade).reconcile(req, ctx) };
}
