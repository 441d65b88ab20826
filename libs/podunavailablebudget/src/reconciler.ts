/**
 * The PodUnavailableBudget controller (upstream `pkg/controller/podunavailablebudget/podunavailablebudget_controller.go`
 * `syncPodUnavailableBudget`), on the bus caches: it marks the pods a budget guards (the related-pub annotation, as
 * upstream, and Regatta's `pub.regatta.dev/protected` label, which is what lets the API server call the webhook for
 * them alone), unmarks those it no longer guards, keeps the eviction entry's list in step, and writes the status.
 * A pod counts as available only once it is guarded (marked, and listed in the applied configuration), so the budget
 * never lends a unit the webhook could not take back (docs/adr/0080-pod-unavailable-budget-admission.md).
 */
import { PubKeys, type Pod, type PodUnavailableBudget } from '@regatta/api';
import { type EventRecorder, type KubeClient, type KubeObject, isNotFound } from '@regatta/kube';
import {
  type Reconciler,
  type ReconcileContext,
  type Request,
  type Result,
  forEachLimited,
} from '@regatta/runtime';
import { budgetStatus, countAvailable, desiredAvailable, keepRecordedPods, sameStatus } from './budget.js';
import { podsForPub, type Workloads } from './selection.js';
import type { BudgetStore } from './store.js';

export interface Reader<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

/** The guarded pods by namespace, shared with the webhook configuration (its eviction entry). */
export class GuardedPods {
  readonly #byPub = new Map<string, { namespace: string; names: Set<string> }>();

  /** Sets a budget's pods; true when that changed anything. */
  set(pubKey: string, namespace: string, names: ReadonlySet<string>): boolean {
    const before = this.#byPub.get(pubKey);
    if (before && before.names.size === names.size && [...names].every((n) => before.names.has(n)))
      return false;
    if (names.size === 0) {
      this.#byPub.delete(pubKey);
      return before !== undefined;
    }
    this.#byPub.set(pubKey, { namespace, names: new Set(names) });
    return true;
  }

  /** By namespace, the union of every budget's pods. */
  byNamespace(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const { namespace, names } of this.#byPub.values()) {
      const s = out.get(namespace) ?? new Set<string>();
      for (const n of names) s.add(n);
      out.set(namespace, s);
    }
    return out;
  }
}

export interface PubReconcilerDeps {
  pubs: Reader<PodUnavailableBudget & KubeObject>;
  pods: Reader<Pod & KubeObject>;
  workloads: Workloads;
  client: KubeClient;
  store: BudgetStore;
  guarded: GuardedPods;
  /** Applies the webhook configurations now (the kit's `applyNow`); true once the API server holds them. */
  applyConfigurations: () => Promise<boolean>;
  recorder: Pick<EventRecorder, 'normal' | 'warning'>;
  now?: () => Date;
}

const POD_WRITES = 10;
const key = (ns: string, name: string) => `${ns}/${name}`;

export class PubReconciler implements Reconciler {
  readonly #now: () => Date;

  constructor(private readonly d: PubReconcilerDeps) {
    this.#now = d.now ?? (() => new Date());
  }

  async reconcile(req: Request, _ctx: ReconcileContext): Promise<Result> {
    const d = this.d;
    const ns = req.namespace ?? '';
    const pub = d.pubs.get(ns, req.name);
    const marked = d.pods.list({
      namespace: ns,
      filter: (p) => p.metadata?.annotations?.[PubKeys.RelatedPub] === req.name,
    });
    if (!pub || pub.metadata?.deletionTimestamp) {
      d.store.forget(ns, req.name);
      await this.#unmark(marked);
      if (d.guarded.set(key(ns, req.name), ns, new Set())) await d.applyConfigurations();
      return {};
    }
    const now = this.#now();
    const { pods, expected } = podsForPub(pub, d.pods.list({ namespace: ns }), d.workloads);
    if (pods.length === 0) void d.recorder.normal(pub, 'NoPods', 'No matching pods found');

    // mark the selected pods; a pod that could not be marked is not guarded, so it does not count as available
    const selected = new Set(pods.map((p) => p.metadata?.name ?? ''));
    const guarded = new Set<string>();
    let failure: unknown;
    await forEachLimited(pods, POD_WRITES, async (p) => {
      const name = p.metadata?.name ?? '';
      try {
        if (
          p.metadata?.labels?.[PubKeys.Protected] !== 'true' ||
          p.metadata?.annotations?.[PubKeys.RelatedPub] !== req.name
        )
          await this.#patchMarks(ns, name, {
            labels: { [PubKeys.Protected]: 'true' },
            annotations: { [PubKeys.RelatedPub]: req.name },
          });
        guarded.add(name);
      } catch (e) {
        if (!isNotFound(e)) failure ??= e;
      }
    });
    await this.#unmark(marked.filter((p) => !selected.has(p.metadata?.name ?? '')));
    if (d.guarded.set(key(ns, req.name), ns, guarded) && !(await d.applyConfigurations())) {
      // the eviction entry does not list the new pods yet: count none of them
      failure ??= new Error('the webhook configuration is not in step yet');
    }

    const desired = desiredAvailable(pub, expected);
    const counted = pods.filter((p) => guarded.has(p.metadata?.name ?? ''));
    let recheckAtMs: number | undefined;
    let notDeleted: string[] = [];
    await d.store.changeStatus(ns, req.name, (fresh) => {
      const recorded = keepRecordedPods(pods, fresh.status, now.getTime());
      recheckAtMs = recorded.recheckAtMs;
      notDeleted = recorded.notDeleted;
      const status = budgetStatus({
        generation: fresh.metadata?.generation,
        currentAvailable: countAvailable(counted, recorded),
        desiredAvailable: desired,
        totalReplicas: expected,
        recorded,
      });
      return sameStatus(fresh.status, status) ? undefined : status;
    });
    for (const name of notDeleted) {
      const pod = pods.find((p) => p.metadata?.name === name);
      if (pod)
        void d.recorder.warning(
          pod,
          'NotDeleted',
          `Pod was expected by PUB ${ns}/${req.name} to be deleted but it wasn't`,
        );
    }
    if (failure) throw failure;
    return recheckAtMs === undefined
      ? {}
      : { requeueAfterMs: Math.max(100, recheckAtMs - this.#now().getTime()) };
  }

  async #patchMarks(
    namespace: string,
    name: string,
    marks: { labels: Record<string, string | null>; annotations: Record<string, string | null> },
  ): Promise<void> {
    await this.d.client.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace, name },
      { metadata: marks },
      { type: 'merge' },
    );
  }

  /** Drops the marks of pods no budget guards any more (a pod no budget selects never reaches the webhook). */
  async #unmark(pods: readonly Pod[]): Promise<void> {
    await forEachLimited(pods, POD_WRITES, async (p) => {
      try {
        await this.#patchMarks(p.metadata?.namespace ?? '', p.metadata?.name ?? '', {
          labels: { [PubKeys.Protected]: null },
          annotations: { [PubKeys.RelatedPub]: null },
        });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    });
  }
}
