/** Errors of the UnitedDeployment library (codes `REGATTA_UD_…`). */
import { RegattaError } from '@regatta/errors';

/** The base of this library's errors. */
export class UnitedDeploymentError extends RegattaError {}

/**
 * A subset's `replicas` / `minReplicas` / `maxReplicas` cannot be read (negative number, not a percentage, a
 * percentage without `spec.replicas`…); the message is OpenKruise's (`ParseSubsetReplicas`).
 */
export class SubsetReplicasError extends UnitedDeploymentError {
  constructor(message: string) {
    super('REGATTA_UD_SUBSET_REPLICAS', message);
  }
}

/**
 * The subsets' replicas cannot be allocated as specified (specified sum above or below `spec.replicas`, min above
 * max); the message is OpenKruise's. The controller reports it as the event `Failed SpecifySubsetReplicas`.
 */
export class ReplicaAllocationError extends UnitedDeploymentError {
  constructor(message: string) {
    super('REGATTA_UD_REPLICA_ALLOCATION', message);
  }
}
