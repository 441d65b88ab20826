/**
 * The parts the PodUnavailableBudget program's declaration (apps/podunavailablebudget) names: the workloads a budget
 * counts, read from the program's readers; one budget store and one list of guarded pods shared by the pod webhook
 * and the reconciler (docs/adr/0080-pod-unavailable-budget-admission.md); the webhooks and the reconciler built on
 * them (upstream `pkg/webhook/pod/validating`, `pkg/controller/podunavailablebudget`).
 */
import { POD_GVK, type Pod, type PodUnavailableBudget } from '@regatta/api';
import {
  mutating,
  validating,
  type ProgramContext,
  type Readers,
  type WebhookDeclaration,
} from '@regatta/kit';
import type { Change, KubeObject } from '@regatta/kube';
import type { Reconciler, Request } from '@regatta/runtime';
import { podBudgetValidator, pubValidator } from './admission.js';
import { PUB_FEATURE_GATES } from './gates.js';
import { pubsForPodChange, pubsForWorkloadChange } from './handlers.js';
import { MUTATE_POD_PATH, podCreateDefaulter, podCreateWebhookConfiguration } from './pod-create.js';
import { GuardedPods, PubReconciler } from './reconciler.js';
import type { WorkloadView, Workloads } from './selection.js';
import { BudgetStore } from './store.js';
import { VALIDATE_POD_PATH, VALIDATE_PUB_PATH, pubWebhookConfigurations } from './webhooks.js';

/** The readers the program declares (the budgets, their pods, the workloads they count). */
export type PubReaders = {
  pubs: KubeObject;
  pods: KubeObject;
  deployments: KubeObject;
  replicasets: KubeObject;
  appsstatefulsets: KubeObject;
  clonesets: KubeObject;
  statefulsets: KubeObject;
};
export type PubProgramContext = ProgramContext<PubReaders, keyof typeof PUB_FEATURE_GATES>;

/** The workloads a budget counts, from the readers (group and kind → reader). */
export function workloadsOf(r: Readers<PubReaders>): Workloads {
  const byKind: Record<string, { get(ns: string, name: string): KubeObject | undefined }> = {
    'apps/Deployment': r.deployments,
    'apps/ReplicaSet': r.replicasets,
    'apps/StatefulSet': r.appsstatefulsets,
    'apps.kruise.io/CloneSet': r.clonesets,
    'apps.kruise.io/StatefulSet': r.statefulsets,
  };
  return {
    get: (group, kind, ns, name) => byKind[`${group}/${kind}`]?.get(ns, name) as WorkloadView | undefined,
    replicaSets: (ns) => r.replicasets.list({ namespace: ns }) as WorkloadView[],
  };
}

/** A workload created, deleted or rescaled changes the replicas its budget counts: the budgets of its pods. */
export const pubWorkloadMapping =
  (group: string, kind: string) =>
  (
    change: Change<KubeObject>,
    readers: { pubs: { list(): (PodUnavailableBudget & KubeObject)[] } },
  ): Request[] =>
    pubsForWorkloadChange(group, kind, change as Change<WorkloadView>, readers.pubs.list());

/**
 * One program's shared parts, made once from the first context that asks (the webhooks' or the reconciler's: the
 * kit gives both the same readers and client).
 */
export class PubProgram {
  #shared: { store: BudgetStore; guarded: GuardedPods; workloads: Workloads } | undefined;

  #sharedOf(ctx: PubProgramContext) {
    return (this.#shared ??= {
      store: new BudgetStore({ client: ctx.client, cached: (ns, name) => ctx.readers.pubs.get(ns, name) }),
      guarded: new GuardedPods(),
      workloads: workloadsOf(ctx.readers),
    });
  }

  /** A pod's change → its budget (and the budgets selecting it). */
  readonly podMapping = (change: Change<Pod & KubeObject>, readers: Readers<PubReaders>): Request[] =>
    pubsForPodChange(change, readers, this.#shared?.workloads ?? workloadsOf(readers));

  /**
   * The pod webhook spending the budget, the pod CREATE webhook naming a new pod's budget, the PodUnavailableBudget
   * webhook, and their configurations.
   */
  readonly webhooks = (ctx: PubProgramContext): WebhookDeclaration => {
    const { store, guarded, workloads } = this.#sharedOf(ctx);
    const gates = {
      guardDeletes: ctx.gates.PodUnavailableBudgetDeleteGate,
      guardUpdates: ctx.gates.PodUnavailableBudgetUpdateGate,
    };
    // as upstream, a new pod is annotated while either gate is on (docs/adr/0096)
    const annotateAtCreate = gates.guardDeletes || gates.guardUpdates;
    const pubs = (ns?: string) =>
      ctx.readers.pubs.list(ns === undefined ? {} : { namespace: ns }) as PodUnavailableBudget[];
    return {
      routes: [
        mutating(MUTATE_POD_PATH, podCreateDefaulter({ pubs, workloads })),
        validating(
          VALIDATE_POD_PATH,
          podBudgetValidator({
            store,
            gates,
            tracer: ctx.tracer, // a span per refused operation, service regatta-podunavailablebudget
            getPod: async (ns, name) =>
              (ctx.readers.pods.get(ns, name) as Pod | undefined) ??
              (await ctx.client.getOrUndefined<Pod & KubeObject>({ ...POD_GVK, namespace: ns, name })),
            onRefused: (pod) =>
              void ctx.recorder.warning(
                pod as KubeObject,
                'PubPreventPodDeletion',
                'openkruise pub prevents pod deletion',
              ),
          }),
        ),
        validating(
          VALIDATE_PUB_PATH,
          pubValidator((ns) => ctx.readers.pubs.list({ namespace: ns })),
        ),
      ],
      // recomputed on every pass: the eviction entry lists the guarded pods
      configurations: (url, ca, scope) => [
        ...pubWebhookConfigurations(url, ca, scope, {
          guardUpdates: gates.guardUpdates,
          guarded: guarded.byNamespace(),
        }),
        // one entry per budget, reaching only the pods it selects (docs/adr/0096)
        podCreateWebhookConfiguration(annotateAtCreate ? pubs() : [], url, ca, scope),
      ],
      followedReaders: ['pubs'],
    };
  };

  /** The budgets' status and the marks on the pods they guard. */
  readonly reconciler = (ctx: PubProgramContext): Reconciler => {
    const { store, guarded, workloads } = this.#sharedOf(ctx);
    return new PubReconciler({
      pubs: ctx.readers.pubs,
      pods: ctx.readers.pods,
      workloads,
      client: ctx.client,
      store,
      guarded,
      applyConfigurations: () => ctx.webhookConfigurations.applyNow(),
      recorder: ctx.recorder,
    });
  };
}
