/** Errors of the in-place update engine. */

/** An annotation the engine owns (`inplace-update-state`, `inplace-update-grace`, `runtime-containers-meta`) does not parse. */
export class InPlaceUpdateAnnotationError extends Error {
  readonly code = 'REGATTA_INPLACE_BAD_ANNOTATION';

  constructor(
    readonly annotation: string,
    reason: string,
  ) {
    super(
      `pod annotation ${annotation} is not valid: ${reason}; remove it or restore the value the controller wrote`,
    );
    this.name = 'InPlaceUpdateAnnotationError';
  }
}

/** The pod is in a state the engine cannot continue from (grace annotation without a state, …). */
export class InPlaceUpdateStateError extends Error {
  readonly code = 'REGATTA_INPLACE_INCONSISTENT';

  constructor(message: string) {
    super(message);
    this.name = 'InPlaceUpdateStateError';
  }
}

/** A metadata patch uses a strategic-merge construct outside the subset the engine writes and applies. */
export class MetadataPatchError extends Error {
  readonly code = 'REGATTA_INPLACE_UNSUPPORTED_PATCH';

  constructor(message: string) {
    super(message);
    this.name = 'MetadataPatchError';
  }
}
