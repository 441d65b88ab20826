/**
 * The "admitted" overlay over the SidecarSet cache (docs/adr/0040-sidecarset-effective-at-admission.md): the validating
 * webhook records every SidecarSet it allows (not dry runs); the pod webhook's configuration gets an entry for it at
 * once, and the pod webhook injects it as soon as a read of the API server shows it stored, until the cache holds it.
 * Records of writes the API server did not store (refused after us) are dropped once the reads give up.
 */
import { isNotFound, type KubeClient } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import type { AnySidecarSet } from '../injection/types.js';
import {
  type AdmittedRecord,
  confirmation,
  liveRecords,
  recordsNeedingEntries,
  withAdmitted,
} from './admitted.js';

const SIDECARSET = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;

/** Reads after the admission (ms between them): about 16 s, above the API server's webhook timeouts. */
const CONFIRM_DELAYS_MS = [100, 250, 500, 1_000, 2_000, 4_000, 8_000];
/** A record the cache never catches up with (watcher down) stops counting after this; the cache takes over. */
const TTL_MS = 60_000;

export interface AdmittedSidecarSetsOptions {
  client: Pick<KubeClient, 'getOrUndefined'>;
  /** The cached SidecarSet of this name. */
  cached(name: string): AnySidecarSet | undefined;
  log?: Pick<Logger, 'debug' | 'warn'>;
  now?: () => number;
  /** Reads after an admission; default about 16 s in all. */
  confirmDelaysMs?: readonly number[];
  ttlMs?: number;
}

const keyOf = (s: AnySidecarSet) => `${s.metadata?.name ?? ''}/${s.metadata?.uid ?? ''}`;

export class AdmittedSidecarSets {
  /** By name and uid: an update replaces the record of its object, a create racing another of that name does not. */
  readonly #records = new Map<string, AdmittedRecord>();
  readonly #reads = new Map<AdmittedRecord, Promise<void>>();

  constructor(private readonly o: AdmittedSidecarSetsOptions) {}

  /** The validating webhook allowed this SidecarSet (not a dry run): record it and start confirming it. */
  admit(set: AnySidecarSet): void {
    const record: AdmittedRecord = { admitted: set, admittedAt: this.#now() };
    this.#records.set(keyOf(set), record);
    void this.#confirmInBackground(record);
  }

  /** The records still of use (pruned as a side effect). */
  #live(): AdmittedRecord[] {
    const live = liveRecords([...this.#records.values()], this.o.cached, this.#now(), this.o.ttlMs ?? TTL_MS);
    for (const [key, r] of this.#records) if (!live.includes(r)) this.#records.delete(key);
    return live;
  }

  /** The SidecarSets that need a pod webhook entry besides the cached ones'. */
  needingEntries(): AnySidecarSet[] {
    return recordsNeedingEntries(this.#live(), this.o.cached);
  }

  /**
   * The SidecarSets the pod webhook injects: the cached ones, with what the API server stores under the name of every
   * live record; a record not settled yet is read first (one read shared by concurrent calls), so a SidecarSet whose
   * create was refused, or not written yet, is never injected.
   */
  async merged(cached: readonly AnySidecarSet[]): Promise<AnySidecarSet[]> {
    const live = this.#live();
    if (live.length === 0) return [...cached];
    await Promise.all(live.filter((r) => !r.settled).map((r) => this.#read(r)));
    return withAdmitted(
      cached,
      live.flatMap((r) => (r.stored ? [r.stored] : [])),
    );
  }

  /** Reads the object of the record's name: settles the record when it shows the admitted object or another one. */
  async #read(record: AdmittedRecord): Promise<void> {
    const running = this.#reads.get(record);
    if (running) return running;
    const name = record.admitted.metadata?.name ?? '';
    const read = (async () => {
      const stored = await this.o.client
        .getOrUndefined<AnySidecarSet>({ ...SIDECARSET, name })
        .catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
      if (stored) record.stored = stored;
      else delete record.stored;
      if (confirmation(record.admitted, stored) !== 'pending') record.settled = true;
    })().finally(() => this.#reads.delete(record));
    this.#reads.set(record, read);
    return read;
  }

  async #confirmInBackground(record: AdmittedRecord): Promise<void> {
    const key = keyOf(record.admitted);
    for (const delay of this.o.confirmDelaysMs ?? CONFIRM_DELAYS_MS) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      if (this.#records.get(key) !== record || record.settled) return; // replaced, superseded or settled
      try {
        await this.#read(record);
      } catch (err) {
        this.o.log?.debug({ err, sidecarSet: key }, 'could not read an admitted SidecarSet; retrying');
      }
    }
    // never shown stored: the write was refused after this admission
    if (this.#records.get(key) === record && !record.settled) {
      this.#records.delete(key);
      this.o.log?.debug({ sidecarSet: key }, 'an admitted SidecarSet was never stored; forgotten');
    }
  }

  #now(): number {
    return this.o.now?.() ?? Date.now();
  }
}
