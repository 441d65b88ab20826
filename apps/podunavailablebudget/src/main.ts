// The PodUnavailableBudget program, declared (upstream `pkg/controller/podunavailablebudget`, `pkg/control/pubcontrol`,
// `pkg/webhook/pod/validating`): caches fed by the watcher over the bus (budgets, pods, the workloads they count), a
// reconcile queue keeping each budget's status and marking the pods it guards, and the pod webhook that spends the
// budget on their deletion, eviction and in-place update. The API server calls the webhook only for guarded pods
// (docs/adr/0080-pod-unavailable-budget-admission.md). It never watches the API server (docs/podunavailablebudget.md).
import { KINDS, POD_GVK, type Pod, type PodUnavailableBudget } from '@regatta/api';
import { type ProgramContext, ControllerBuilder, runController, validating } from '@regatta/kit';
import type { Change, KubeObject } from '@regatta/kube';
import {
  BudgetStore,
  CONTROLLER_NAME,
  GuardedPods,
  PUB_FEATURE_GATES,
  PubReconciler,
  VALIDATE_POD_PATH,
  VALIDATE_PUB_PATH,
  podBudgetValidator,
  pubValidator,
  pubWebhookConfigurations,
  pubsForPodChange,
  pubsForWorkloadChange,
  type WorkloadView,
  type Workloads,
} from '@regatta/podunavailablebudget';

type Readers = {
  pubs: KubeObject;
  pods: KubeObject;
  deployments: KubeObject;
  replicasets: KubeObject;
  appsstatefulsets: KubeObject;
  clonesets: KubeObject;
  statefulsets: KubeObject;
};
type Ctx = ProgramContext<Readers, keyof typeof PUB_FEATURE_GATES>;

/** The workloads a budget counts, from the readers (group and kind → reader). */
function workloadsOf(r: Ctx['readers']): Workloads {
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

// one budget store and one list of guarded pods, shared by the webhook and the reconciler
let shared: { store: BudgetStore; guarded: GuardedPods; workloads: Workloads } | undefined;
const sharedOf = (ctx: Ctx) =>
  (shared ??= {
    store: new BudgetStore({ client: ctx.client, cached: (ns, name) => ctx.readers.pubs.get(ns, name) }),
    guarded: new GuardedPods(),
    workloads: workloadsOf(ctx.readers),
  });

const workloadMapping =
  (group: string, kind: string) =>
  (change: Change<KubeObject>, readers: { pubs: { list(): (PodUnavailableBudget & KubeObject)[] } }) =>
    pubsForWorkloadChange(group, kind, change as Change<WorkloadView>, readers.pubs.list());

const podunavailablebudget = ControllerBuilder.controller({
  name: 'podunavailablebudget',
  eventComponent: CONTROLLER_NAME,
  featureGates: PUB_FEATURE_GATES,
  maxConcurrentReconciles: 3, // upstream --podunavailablebudget-workers
})
  .for('pubs', KINDS.podunavailablebudgets)
  // a workload created, deleted or rescaled changes the replicas its budget counts
  .watches('deployments', KINDS.deployments, workloadMapping('apps', 'Deployment'))
  .watches('replicasets', KINDS.replicasets, () => [])
  .watches('appsstatefulsets', KINDS.appsstatefulsets, workloadMapping('apps', 'StatefulSet'))
  .watches('clonesets', KINDS.clonesets, workloadMapping('apps.kruise.io', 'CloneSet'))
  .watches('statefulsets', KINDS.statefulsets, workloadMapping('apps.kruise.io', 'StatefulSet'))
  .watches('pods', KINDS.pods, (change, readers) =>
    pubsForPodChange(change, readers, shared?.workloads ?? workloadsOf(readers)),
  )
  .webhooks((ctx) => {
    const { store, guarded } = sharedOf(ctx);
    const gates = {
      guardDeletes: ctx.gates.PodUnavailableBudgetDeleteGate,
      guardUpdates: ctx.gates.PodUnavailableBudgetUpdateGate,
    };
    return {
      routes: [
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
      configurations: (url, ca, scope) =>
        pubWebhookConfigurations(url, ca, scope, {
          guardUpdates: gates.guardUpdates,
          guarded: guarded.byNamespace(),
        }),
    };
  })
  .reconciler((ctx) => {
    const { store, guarded, workloads } = sharedOf(ctx);
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
  });

await runController(podunavailablebudget);
