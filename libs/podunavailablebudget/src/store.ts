/**
 * The one writer of a budget's status in the program (upstream's `GlobalKeyedMutex` + `GlobalCache`, shared by the
 * webhook and the controller): a lock per budget, the newest copy known (the bus cache's or this program's last
 * write, by resourceVersion), and status writes with a resourceVersion, re-read from the API server on conflict
 * (4 tries, as upstream `ConflictRetry`).
 */
import {
  KINDS,
  PUB_API_VERSION,
  type PodUnavailableBudget,
  type PodUnavailableBudgetStatus,
} from '@regatta/api';
import { ConflictError, NotFoundError, type KubeClient, type KubeObject } from '@regatta/kube';

type Pub = PodUnavailableBudget & KubeObject;

const rv = (o: KubeObject | undefined): number => Number(o?.metadata?.resourceVersion ?? 0) || 0;
export const pubKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The attempts of one status change (upstream `ConflictRetry.Steps`). */
export const CONFLICT_STEPS = 4;

export class BudgetStore {
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #written = new Map<string, Pub>();

  constructor(
    private readonly deps: {
      client: KubeClient;
      /** The bus cache's copy. */
      cached: (namespace: string, name: string) => PodUnavailableBudget | undefined;
    },
  ) {}

  /** Runs `f` alone for this budget (in this program). */
  async locked<T>(key: string, f: () => Promise<T>): Promise<T> {
    const prev = this.#locks.get(key) ?? Promise.resolve();
    const run = prev.then(f, f);
    const tail = run.catch(() => undefined);
    this.#locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#locks.get(key) === tail) this.#locks.delete(key);
    }
  }

  /** The newest copy known: this program's last write or the cache's, whichever has the higher resourceVersion. */
  newest(namespace: string, name: string): Pub | undefined {
    const cached = this.deps.cached(namespace, name) as Pub | undefined;
    const written = this.#written.get(pubKey(namespace, name));
    if (!cached) return written;
    return written && rv(written) > rv(cached) ? written : cached;
  }

  /** The budget was deleted: forget this program's copy. */
  forget(namespace: string, name: string): void {
    this.#written.delete(pubKey(namespace, name));
  }

  /**
   * Changes the status under the budget's lock: `change` gets the newest copy (re-read from the API server after a
   * conflict) and returns the status to write, `undefined` to write nothing, or throws to stop. Returns the budget as
   * written (or as read when nothing was written); `undefined` when the budget is gone.
   */
  async changeStatus(
    namespace: string,
    name: string,
    change: (pub: Pub) => PodUnavailableBudgetStatus | undefined,
  ): Promise<Pub | undefined> {
    return this.locked(pubKey(namespace, name), async () => {
      let pub = this.newest(namespace, name);
      for (let attempt = 1; ; attempt++) {
        if (!pub) return undefined;
        const status = change(pub);
        if (status === undefined) return pub;
        try {
          const written = await this.deps.client.updateStatus<Pub>({
            ...pub,
            apiVersion: PUB_API_VERSION,
            kind: KINDS.podunavailablebudgets.kind,
            status,
          });
          this.#written.set(pubKey(namespace, name), written);
          return written;
        } catch (e) {
          if (e instanceof NotFoundError) return undefined;
          if (!(e instanceof ConflictError) || attempt >= CONFLICT_STEPS) throw e;
          pub = await this.deps.client.getOrUndefined<Pub>({
            apiVersion: PUB_API_VERSION,
            kind: KINDS.podunavailablebudgets.kind,
            namespace,
            name,
          });
        }
      }
    });
  }
}
