import { createServer } from 'node:net';
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidError,
  KubeApiError,
  NetworkError,
  NotFoundError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  UnexpectedKubeError,
  UnknownResourceError,
  isAlreadyExists,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  kubeErrorFromResponse,
  toKubeApiError,
} from './errors.js';

const status = (code: number, reason: string, message = 'm', details?: object): string =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message, details });

describe('toKubeApiError from client-node ApiException', () => {
  const cases: [string, number, unknown, new (...args: never[]) => KubeApiError, string][] = [
    ['conflict', 409, status(409, 'Conflict'), ConflictError, 'REGATTA_KUBE_CONFLICT'],
    ['already exists', 409, status(409, 'AlreadyExists'), AlreadyExistsError, 'REGATTA_KUBE_ALREADY_EXISTS'],
    ['409 without reason', 409, '{}', ConflictError, 'REGATTA_KUBE_CONFLICT'],
    ['not found', 404, status(404, 'NotFound'), NotFoundError, 'REGATTA_KUBE_NOT_FOUND'],
    ['404 plain text', 404, '404 page not found', UnknownResourceError, 'REGATTA_KUBE_UNKNOWN_RESOURCE'],
    ['gone', 410, status(410, 'Gone'), GoneError, 'REGATTA_KUBE_GONE'],
    ['expired', 410, status(410, 'Expired'), GoneError, 'REGATTA_KUBE_GONE'],
    ['invalid', 422, status(422, 'Invalid'), InvalidError, 'REGATTA_KUBE_INVALID'],
    ['forbidden', 403, status(403, 'Forbidden'), ForbiddenError, 'REGATTA_KUBE_FORBIDDEN'],
    ['unauthorized', 401, status(401, 'Unauthorized'), UnauthorizedError, 'REGATTA_KUBE_UNAUTHORIZED'],
    ['504', 504, status(504, 'Timeout'), TimeoutError, 'REGATTA_KUBE_TIMEOUT'],
    ['408 without body', 408, '', TimeoutError, 'REGATTA_KUBE_TIMEOUT'],
    ['server timeout reason on 500', 500, status(500, 'ServerTimeout'), TimeoutError, 'REGATTA_KUBE_TIMEOUT'],
    [
      '429',
      429,
      status(429, 'TooManyRequests', 'slow', { retryAfterSeconds: 3 }),
      TooManyRequestsError,
      'REGATTA_KUBE_TOO_MANY_REQUESTS',
    ],
    ['400', 400, status(400, 'BadRequest'), BadRequestError, 'REGATTA_KUBE_BAD_REQUEST'],
    ['500', 500, status(500, 'InternalError'), ServerError, 'REGATTA_KUBE_SERVER_ERROR'],
    ['503 plain', 503, 'unavailable', ServerError, 'REGATTA_KUBE_SERVER_ERROR'],
    ['415', 415, status(415, 'UnsupportedMediaType'), UnexpectedKubeError, 'REGATTA_KUBE_UNEXPECTED'],
    [
      'object body',
      409,
      { kind: 'Status', reason: 'Conflict', message: 'obj' },
      ConflictError,
      'REGATTA_KUBE_CONFLICT',
    ],
    ['buffer body', 404, Buffer.from(status(404, 'NotFound')), NotFoundError, 'REGATTA_KUBE_NOT_FOUND'],
  ];
  it.each(cases)('%s', (_name, code, body, cls, errCode) => {
    const err = toKubeApiError(new ApiException(code, 'Unsuccessful HTTP Request', body, {}));
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(KubeApiError);
    expect(err.code).toBe(errCode);
    expect(err.status).toBe(code);
  });

  it('keeps the server message, the reason and says what to do', () => {
    const err = toKubeApiError(
      new ApiException(
        409,
        'x',
        status(409, 'Conflict', 'Operation cannot be fulfilled on pods "p": the object has been modified'),
        {},
      ),
    );
    expect(err.message).toBe(
      'Operation cannot be fulfilled on pods "p": the object has been modified (409 Conflict): ' +
        're-read the object and apply the change to the latest version (retryOnConflict does this)',
    );
    expect(err.reason).toBe('Conflict');
    expect(err.retriable).toBe(true);
    expect(isConflict(err)).toBe(true);
    expect(isNotFound(err)).toBe(false);
    expect(
      isAlreadyExists(toKubeApiError(new ApiException(409, 'x', status(409, 'AlreadyExists'), {}))),
    ).toBe(true);
  });

  it('lists the causes of an Invalid error', () => {
    const body = status(422, 'Invalid', 'CloneSet.apps.kruise.io "c" is invalid: ...', {
      name: 'c',
      kind: 'CloneSet',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          field: 'spec.replicas',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
      ],
    });
    const err = toKubeApiError(new ApiException(422, 'x', body, {}));
    expect(err).toBeInstanceOf(InvalidError);
    expect((err as InvalidError).causes.map((c) => c.field)).toEqual(['spec.replicas', 'spec.selector']);
    expect(err.message).toContain('fix these fields: spec.replicas: Invalid value: -1');
  });

  it('reads Retry-After from details or the header', () => {
    expect(
      kubeErrorFromResponse(429, status(429, 'TooManyRequests', 'x', { retryAfterSeconds: 3 }))
        .retryAfterSeconds,
    ).toBe(3);
    expect(kubeErrorFromResponse(429, '', { 'Retry-After': '7' }).retryAfterSeconds).toBe(7);
    expect(kubeErrorFromResponse(429, '', new Headers({ 'retry-after': '2' })).retryAfterSeconds).toBe(2);
  });

  it('returns a KubeApiError unchanged', () => {
    const e = kubeErrorFromResponse(404, status(404, 'NotFound'));
    expect(toKubeApiError(e)).toBe(e);
  });
});

describe('toKubeApiError from transport failures', () => {
  const refused = new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }),
  });
  const tls = new TypeError('fetch failed', {
    cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
  });
  const headersTimeout = new TypeError('fetch failed', {
    cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
  });
  const cases: [string, unknown, new (...args: never[]) => KubeApiError, boolean][] = [
    ['connection refused', refused, NetworkError, true],
    ['TLS failure is not retriable', tls, NetworkError, false],
    ['undici headers timeout', headersTimeout, TimeoutError, true],
    [
      'AbortSignal.timeout',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      TimeoutError,
      true,
    ],
    ['abort', new DOMException('This operation was aborted', 'AbortError'), NetworkError, true],
    ['programming error', new RangeError('boom'), UnexpectedKubeError, false],
    ['a string', 'weird', UnexpectedKubeError, false],
  ];
  it.each(cases)('%s', (_name, err, cls, retriable) => {
    const e = toKubeApiError(err);
    expect(e).toBeInstanceOf(cls);
    expect(e.status).toBe(0);
    expect(e.retriable).toBe(retriable);
    expect(e.cause).toBe(err);
  });

  it('names the socket error code', () => {
    expect(toKubeApiError(refused).message).toContain('connect ECONNREFUSED 127.0.0.1:6443 [ECONNREFUSED]');
    expect(toKubeApiError(tls).message).toContain('certificate-authority');
  });

  it('converts a real undici connection failure', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));
    const err = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(toKubeApiError(err)).toBeInstanceOf(NetworkError);
  });
});

describe('isNamespaceTerminating', () => {
  it('is a 403 whose cause is NamespaceTerminating (or whose message says so), nothing else', () => {
    const msg =
      'events "e1" is forbidden: unable to create new content in namespace ns because it is being terminated';
    const withCause = status(403, 'Forbidden', msg, {
      causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace' }],
    });
    expect(isNamespaceTerminating(kubeErrorFromResponse(403, withCause))).toBe(true);
    expect(isNamespaceTerminating(kubeErrorFromResponse(403, status(403, 'Forbidden', msg)))).toBe(true);
    expect(isNamespaceTerminating(kubeErrorFromResponse(403, status(403, 'Forbidden', 'RBAC: no')))).toBe(
      false,
    );
    expect(isNamespaceTerminating(kubeErrorFromResponse(404, status(404, 'NotFound', msg)))).toBe(false);
    expect(isNamespaceTerminating(new Error(msg))).toBe(false);
  });
});
