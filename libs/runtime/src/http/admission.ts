import { type FieldError, fieldErrorBody } from '@regatta/kube';
import { RuntimeError } from '../errors.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What a handler is given: the parts of an AdmissionReview request it needs. */
export interface AdmissionInput<T = unknown> {
  operation: Operation;
  /** The object being written (`null` on DELETE). Not validated: handlers check what they read. */
  object: T | null;
  /** The previous object on UPDATE and DELETE, else `null`. */
  oldObject: T | null;
  kind: GroupVersionKind;
  namespace?: string;
  name?: string;
  userInfo: UserInfo;
  /** The write will not be persisted; handlers must stay side-effect free anyway. */
  dryRun: boolean;
  /** The request's uid. */
  uid: string;
  subResource?: string;
}

/** One field error, as in `metav1.StatusCause`. */
export interface StatusCause {
  /** Path of the field, e.g. `spec.updateStrategy.partition`. */
  field: string;
  message: string;
  /** E.g. `FieldValueInvalid`, `FieldValueRequired`, `FieldValueNotSupported`, `FieldValueForbidden`. */
  reason: string;
}

/** One cause per field error, as the validating webhooks report them (`type` kept beside `reason`). */
export function fieldErrorCauses(errors: readonly FieldError[]): (StatusCause & { type: string })[] {
  return errors.map((e) => ({ type: e.type, reason: e.type, field: e.field, message: fieldErrorBody(e) }));
}

/** The status of a denied request (`metav1.Status`, as the API server relays it to the client). */
export interface AdmissionStatus {
  code: number;
  reason: string;
  message: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] };
}

export type ValidationResult =
  | { allowed: true; warnings?: string[] }
  | { allowed: false; status: AdmissionStatus; warnings?: string[] };

export type ValidatingHandler<T = unknown> = (
  input: AdmissionInput<T>,
) => ValidationResult | Promise<ValidationResult>;

/**
 * Returns the object as it should be written (mutate a copy or the given object — it is the
 * handler's own copy); the server sends the difference as a JSON Patch. `undefined` means
 * no change.
 */
export type MutatingHandler<T = unknown> = (
  input: AdmissionInput<T>,
) => T | undefined | Mutation<T> | Promise<T | undefined | Mutation<T>>;

/**
 * A mutating handler's answer with warnings (`AdmissionResponse.warnings`, which kubectl prints as `Warning: …`);
 * `object` undefined leaves the object as it is.
 */
export class Mutation<T = unknown> {
  constructor(
    readonly object: T | undefined,
    readonly warnings: readonly string[],
  ) {}
}

/** Thrown by a handler to deny the request with this status (instead of a 500). */
export class AdmissionDeniedError extends RuntimeError {
  constructor(readonly status: AdmissionStatus) {
    super('REGATTA_ADMISSION_DENIED', status.message);
  }
}

/**
 * A 422 `Invalid` status like apimachinery's `NewInvalid`: `CloneSet.apps.kruise.io "web" is
 * invalid: spec.replicas: Invalid value: -1: …`, with one cause per field error.
 */
export function invalid(
  target: { group: string; kind: string; name?: string },
  causes: StatusCause[],
): ValidationResult {
  const qualified = target.group ? `${target.kind}.${target.group}` : target.kind;
  const each = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = each.length === 1 ? (each[0] ?? '') : `[${each.join(', ')}]`;
  return {
    allowed: false,
    status: {
      code: 422,
      reason: 'Invalid',
      message: `${qualified} "${target.name ?? ''}" is invalid: ${joined}`,
      details: {
        ...(target.name !== undefined && { name: target.name }),
        group: target.group,
        kind: target.kind,
        causes,
      },
    },
  };
}

/** The `response` of an AdmissionReview. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  warnings?: string[];
  patch?: string;
  patchType?: 'JSONPatch';
}

/** Why a body is not an AdmissionReview v1 request. */
export class BadAdmissionReviewError extends RuntimeError {
  constructor(reason: string) {
    super('REGATTA_BAD_ADMISSION_REVIEW', reason);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

function optionalString(r: Record<string, unknown>, key: string): string | undefined {
  const v = r[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Checks a parsed body and extracts the handler input; throws {@link BadAdmissionReviewError}. */
export function parseAdmissionReview(body: unknown): AdmissionInput {
  if (!isRecord(body)) throw new BadAdmissionReviewError('body is not a JSON object');
  if (body['apiVersion'] !== 'admission.k8s.io/v1') {
    throw new BadAdmissionReviewError(
      `apiVersion is ${JSON.stringify(body['apiVersion'])}; only admission.k8s.io/v1 is supported`,
    );
  }
  if (body['kind'] !== 'AdmissionReview') {
    throw new BadAdmissionReviewError(`kind is ${JSON.stringify(body['kind'])}; expected AdmissionReview`);
  }
  const request = body['request'];
  if (!isRecord(request)) throw new BadAdmissionReviewError('request is missing');
  const uid = request['uid'];
  if (typeof uid !== 'string' || uid === '') throw new BadAdmissionReviewError('request.uid is missing');
  const operation = request['operation'];
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation)) {
    throw new BadAdmissionReviewError(
      `request.operation ${JSON.stringify(operation)} is not one of ${OPERATIONS.join(', ')}`,
    );
  }
  const kind = request['kind'];
  if (!isRecord(kind) || typeof kind['kind'] !== 'string' || typeof kind['version'] !== 'string') {
    throw new BadAdmissionReviewError('request.kind must be {group, version, kind}');
  }
  const userInfo = isRecord(request['userInfo']) ? (request['userInfo'] as UserInfo) : {};
  const namespace = optionalString(request, 'namespace');
  const name = optionalString(request, 'name');
  const subResource = optionalString(request, 'subResource');
  return {
    uid,
    operation: operation as Operation,
    object: request['object'] ?? null,
    oldObject: request['oldObject'] ?? null,
    kind: {
      group: typeof kind['group'] === 'string' ? kind['group'] : '',
      version: kind['version'],
      kind: kind['kind'],
    },
    userInfo,
    dryRun: request['dryRun'] === true,
    ...(namespace !== undefined && { namespace }),
    ...(name !== undefined && { name }),
    ...(subResource !== undefined && { subResource }),
  };
}

/** Wraps a response in an AdmissionReview v1. */
export function admissionReview(response: AdmissionResponse): {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: AdmissionResponse;
} {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}
