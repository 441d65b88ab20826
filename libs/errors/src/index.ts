/**
 * The base of Regatta's errors: a stable `code` (`REGATTA_…`) that programs and people can match,
 * a message that says what to do, and the underlying cause. Each library derives its own base
 * (`BusError`, `RuntimeError`, …) so callers can tell where an error came from.
 */
export class RegattaError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
