/**
 * Typed Kubernetes API errors. Every failure of {@link KubeClient} is one of these, built by {@link toKubeApiError}
 * from the API server's Status body (or from the network error when there was no response). Each class has a stable
 * `code`; `status` is the HTTP status (0 when no response came back), `reason` the Status reason, and the message
 * ends with what to do about it.
 */

/** metav1.StatusCause; `reason` holds the cause type (`FieldValueInvalid`, …). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** metav1.Status as the API server returns it for failures. */
export interface Status {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

export interface KubeApiErrorInit {
  /** HTTP status; 0 when the request never got a response. */
  status: number;
  reason?: string;
  details?: StatusDetails;
  /** What the API server (or the transport) said. */
  serverMessage: string;
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class KubeApiError extends Error {
  readonly status: number;
  readonly reason: string | undefined;
  readonly details: StatusDetails | undefined;
  readonly serverMessage: string;
  /** Seconds the server asked to wait before retrying (429, some 5xx), if it said so. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    init: KubeApiErrorInit,
    hint: string,
    /** True when the same request may succeed later (after a re-read for conflicts). */
    readonly retriable = false,
  ) {
    const what = init.serverMessage || `HTTP ${init.status}`;
    super(
      `${what}${init.reason ? ` (${init.status} ${init.reason})` : init.status ? ` (${init.status})` : ''}: ${hint}`,
      {
        cause: init.cause,
      },
    );
    this.name = new.target.name;
    this.status = init.status;
    this.reason = init.reason;
    this.details = init.details;
    this.serverMessage = init.serverMessage;
    this.retryAfterSeconds = init.retryAfterSeconds ?? init.details?.retryAfterSeconds;
  }
}

/** 409 Conflict: the resourceVersion is stale (or a server-side-apply conflict). */
export class ConflictError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_CONFLICT',
      init,
      're-read the object and apply the change to the latest version (retryOnConflict does this)',
      true,
    );
  }
}

/** 409 AlreadyExists: create of a name that is taken. */
export class AlreadyExistsError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_ALREADY_EXISTS',
      init,
      'an object with this name exists; read and update it instead, or create with generateName',
    );
  }
}

/** 404 NotFound with a Status body: the object (or its namespace) does not exist. */
export class NotFoundError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_NOT_FOUND',
      init,
      'the object does not exist (deleted, or wrong name or namespace); treat it as gone',
    );
  }
}

/** 404 without a Status body, or a kind discovery does not know: the API server does not serve this resource. */
export class UnknownResourceError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_UNKNOWN_RESOURCE',
      init,
      'the API server does not serve this resource; check apiVersion and kind, and that its CRD is installed and established',
    );
  }
}

/** 410 Gone / Expired: a resourceVersion or continue token is too old. */
export class GoneError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_GONE',
      init,
      'the resourceVersion or continue token is too old; list again from the start',
    );
  }
}

/** 422 Invalid: validation (or an admission webhook) rejected fields; `causes` lists them. */
export class InvalidError extends KubeApiError {
  readonly causes: StatusCause[];

  constructor(init: KubeApiErrorInit) {
    const causes = init.details?.causes ?? [];
    const list = causes
      .map((c) => (c.field ? `${c.field}: ${c.message ?? c.reason ?? ''}` : (c.message ?? '')))
      .filter(Boolean);
    super(
      'REGATTA_KUBE_INVALID',
      init,
      list.length > 0 ? `fix these fields: ${list.join('; ')}` : 'fix the object so it passes validation',
    );
    this.causes = causes;
  }
}

/** 403 Forbidden: RBAC (or an admission policy) refused the request. */
export class ForbiddenError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_FORBIDDEN',
      init,
      "grant the controller's identity RBAC for this verb and resource, or read the admission message above",
    );
  }
}

/** 401 Unauthorized: the credentials were not accepted. */
export class UnauthorizedError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_UNAUTHORIZED',
      init,
      'the credentials were rejected; check the kubeconfig user or the service-account token',
    );
  }
}

/** 408 / 504 / reason Timeout or ServerTimeout, or the request timed out locally. */
export class TimeoutError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super('REGATTA_KUBE_TIMEOUT', init, 'the API server did not answer in time; retry later', true);
  }
}

/** 429 TooManyRequests: API priority and fairness throttled the request. */
export class TooManyRequestsError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    const after = init.retryAfterSeconds ?? init.details?.retryAfterSeconds;
    super(
      'REGATTA_KUBE_TOO_MANY_REQUESTS',
      init,
      `the API server is throttling; retry after ${after ?? 1} s`,
      true,
    );
  }
}

/** 400 BadRequest: the body or parameters are malformed. */
export class BadRequestError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_BAD_REQUEST',
      init,
      'the request is malformed; check the body, patch and query parameters',
    );
  }
}

/** 5xx other than 504: the API server (or a webhook it called) failed. */
export class ServerError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super(
      'REGATTA_KUBE_SERVER_ERROR',
      init,
      'the API server failed to handle the request; retry later',
      true,
    );
  }
}

/** No response: connection refused or reset, DNS failure, TLS failure. */
export class NetworkError extends KubeApiError {
  constructor(init: KubeApiErrorInit, tls: boolean) {
    super(
      'REGATTA_KUBE_NETWORK',
      init,
      tls
        ? "the API server's certificate was not accepted; check certificate-authority(-data) and the server name in the kubeconfig"
        : 'cannot reach the API server; check the server address in the kubeconfig and that kube-apiserver is running',
      !tls,
    );
  }
}

/** Anything else (e.g. 405, 415, or an error that is not from the API at all). */
export class UnexpectedKubeError extends KubeApiError {
  constructor(init: KubeApiErrorInit) {
    super('REGATTA_KUBE_UNEXPECTED', init, 'unexpected failure talking to the API server; see the cause');
  }
}

/** True when `err` is a KubeApiError with that code (works across duplicated module copies too). */
export function hasKubeErrorCode(err: unknown, code: string): boolean {
  return err instanceof Error && 'code' in err && (err as { code: unknown }).code === code;
}

export const isNotFound = (err: unknown): boolean => hasKubeErrorCode(err, 'REGATTA_KUBE_NOT_FOUND');
export const isConflict = (err: unknown): boolean => hasKubeErrorCode(err, 'REGATTA_KUBE_CONFLICT');
export const isAlreadyExists = (err: unknown): boolean =>
  hasKubeErrorCode(err, 'REGATTA_KUBE_ALREADY_EXISTS');
/**
 * A create refused because its namespace is being deleted (403, cause `NamespaceTerminating`: kubernetes
 * `plugin/pkg/admission/namespace/lifecycle`): nothing can be written there any more, which is no failure.
 */
export function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof Error) || (err as Partial<KubeApiError>).status !== 403) return false;
  const e = err as Partial<KubeApiError>;
  return (
    (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating') ||
    (e.serverMessage ?? '').includes('because it is being terminated')
  );
}

function bodyToStatus(body: unknown): { status?: Status; text: string } {
  let value = body;
  if (value instanceof Uint8Array) value = new TextDecoder().decode(value);
  if (typeof value === 'string') {
    const text = value.trim();
    try {
      value = JSON.parse(text);
    } catch {
      return { text };
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Status;
    if (o.kind === 'Status' || typeof o.reason === 'string' || typeof o.message === 'string') {
      return { status: o, text: o.message ?? '' };
    }
  }
  return { text: value === undefined || value === null ? '' : JSON.stringify(value) };
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (headers == null) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(n: string): string | null }).get(name);
    return v ?? undefined;
  }
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
    if (k.toLowerCase() === name && typeof v === 'string') return v;
  }
  return undefined;
}

/** Builds the typed error for an HTTP response that is not 2xx. `body` is the raw text, bytes or parsed JSON. */
export function kubeErrorFromResponse(
  httpStatus: number,
  body: unknown,
  headers?: unknown,
  cause?: unknown,
): KubeApiError {
  const { status, text } = bodyToStatus(body);
  const retryAfter = Number(headerValue(headers, 'retry-after'));
  const init: KubeApiErrorInit = {
    status: httpStatus,
    reason: status?.reason || undefined,
    details: status?.details,
    serverMessage: text,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    cause,
  };
  switch (init.reason) {
    case 'Conflict':
      return new ConflictError(init);
    case 'AlreadyExists':
      return new AlreadyExistsError(init);
    case 'NotFound':
      return new NotFoundError(init);
    case 'Gone':
    case 'Expired':
      return new GoneError(init);
    case 'Invalid':
      return new InvalidError(init);
    case 'Forbidden':
      return new ForbiddenError(init);
    case 'Unauthorized':
      return new UnauthorizedError(init);
    case 'Timeout':
    case 'ServerTimeout':
      return new TimeoutError(init);
    case 'TooManyRequests':
      return new TooManyRequestsError(init);
    case 'BadRequest':
      return new BadRequestError(init);
    case 'InternalError':
    case 'ServiceUnavailable':
      return new ServerError(init);
  }
  switch (httpStatus) {
    case 409:
      return new ConflictError(init);
    case 404:
      return status ? new NotFoundError(init) : new UnknownResourceError(init);
    case 410:
      return new GoneError(init);
    case 422:
      return new InvalidError(init);
    case 403:
      return new ForbiddenError(init);
    case 401:
      return new UnauthorizedError(init);
    case 408:
    case 504:
      return new TimeoutError(init);
    case 429:
      return new TooManyRequestsError(init);
    case 400:
      return new BadRequestError(init);
  }
  if (httpStatus >= 500) return new ServerError(init);
  return new UnexpectedKubeError(init);
}

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);
const TLS_CODE_RE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;

/** Walks `err` and its `cause` chain, yielding each level. */
function* causeChain(err: unknown): Generator<unknown> {
  let cur = err;
  for (let depth = 0; depth < 6 && cur != null; depth++) {
    yield cur;
    cur = typeof cur === 'object' ? (cur as { cause?: unknown }).cause : undefined;
  }
}

/** An object shaped like client-node's `ApiException`: numeric `code`, and a `body`. */
function isApiException(err: unknown): err is { code: number; body: unknown; headers?: unknown } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'number' &&
    'body' in err
  );
}

/**
 * Converts anything thrown while talking to the API server: a {@link KubeApiError} is returned as is; a client-node
 * `ApiException` (`.code` = HTTP status, `.body` = Status JSON string or object) becomes the matching class; a
 * fetch / undici / socket failure becomes {@link TimeoutError} or {@link NetworkError}; anything else
 * {@link UnexpectedKubeError}.
 */
export function toKubeApiError(err: unknown): KubeApiError {
  if (err instanceof KubeApiError) return err;
  if (isApiException(err)) return kubeErrorFromResponse(err.code, err.body, err.headers, err);
  let message = err instanceof Error ? err.message : String(err);
  for (const level of causeChain(err)) {
    if (typeof level !== 'object' || level === null) continue;
    const name = (level as { name?: unknown }).name;
    const code = (level as { code?: unknown }).code;
    const msg = (level as { message?: unknown }).message;
    if (typeof msg === 'string' && msg !== '' && msg !== 'fetch failed') message = msg;
    if (name === 'TimeoutError' || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
      return new TimeoutError({ status: 0, serverMessage: message, cause: err });
    }
    if (typeof code === 'string' && TLS_CODE_RE.test(code)) {
      return new NetworkError({ status: 0, serverMessage: `${message} [${code}]`, cause: err }, true);
    }
    if (name === 'AbortError' || (typeof code === 'string' && NETWORK_CODES.has(code))) {
      return new NetworkError(
        { status: 0, serverMessage: typeof code === 'string' ? `${message} [${code}]` : message, cause: err },
        false,
      );
    }
  }
  if (err instanceof TypeError && err.message === 'fetch failed') {
    return new NetworkError({ status: 0, serverMessage: message, cause: err }, false);
  }
  return new UnexpectedKubeError({ status: 0, serverMessage: message, cause: err });
}
