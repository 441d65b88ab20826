import { Agent } from 'node:https';
import { Registry } from 'prom-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CertificateAuthority } from './certificates.js';
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

let ca: CertificateAuthority;

beforeAll(async () => {
  ({ ca } = await testTls());
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
      expect(
        await value('controller_runtime_webhook_requests_total', { webhook: 'unknown', code: '404' }),
      ).toBe(1);
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
