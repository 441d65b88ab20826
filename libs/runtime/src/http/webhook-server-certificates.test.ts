import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TlsConfigError } from '../errors.js';
import type { CertificateAuthority } from './certificates.js';
import { WebhookServer } from './webhook-server.js';
import { cloneSet, createRequest, review, send, serve, testTls } from './webhook-server-test-support.js';

let ca: CertificateAuthority;
let serving: { certPem: string; keyPem: string };

beforeAll(async () => {
  ({ ca, serving } = await testTls());
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
