import { RegattaError } from '@regatta/errors';

/** Base class of the local cluster's errors. */
export class LocalClusterError extends RegattaError {}

/** A control-plane binary is not in the cache: the one-time build has not run for this version. */
export class BinariesMissingError extends LocalClusterError {
  constructor(
    readonly missing: string[],
    cacheDir: string,
  ) {
    super(
      'REGATTA_BINARIES_MISSING',
      `control-plane binaries are not built yet: ${missing.join(', ')} (looked in ${cacheDir}). ` +
        `Run 'npm run controlplane:build' once (needs Go; about 20-30 minutes on 2 cores), then try again.`,
    );
  }
}

/** A process of the cluster exited or never became healthy. */
export class ComponentStartError extends LocalClusterError {
  constructor(component: string, reason: string, logFile: string) {
    super('REGATTA_COMPONENT_START', `${component} did not start: ${reason}. Its log: ${logFile}`);
  }
}

/** Waiting for a condition took longer than allowed. */
export class WaitTimeoutError extends LocalClusterError {
  constructor(what: string, ms: number) {
    super('REGATTA_WAIT_TIMEOUT', `timed out after ${ms} ms waiting for ${what}`);
  }
}

/** A process name the cluster's folder has no record of. */
export class UnknownProcessError extends LocalClusterError {
  constructor(
    readonly program: string,
    readonly known: string[],
  ) {
    super('REGATTA_UNKNOWN_PROCESS', `no program named '${program}' here; known: ${known.join(', ')}`);
  }
}
