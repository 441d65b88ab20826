/**
 * Writes that fail without a clear answer (docs/adr/0061-writes-without-an-answer.md). A request that timed out, lost
 * its connection or got a 5xx may have been applied by the API server all the same: its answer was lost on the way
 * back. A controller that took such a failure as "not written" would plan its next round on the object as it was
 * (its cache shows the write only later), and could, say, make one pod more unavailable than maxUnavailable allows.
 * So the caller reads the object back and settles what happened before it plans again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError, ServerError, TimeoutError, isNotFound } from './errors.js';
import type { KubeClient } from './client.js';
import type { CollectionRef, ResourceRef } from './client-options.js';
import type { KubeObject } from './meta.js';
import type { LabelSelector } from './selector.js';
import { controllerRef } from './owner.js';

/** What a failed write did: `applied` (the answer was lost), `not-applied`, or `unknown` (the read-back failed too). */
export type WriteOutcome = 'applied' | 'not-applied' | 'unknown';

/** Whether a write that failed with `err` may have been applied: no answer (timed out, connection lost) or a 5xx. */
export function mayHaveBeenApplied(err: unknown): boolean {
  return err instanceof TimeoutError || err instanceof NetworkError || err instanceof ServerError;
}

/** Pauses before the second and third read-back (ms): a read failing once or twice should not leave it unknown. */
export const READ_BACK_DELAYS_MS: readonly number[] = [200, 1000];

/**
 * Settles a failed write: `not-applied` when the error says so (a 4xx answer), else what `readBack` finds (true: the
 * write is there), tried up to three times ({@link READ_BACK_DELAYS_MS}); `unknown` when every read-back fails. An
 * unknown outcome holds the caller's expectation until its timeout (5 min), so it should be rare: run AX of
 * docs/reliability.md had one rollout held that long with a single read-back.
 */
export async function settleWrite(
  err: unknown,
  readBack: () => Promise<boolean>,
  delaysMs: readonly number[] = READ_BACK_DELAYS_MS,
): Promise<WriteOutcome> {
  if (!mayHaveBeenApplied(err)) return 'not-applied';
  for (let attempt = 0; ; attempt++) {
    try {
      return (await readBack()) ? 'applied' : 'not-applied';
    } catch {
      const delay = delaysMs[attempt];
      if (delay === undefined) return 'unknown';
      await sleep(delay);
    }
  }
}

/**
 * The read-back of a delete on `uid`: true when the object is gone, replaced (another uid) or marked for deletion.
 */
export async function deletedOnRead(
  client: Pick<KubeClient, 'get'>,
  ref: ResourceRef,
  uid: string | undefined,
): Promise<boolean> {
  try {
    const now = await client.get(ref);
    return (uid !== undefined && now.metadata?.uid !== uid) || !!now.metadata?.deletionTimestamp;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

/** The read-back of a create under a name the controller chose: true when the object is there and `ownerUid` controls it. */
export async function createdOnRead(
  client: Pick<KubeClient, 'get'>,
  ref: ResourceRef,
  ownerUid: string | undefined,
): Promise<boolean> {
  try {
    return controllerRef(await client.get(ref))?.uid === ownerUid;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/**
 * The read-back of a create under a generated name (`metadata.generateName`), which cannot be read by name: the object
 * `selector` selects in `ref`'s namespace that `ownerUid` controls and the caller's cache does not hold yet (`cached`
 * false), or undefined when there is none. The selector should pick what only that create makes (a subset's label).
 */
export async function generatedOnRead<T extends KubeObject>(
  client: Pick<KubeClient, 'list'>,
  ref: CollectionRef,
  selector: LabelSelector,
  ownerUid: string | undefined,
  cached: (name: string) => boolean,
): Promise<T | undefined> {
  const { items } = await client.list<T>(ref, { labelSelector: selector });
  return items.find((o) => controllerRef(o)?.uid === ownerUid && !cached(o.metadata?.name ?? ''));
}

/**
 * A resourceVersion after `rv` (etcd's revisions are integers, as every version the API server hands out): what a
 * controller expects its cache to reach when it cannot tell whether its write went through. Undefined when `rv` is
 * not an integer.
 */
export function versionAfter(rv: string | undefined): string | undefined {
  if (rv === undefined || !/^\d+$/.test(rv)) return undefined;
  return (BigInt(rv) + 1n).toString();
}
