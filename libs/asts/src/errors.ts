/** Errors of the Advanced StatefulSet controller (codes `REGATTA_ASTS_…`). */
import { RegattaError } from '@regatta/errors';

/** The base of this library's errors. */
export class AstsError extends RegattaError {}

/** `podUpdatePolicy: InPlaceOnly` and the template change cannot be made in place (OpenKruise's message). */
export class InPlaceOnlyError extends AstsError {
  constructor(message: string) {
    super('REGATTA_ASTS_INPLACE_ONLY', message);
  }
}

/** A pod's claims could not be created (a claim failed or is being deleted); the pod is not created. */
export class ClaimsError extends AstsError {
  constructor(message: string) {
    super('REGATTA_ASTS_CLAIMS', message);
  }
}

/** A claim's owner references could not be set for the retention policy. */
export class ClaimRefsError extends AstsError {
  constructor(message: string, cause: unknown) {
    super('REGATTA_ASTS_CLAIM_REFS', message, { cause });
  }
}

/** A claim could not be resized on rolling update (storage class without expansion, a change beyond its size, a failed write). */
export class ClaimResizeError extends AstsError {
  constructor(message: string, cause?: unknown) {
    super('REGATTA_ASTS_CLAIM_RESIZE', message, cause === undefined ? undefined : { cause });
  }
}
