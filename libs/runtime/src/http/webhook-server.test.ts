import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { createCertificateAuthority, type CertificateAuthority } from './certificates.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TlsConfigError } from '../errors.js';
import { AdmissionDeniedError, Mutation, invalid, type AdmissionInput } from './admission.js';
import type { JsonPatchOperation } from '@regatta/kube';
import { WebhookServer, type WebhookServerOptions } from './webhook-server.js';
import { Registry } from 'prom-client';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => Record<string, unknown>;
  /** The request went over a kept-alive connection opened before. */
  reusedSocket: boolean;
  certificate?: X509Certificate;
}

let ca: CertificateAuthority;
let serving: { certPem: string; keyPem: string };

beforeAll(async () => {
  ca = await createCertificateAuthority('webhook-test-ca');
  serving = await ca.issueServing(['localhost', '127.0.0.1']);
});

function send(
  port: number,
  opts: {
    path?: string;
    method?: string;
    body?: string | Buffer;
    contentType?: string;
    caPem?: string;
    /** A kept-alive agent (default: a new connection per request). */
    agent?: Agent;
  } = {},
): Promise<Reply> {
  const body = opts.body ?? '';
  const options: RequestOptions = {
    host: '127.0.0.1',
    port,
    path: opts.path ?? '/validate-cloneset',
    method: opts.method ?? 'POST',
    ca: opts.caPem ?? ca.certPem,
    agent: opts.agent ?? false,
    headers: {
      'content-type': opts.contentType ?? 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  };
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      const peer = (res.socket as TLSSocket).getPeerX509Certificate();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json: () => JSON.parse(text) as Record<string, unknown>,
          reusedSocket: req.reusedSocket,
          ...(peer && { certificate: peer }),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function review(request: Record<string, unknown>, top: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request, ...top });
}

interface CloneSet {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: { replicas?: number; updateStrategy?: { partition?: number; maxSurge?: string } };
}

const cloneSet: CloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, updateStrategy: { partition: 5 } },
};

function createRequest(object: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: 'req-1',
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
    resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'clonesets' },
    namespace: 'default',
    name: 'web',
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object,
    oldObject: null,
    dryRun: false,
    ...extra,
  };
}

async function serve(
  configure: (s: WebhookServer) => void,
  options: Partial<WebhookServerOptions> = {},
): Promise<{ server: WebhookServer; port: number; stop: () => Promise<void> }> {
  const server = new WebhookServer({ tls: serving, host: '127.0.0.1', port: 0, ...options });
  configure(server);
  const ac = new AbortController();
  const running = server.start(ac.signal);
  const { port } = await server.listening();
  return {
    server,
    port,
    stop: async () => {
      ac.abort();
      await running;
    },
  };
}

function validateCloneSet({ object }: AdmissionInput<CloneSet>) {
  const partition = object?.spec.updateStrategy?.partition ?? 0;
  const replicas = object?.spec.replicas ?? 1;
  if (partition > replicas) {
    return invalid({ group: 'apps.kruise.io', kind: 'CloneSet', name: object?.metadata.name ?? '' }, [
      {
        field: 'spec.updateStrategy.partition',
        message: `Invalid value: ${partition}: must not be greater than replicas`,
        reason: 'FieldValueInvalid',
      },
    ]);
  }
  return { allowed: true as const, warnings: ['partition is close to replicas'] };
}

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

describe('WebhookServer: mutation', () => {
  it('answers with a base64 JSON Patch that turns the object into the handler result', async () => {
    const h = await serve((s) => {
      s.mutate<CloneSet>('/mutate-cloneset', ({ object }) => {
        if (!object) return undefined;
        object.metadata.labels = { ...object.metadata.labels, 'apps.kruise.io/defaulted': 'true' };
        object.spec.updateStrategy = { ...object.spec.updateStrategy, maxSurge: '0' };
        delete object.spec.replicas;
        return object;
      });
      s.mutate('/mutate-noop', ({ object }) => object);
      s.mutate('/mutate-nothing', () => undefined);
    });
    try {
      const reply = await send(h.port, { path: '/mutate-cloneset', body: review(createRequest(cloneSet)) });
      const response = reply.json()['response'] as Record<string, unknown>;
      expect(response).toMatchObject({ uid: 'req-1', allowed: true, patchType: 'JSONPatch' });
      const ops = JSON.parse(
        Buffer.from(response['patch'] as string, 'base64').toString(),
      ) as JsonPatchOperation[];
      expect(ops).toEqual([
        { op: 'add', path: '/metadata/labels', value: { 'apps.kruise.io/defaulted': 'true' } },
        { op: 'remove', path: '/spec/replicas' },
        { op: 'add', path: '/spec/updateStrategy/maxSurge', value: '0' },
      ]);
      for (const path of ['/mutate-noop', '/mutate-nothing']) {
        const same = await send(h.port, { path, body: review(createRequest(cloneSet)) });
        expect(same.json()['response']).toEqual({ uid: 'req-1', allowed: true });
      }
    } finally {
      await h.stop();
    }
  });

  it('answers a mutation of many list elements with one replace of the list', async () => {
    interface Many {
      spec: { containers: { name: string; imagePullPolicy?: string }[] };
    }
    const many = { spec: { containers: Array.from({ length: 1524 }, (_, i) => ({ name: `c${i}` })) } };
    const h = await serve((s) => {
      s.mutate<Many>('/mutate-many', ({ object }) => {
        if (!object) return undefined;
        for (const c of object.spec.containers) c.imagePullPolicy = 'IfNotPresent';
        return object;
      });
    });
    try {
      const reply = await send(h.port, { path: '/mutate-many', body: review(createRequest(many)) });
      const response = reply.json()['response'] as Record<string, unknown>;
      const ops = JSON.parse(
        Buffer.from(response['patch'] as string, 'base64').toString(),
      ) as JsonPatchOperation[];
      expect(ops.map((o) => [o.op, o.path])).toEqual([['replace', '/spec/containers']]);
    } finally {
      await h.stop();
    }
  });

  it('sends the warnings of a Mutation, with or without a patch', async () => {
    const h = await serve((s) => {
      s.mutate<CloneSet>('/mutate-warn', ({ object }) => {
        if (!object) return undefined;
        object.metadata.labels = { moved: 'true' };
        return new Mutation(object, ['spec.volumeTemplates is not an OpenKruise field; use spec.volumes']);
      });
      s.mutate('/mutate-warn-only', () => new Mutation(undefined, ['just a warning']));
    });
    try {
      const patched = (
        await send(h.port, { path: '/mutate-warn', body: review(createRequest(cloneSet)) })
      ).json();
      expect(patched['response']).toMatchObject({
        allowed: true,
        patchType: 'JSONPatch',
        warnings: ['spec.volumeTemplates is not an OpenKruise field; use spec.volumes'],
      });
      const only = (
        await send(h.port, { path: '/mutate-warn-only', body: review(createRequest(cloneSet)) })
      ).json();
      expect(only['response']).toEqual({ uid: 'req-1', allowed: true, warnings: ['just a warning'] });
    } finally {
      await h.stop();
    }
  });

  it('denies with 504 when a handler overruns the request timeout', async () => {
    const h = await serve(
      (s) =>
        s.mutate('/mutate-slow', () => new Promise((resolve) => setTimeout(() => resolve(undefined), 2000))),
      { requestTimeoutMs: 50 },
    );
    try {
      const reply = await send(h.port, { path: '/mutate-slow', body: review(createRequest(cloneSet)) });
      expect(reply.json()['response']).toMatchObject({
        allowed: false,
        status: { code: 504, reason: 'Timeout' },
      });
    } finally {
      await h.stop();
    }
  });

  it('refuses bad routes', () => {
    const s = new WebhookServer({ tls: serving });
    s.validate('/a', () => ({ allowed: true }));
    expect(() => s.validate('/a', () => ({ allowed: true }))).toThrow(/already registered/);
    expect(() => s.mutate('b', () => undefined)).toThrow(/must start with/);
  });
});

describe('WebhookServer: metrics', () => {
  it('counts one TLS connection for requests on a kept-alive one, one per request without, times each request and counts it by HTTP code and by admission answer', async () => {
    const registry = new Registry();
    const h = await serve((s) => s.validate<CloneSet>('/validate-cloneset', validateCloneSet), { registry });
    const value = async (name: string, labels: Record<string, string> = {}) =>
      (await registry.getSingleMetric(name)?.get())?.values.find((v) =>
        Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x),
      )?.value ?? 0;
    const agent = new Agent({ keepAlive: true, ca: ca.certPem, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) await send(h.port, { body: review(createRequest(cloneSet)), agent });
      expect(await value('regatta_webhook_tls_connections_total')).toBe(1);
      for (let i = 0; i < 2; i++) await send(h.port, { body: review(createRequest(cloneSet)) });
      await send(h.port, { path: '/nowhere?x=1', body: review(createRequest(cloneSet)) });
      expect(await value('regatta_webhook_tls_connections_total')).toBe(4);
      const count = (webhook: string) =>
        value('controller_runtime_webhook_latency_seconds', { webhook, le: '+Inf' });
      expect(await count('/validate-cloneset')).toBe(5);
      expect(await count('unknown')).toBe(1);

      // the fixture's partition 5 is above its 3 replicas: denied
      const fine = { ...cloneSet, spec: { replicas: 3, updateStrategy: { partition: 1 } } };
      await send(h.port, { body: review(createRequest(fine)) });
      const webhook = '/validate-cloneset';
      expect(await value('controller_runtime_webhook_requests_total', { webhook, code: '200' })).toBe(6);
      expect(await value('controller_runtime_webhook_requests_total', { webhook: 'unknown', code: '404' })).toBe(1);
      expect(await value('controller_runtime_webhook_requests_in_flight', { webhook })).toBe(0);
      const admissions = (code: string) =>
        value('regatta_webhook_admissions_total', { webhook, kind: 'CloneSet', operation: 'CREATE', code });
      expect(await admissions('422')).toBe(5);
      expect(await admissions('200')).toBe(1);
    } finally {
      agent.destroy();
      await h.stop();
    }
  });
});

describe('WebhookServer: certificates from files', () => {
  it('fails to start with TlsConfigError when the files are missing or do not match', async () => {
    const missing = new WebhookServer({
      tls: { certFile: '/nonexistent/tls.crt', keyFile: '/nonexistent/tls.key' },
      port: 0,
    });
    await expect(missing.start(new AbortController().signal)).rejects.toThrow(TlsConfigError);
    const other = await ca.issueServing(['localhost']);
    const mismatched = new WebhookServer({
      tls: { certPem: serving.certPem, keyPem: other.keyPem },
      port: 0,
    });
    await expect(mismatched.start(new AbortController().signal)).rejects.toMatchObject({
      code: 'REGATTA_TLS_CONFIG',
    });
  });

  it('picks up a rotated certificate for new connections', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-webhook-'));
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    await writeFile(certFile, serving.certPem);
    await writeFile(keyFile, serving.keyPem);
    const h = await serve((s) => s.validate('/validate-cloneset', () => ({ allowed: true })), {
      tls: { certFile, keyFile, reloadIntervalMs: 20 },
    });
    try {
      const before = await send(h.port, { body: review(createRequest(cloneSet)) });
      expect(before.certificate?.fingerprint256).toBe(new X509Certificate(serving.certPem).fingerprint256);
      const rotated = await ca.issueServing(['127.0.0.1']);
      await writeFile(keyFile, rotated.keyPem);
      await writeFile(certFile, rotated.certPem);
      const want = new X509Certificate(rotated.certPem).fingerprint256;
      const until = Date.now() + 3000;
      let got: string | undefined;
      while (got !== want && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
        got = (await send(h.port, { body: review(createRequest(cloneSet)) })).certificate?.fingerprint256;
      }
      expect(got).toBe(want);
    } finally {
      await h.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
