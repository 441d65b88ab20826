import { RegattaError } from '@regatta/errors';
import type { NamespaceFailure } from './status.js';

/** A round in which some copies could not be read, created, updated or deleted; the request is retried. */
export class DistributionFailedError extends RegattaError {
  constructor(
    readonly distribution: string,
    readonly failures: readonly NamespaceFailure[],
  ) {
    super(
      'REGATTA_RESOURCEDISTRIBUTION_FAILED',
      `ResourceDistribution ${distribution}: ${failures.length} namespace(s) failed: ` +
        failures.map((f) => `${f.namespace} (${f.condition}: ${f.message})`).join('; '),
    );
  }
}
