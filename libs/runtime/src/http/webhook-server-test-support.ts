// What the webhook server's test files share (used by webhook-server*.test.ts only; not in the lib's build): a
// test CA and serving certificate, an HTTPS client, AdmissionReview bodies of a CloneSet, and a server started on
// a free port.
import type { X509Certificate } from 'node:crypto';
import { Agent, request, type RequestOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { invalid, type AdmissionInput } from './admission.js';
import { createCertificateAuthority, type CertificateAuthority } from './certificates.js';
import { WebhookServer, type WebhookServerOptions } from './webhook-server.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => Record<string, unknown>;
  /** The request went over a kept-alive connection opened before. */
  reusedSocket: boolean;
  certificate?: X509Certificate;
}

export interface TestTls {
  ca: CertificateAuthority;
  /** Serving certificate for localhost and 127.0.0.1, issued by `ca`. */
  serving: { certPem: string; keyPem: string };
}

let tls: Promise<TestTls> | undefined;

/** The test file's CA and serving certificate (made once per file). */
export function testTls(): Promise<TestTls> {
  tls ??= (async () => {
    const ca = await createCertificateAuthority('webhook-test-ca');
    return { ca, serving: await ca.issueServing(['localhost', '127.0.0.1']) };
  })();
  return tls;
}

export async function send(
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
  const { ca } = await testTls();
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

export function review(request: Record<string, unknown>, top: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request, ...top });
}

export interface CloneSet {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: { replicas?: number; updateStrategy?: { partition?: number; maxSurge?: string } };
}

export const cloneSet: CloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, updateStrategy: { partition: 5 } },
};

export function createRequest(object: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
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

export async function serve(
  configure: (s: WebhookServer) => void,
  options: Partial<WebhookServerOptions> = {},
): Promise<{ server: WebhookServer; port: number; stop: () => Promise<void> }> {
  const { serving } = await testTls();
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

export function validateCloneSet({ object }: AdmissionInput<CloneSet>) {
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
