/** Errors thrown by this library; each has a stable `code`. */

/** A TypeBox schema cannot be expressed as a structural apiextensions.k8s.io/v1 schema. */
export class CrdSchemaError extends Error {
  readonly code = 'REGATTA_API_CRD_SCHEMA';

  constructor(
    /** JSON-pointer-like location inside the schema, e.g. `/properties/spec/properties/selector`. */
    readonly location: string,
    message: string,
  ) {
    super(`${location || '/'}: ${message}`);
    this.name = 'CrdSchemaError';
  }
}

/** A kind (or plural) that this library has no CustomResourceDefinition for. */
export class UnknownKindError extends Error {
  readonly code = 'REGATTA_API_UNKNOWN_KIND';

  constructor(readonly kind: string) {
    super(`no CustomResourceDefinition is defined for ${JSON.stringify(kind)}; see CRD_DEFINITIONS for the served kinds`);
    this.name = 'UnknownKindError';
  }
}
