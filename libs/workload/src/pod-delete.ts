/**
 * Deleting one pod under a delete expectation, as every workload controller scaling down or recreating does: on the
 * pod's UID, and with a delete that lost its answer read back before the next round plans
 * (docs/adr/0061-writes-without-an-answer.md).
 */
import { type KubeClient, type KubeObject, deletedOnRead, isNotFound, settleWrite } from '@regatta/kube';
import type { ControlLogger } from './types.js';

/** The expectations a pod delete raises and settles (a runtime `Expectations` fits). */
export interface DeleteExpectations {
  expectScale(key: string, action: 'delete', name: string): void;
  observeScale(key: string, action: 'delete', name: string): void;
}

export interface PodDeleteDeps {
  client: Pick<KubeClient, 'delete' | 'get'>;
  expectations: DeleteExpectations;
  log: Pick<ControlLogger, 'info'>;
}

/**
 * Deletes `pod` on its UID, expecting its delete under `key`. `deleted`: it went (a delete without an answer that the
 * read-back finds done counts); `gone`: the API server says it was gone already (or `alreadyGone` says so of the
 * error), so nothing was deleted and the expectation is dropped. Any other failure is thrown: the expectation is
 * dropped when the delete surely did not happen, and kept, until the cache shows the pod gone or it times out, when
 * that cannot be told.
 */
export async function deletePodExpected(
  d: PodDeleteDeps,
  key: string,
  pod: KubeObject,
  alreadyGone: (err: unknown) => boolean = isNotFound,
): Promise<'deleted' | 'gone'> {
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid;
  const ref = { apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata?.namespace, name };
  d.expectations.expectScale(key, 'delete', name);
  try {
    await d.client.delete(ref, uid ? { preconditions: { uid } } : {});
    return 'deleted';
  } catch (err) {
    const outcome = await settleWrite(err, () => deletedOnRead(d.client, ref, uid));
    if (outcome === 'applied') {
      d.log.info({ pod: name, err }, 'a delete without an answer went through');
      return 'deleted';
    }
    if (outcome === 'not-applied') d.expectations.observeScale(key, 'delete', name);
    if (alreadyGone(err)) return 'gone';
    throw err;
  }
}
