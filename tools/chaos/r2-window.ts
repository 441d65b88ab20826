// R2's accepted objects while they are sent (issue 18: 10 000 objects per kind, against etcd's 2 GiB quota). Each
// accepted object is looked at (one GET) until its controller reconciled it, or deleted it, or its wait ran out; a
// reconciled one is then deleted (unless its kind keeps them: a SidecarSet's webhook judges each against those
// admitted before it; or it holds pods, see `holdsPods`), so etcd holds the objects still waiting, not every accepted
// one. The rounds run beside the
// sending; sending waits only when `limit` objects are waiting (the controller behind, not the suite).
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound, type KubeObject } from '@regatta/kube';
import type { World } from './world.js';

type Looked = KubeObject & { status?: Record<string, unknown> };

/** How one waiting object stands after a look: done (reconciled, or deleted by its controller), or still waiting. */
export type Standing = 'reconciled' | 'gone' | 'overdue' | 'waiting';

/**
 * `obj` as a GET found it (undefined: not found), accepted at `acceptedAt`: reconciled by `isReconciled`; gone when
 * not found (only its controller deletes before it is reconciled: an ImagePullJob's TTL); overdue past `waitMs`.
 */
export function standingOf(
  obj: Looked | undefined,
  acceptedAt: number,
  now: number,
  waitMs: number,
  isReconciled: (obj: Looked) => boolean,
): Standing {
  if (!obj) return 'gone';
  if (isReconciled(obj)) return 'reconciled';
  return now - acceptedAt > waitMs ? 'overdue' : 'waiting';
}

/**
 * The object holds pods (its status counts some: `replicas`, a DaemonSet's `currentNumberScheduled`). Such an object
 * is kept, not deleted, once reconciled: deleting it would free the namespace's pod quota for the next objects' pods,
 * and every admitted object would then create, start and lose pods (2–2.5x the etcd writes per object: run AL in
 * docs/reliability.md); kept, the quota stays full with the first objects' pods, as when nothing was deleted.
 */
export const holdsPods = (obj: Looked): boolean =>
  Number(obj.status?.['replicas'] ?? 0) > 0 || Number(obj.status?.['currentNumberScheduled'] ?? 0) > 0;

/** The default reconciled rule: `status.observedGeneration` at least the generation. */
export const observedGeneration = (obj: Looked): boolean =>
  Number(obj.status?.['observedGeneration'] ?? 0) >= (obj.metadata?.generation ?? 1);

export interface WindowKind {
  apiVersion: string;
  kind: string;
  /** Namespace of the objects (undefined: cluster-scoped). */
  namespace: string | undefined;
  isReconciled: (obj: Looked) => boolean;
  /** Delete an object once it is reconciled (false: kept until the end, by the caller). */
  deleteDone: boolean;
}

/** The accepted objects of one kind, waited for beside the sending. */
export class ReconcileWindow {
  readonly reconciled = new Set<string>();
  /** Deleted by their controller before a look saw them reconciled. */
  readonly gone = new Set<string>();
  readonly overdue = new Set<string>();
  /** Deleted here once reconciled. */
  deleted = 0;
  /** Reconciled, holding pods: kept until the end (`holdsPods`). */
  readonly holding = new Set<string>();
  /** The most objects waiting at once. */
  peak = 0;
  private readonly waiting = new Map<string, number>();
  private running = true;
  private failure: unknown;
  private readonly loop: Promise<void>;

  constructor(
    private readonly w: World,
    private readonly k: WindowKind,
    private readonly o: { waitMs: number; pollMs: number; limit: number; onError: (what: string) => void },
  ) {
    // a failed look or delete stops the rounds; the next `room`, `drain` or `close` throws it
    this.loop = this.run().catch((err: unknown) => {
      this.failure = err ?? new Error('R2: a reconcile round failed');
      this.running = false;
    });
  }

  /** An accepted object, from now on waited for. */
  add(name: string): void {
    this.waiting.set(name, Date.now());
    this.peak = Math.max(this.peak, this.waiting.size);
  }

  /** Resolves once fewer than `limit` objects wait. */
  async room(): Promise<void> {
    while (this.waiting.size >= this.o.limit && this.running) await sleep(50);
    this.throwFailure();
  }

  /** Every object done or overdue; the rounds stopped. */
  async drain(): Promise<void> {
    while (this.waiting.size > 0 && this.running) await sleep(50);
    await this.close();
  }

  /** The rounds stopped (also after a failure of the sending: nothing is left running behind a check). */
  async close(): Promise<void> {
    this.running = false;
    await this.loop;
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** The names to delete at the end: not deleted here (overdue, or kept by the kind). */
  leftOver(): string[] {
    return [...(this.k.deleteDone ? this.holding : this.reconciled), ...this.overdue];
  }

  private async run(): Promise<void> {
    while (this.running) {
      const round = [...this.waiting.entries()];
      if (round.length === 0) {
        await sleep(50);
        continue;
      }
      for (const [name, acceptedAt] of round) {
        const ref = {
          apiVersion: this.k.apiVersion,
          kind: this.k.kind,
          name,
          ...(this.k.namespace ? { namespace: this.k.namespace } : {}),
        };
        const obj = await this.w.client.getOrUndefined<Looked>(ref);
        const s = standingOf(obj, acceptedAt, Date.now(), this.o.waitMs, this.k.isReconciled);
        if (s === 'waiting') continue;
        this.waiting.delete(name);
        if (s === 'gone') this.gone.add(name);
        else if (s === 'overdue') this.overdue.add(name);
        else {
          this.reconciled.add(name);
          if (obj && holdsPods(obj)) this.holding.add(name);
          else if (this.k.deleteDone)
            await this.w.client.delete(ref).then(
              () => this.deleted++,
              (err: unknown) => {
                if (!isNotFound(err))
                  this.o.onError(
                    `could not delete ${this.k.kind} ${name}: ${err instanceof Error ? err.message : String(err)}`,
                  );
              },
            );
        }
      }
      if (this.waiting.size > 0) await sleep(this.o.pollMs);
    }
  }
}
