import { Agent } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionDeniedError, type AdmissionInput } from './admission.js';
import type { CertificateAuthority } from './certificates.js';
import { WebhookServer } from './webhook-server.js';
import {
  cloneSet,
  createRequest,
  review,
  send,
  serve,
  testTls,
  validateCloneSet,
  type CloneSet,
} from './webhook-server-test-support.js';

// mutation: webhook-server-mutation.test.ts; metrics: webhook-server-metrics.test.ts; certificates from files:
// webhook-server-certificates.test.ts

let ca: CertificateAuthority;
let serving: { certPem: string; keyPem: string };

beforeAll(async () => {
  ({ ca, serving } = await testTls());
});

describe('WebhookServer: validation', () => {
  let h: Awaited<ReturnType<typeof serve>>;
  let seen: AdmissionInput<CloneSet> | undefined;
  beforeAll(async () => {
    h = await serve((s) => {
      s.validate<CloneSet>('/validate-cloneset', (input) => {
        seen = input;
        return validateCloneSet(input);
      });
      s.validate('/validate-throws', () => {
        throw new Error('lookup failed: boom');
      });
      s.validate('/validate-denies', () => {
        throw new AdmissionDeniedError({ code: 403, reason: 'Forbidden', message: 'not in this namespace' });
      });
    });
  });
  afterAll(() => h.stop());

  it('denies an invalid object with a 422 status carrying the field cause', async () => {
    const reply = await send(h.port, { body: review(createRequest(cloneSet)) });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'req-1',
        allowed: false,
        status: {
          code: 422,
          reason: 'Invalid',
          message:
            'CloneSet.apps.kruise.io "web" is invalid: spec.updateStrategy.partition: Invalid value: 5: must not be greater than replicas',
          details: {
            name: 'web',
            group: 'apps.kruise.io',
            kind: 'CloneSet',
            causes: [
              {
                field: 'spec.updateStrategy.partition',
                message: 'Invalid value: 5: must not be greater than replicas',
                reason: 'FieldValueInvalid',
              },
            ],
          },
        },
      },
    });
  });

  it('allows a valid object, with warnings, and hands the handler the request fields', async () => {
    const ok = { ...cloneSet, spec: { replicas: 5, updateStrategy: { partition: 4 } } };
    const old = { ...cloneSet, spec: { replicas: 5 } };
    const reply = await send(h.port, {
      path: '/validate-cloneset?timeout=10s',
      body: review(createRequest(ok, { operation: 'UPDATE', oldObject: old, dryRun: true })),
    });
    expect(reply.json()['response']).toEqual({
      uid: 'req-1',
      allowed: true,
      warnings: ['partition is close to replicas'],
    });
    expect(seen).toEqual({
      uid: 'req-1',
      operation: 'UPDATE',
      object: ok,
      oldObject: old,
      kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
      namespace: 'default',
      name: 'web',
      userInfo: { username: 'alice', groups: ['system:authenticated'] },
      dryRun: true,
    });
  });

  it('turns a handler exception into allowed:false with code 500 and the message', async () => {
    const reply = await send(h.port, { path: '/validate-throws', body: review(createRequest(cloneSet)) });
    expect(reply.json()['response']).toEqual({
      uid: 'req-1',
      allowed: false,
      status: { code: 500, reason: 'InternalError', message: 'lookup failed: boom' },
    });
  });

  it('denies with the status of an AdmissionDeniedError', async () => {
    const reply = await send(h.port, { path: '/validate-denies', body: review(createRequest(cloneSet)) });
    expect(reply.json()['response']).toMatchObject({
      allowed: false,
      status: { code: 403, reason: 'Forbidden' },
    });
  });

  it.each([
    [
      'unknown path',
      { path: '/nope', body: review(createRequest(cloneSet)) },
      404,
      /no webhook is served on \/nope/,
    ],
    ['GET', { method: 'GET' }, 405, /GET is not allowed; use POST/],
    ['non-JSON content type', { body: 'x', contentType: 'text/plain' }, 415, /expected application\/json/],
    ['non-JSON body', { body: '{"apiVersion": ' }, 400, /not valid JSON/],
    ['a JSON array', { body: '[]' }, 400, /not a JSON object/],
    [
      'wrong apiVersion',
      { body: review(createRequest(cloneSet), { apiVersion: 'admission.k8s.io/v1beta1' }) },
      400,
      /only admission.k8s.io\/v1/,
    ],
    [
      'wrong kind',
      { body: review(createRequest(cloneSet), { kind: 'TokenReview' }) },
      400,
      /expected AdmissionReview/,
    ],
    [
      'no request',
      { body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) },
      400,
      /request is missing/,
    ],
    [
      'missing request.uid',
      { body: review(createRequest(cloneSet, { uid: undefined })) },
      400,
      /request.uid is missing/,
    ],
    [
      'bad operation',
      { body: review(createRequest(cloneSet, { operation: 'PATCH' })) },
      400,
      /request.operation/,
    ],
  ] as const)('rejects %s with a 4xx Status JSON', async (_name, opts, code, message) => {
    const reply = await send(h.port, opts);
    expect(reply.status).toBe(code);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
    expect(reply.json()['message']).toMatch(message);
  });

  it('rejects a body over 3 MiB with 413 and keeps serving', async () => {
    const big = review(createRequest({ ...cloneSet, data: 'x'.repeat(3 * 1024 * 1024) }));
    const reply = await send(h.port, { body: big });
    expect(reply.status).toBe(413);
    expect(reply.json()).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
    expect((await send(h.port, { body: review(createRequest(cloneSet)) })).status).toBe(200);
  });

  it('keeps an idle connection open past 5 s (the Node default), so the API server is the one to close it', async () => {
    const agent = new Agent({ keepAlive: true, ca: ca.certPem, maxSockets: 1 });
    try {
      expect((await send(h.port, { body: review(createRequest(cloneSet)), agent })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 6_000));
      const again = await send(h.port, { body: review(createRequest(cloneSet)), agent });
      expect(again.status).toBe(200);
      expect(again.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('presents a certificate the CA verifies, and is ready only while serving', async () => {
    const reply = await send(h.port, { body: review(createRequest(cloneSet)) });
    expect(reply.certificate?.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(() => h.server.startedCheck()()).not.toThrow();
    const fresh = new WebhookServer({ tls: serving, port: 0 });
    expect(() => fresh.startedCheck()()).toThrow(/not serving/);
  });
});
