/**
 * OpenKruise's Advanced StatefulSet event reasons and messages (`pkg/controller/statefulset/stateful_pod_control.go`
 * `recordPodEvent`/`recordClaimEvent`, `stateful_set_control.go`).
 */
export const CONTROLLER_NAME = 'statefulset-controller';

export const messages = {
  pod: (verb: 'create' | 'update' | 'delete', pod: string, set: string) =>
    `${verb} Pod ${pod} in StatefulSet ${set} successful`,
  podFailed: (verb: 'create' | 'update' | 'delete', pod: string, set: string, err: unknown) =>
    `${verb} Pod ${pod} in StatefulSet ${set} failed error: ${errText(err)}`,
  claim: (claim: string, pod: string, set: string) =>
    `create Claim ${claim} Pod ${pod} in StatefulSet ${set} success`,
  claimFailed: (claim: string, pod: string, set: string, err: unknown) =>
    `create Claim ${claim} for Pod ${pod} in StatefulSet ${set} failed error: ${errText(err)}`,
  claimResized: (claim: string, pod: string, set: string) =>
    `resize Claim ${claim} Pod ${pod} in StatefulSet ${set} success`,
  claimResizeFailed: (claim: string, pod: string, set: string, err: unknown) =>
    `resize Claim ${claim} for Pod ${pod} in StatefulSet ${set} failed error: ${errText(err)}`,
  claimMismatch: (claim: string) =>
    `failed to update pvc ${claim}: contains diff other than spec resource, wait pvc to be deleted`,
  failedDelete: (pod: string, err: unknown) => `failed to delete pod ${pod}: ${errText(err)}`,
  updatedInPlace: (pod: string, revision: string) =>
    `successfully update pod ${pod} in-place(revision ${revision})`,
  failedUpdateInPlace: (pod: string, revision: string, err: unknown) =>
    `failed to update pod ${pod} in-place(revision ${revision}): ${errText(err)}`,
  inPlaceOnlyImpossible: (pod: string) =>
    `find strategy is InPlaceOnly but Pod ${pod} can not update in-place`,
  failedCreateCondition: (err: unknown) => `StatefulPodControl failed to create Pod error: ${errText(err)}`,
  failedUpdateCondition: (err: unknown) => `StatefulPodControl failed to update Pod error: ${errText(err)}`,
};

export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
