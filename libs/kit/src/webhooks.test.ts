import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, certificateAuthorityFromPem } from '@regatta/runtime';
import { certificateCovers } from './webhook-certificates.js';
import { WebhookConfigurationKeeper, holds, inStep } from './webhook-configurations.js';
import { dialHost, webhookUrl } from './webhooks.js';

const config = (url: string, caBundle: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'c' },
  webhooks: [
    { name: 'v.kb.io', clientConfig: { url, caBundle }, rules: [{ operations: ['CREATE'] }], ...extra },
  ],
});

describe('webhook configurations in step', () => {
  const want = config('https://a:1/v', 'CA');
  // the API server adds defaults the declaration leaves out
  const stored = config('https://a:1/v', 'CA', { matchPolicy: 'Equivalent', namespaceSelector: {} });

  it.each([
    ['as applied, with server defaults', stored, true, true],
    ['deleted', undefined, false, false],
    ['another caBundle', config('https://a:1/v', 'OTHER'), false, false],
    [
      'another URL (the leader corrects it; a follower accepts the leader’s)',
      config('https://b:2/v', 'CA'),
      false,
      true,
    ],
    ['a rule changed', config('https://a:1/v', 'CA', { rules: [{ operations: ['UPDATE'] }] }), false, false],
  ])('%s', (_what, observed, leader, follower) => {
    expect(inStep(observed, want, { leader: true })).toBe(leader);
    expect(inStep(observed, want, { leader: false })).toBe(follower);
  });

  it('a follower change wakes the keeper only when the desired configurations changed', async () => {
    let desired: ReturnType<typeof config>[] = [];
    let wakes = 0;
    const keeper = new (class extends WebhookConfigurationKeeper {
      override wake(): void {
        wakes++;
      }
    })({
      // no configuration desired yet: the first pass reads nothing
      client: {
        getOrUndefined: () => Promise.reject(new Error('not read')),
        patch: () => Promise.reject(new Error('not written')),
        request: () => Promise.reject(new Error('not deleted')),
      },
      fieldManager: 'test',
      desired: () => desired,
      isLeader: () => true,
      log: { info: () => undefined, warn: () => undefined } as never,
    });
    keeper.wakeIfChanged(); // no pass yet
    expect(wakes).toBe(1);
    await keeper.syncOnce();
    keeper.wakeIfChanged();
    expect(wakes).toBe(1);
    desired = [want];
    keeper.wakeIfChanged();
    expect(wakes).toBe(2);
  });

  it('passes never overlap: one asked for during another computes its configurations after it', async () => {
    let desired = [want];
    const applied: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let reading: () => void = () => undefined;
    const firstRead = new Promise<void>((r) => (reading = r));
    const keeper = new WebhookConfigurationKeeper({
      client: {
        getOrUndefined: async () => {
          reading();
          await gate;
          return undefined;
        },
        patch: async (_ref: unknown, body: unknown) => {
          applied.push(JSON.stringify(body));
          return body as never;
        },
      } as never,
      fieldManager: 'test',
      desired: () => desired,
      isLeader: () => true,
      log: { info: () => undefined, warn: () => undefined } as never,
    });
    const first = keeper.syncOnce();
    await firstRead; // the first pass computed `want` and waits on its read
    const later = config('https://a:1/v', 'LATER');
    desired = [later];
    const second = keeper.syncOnce();
    release();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(applied).toEqual([JSON.stringify(want), JSON.stringify(later)]);
  });

  it('holds compares arrays by length and element', () => {
    expect(holds([1, 2], [1])).toBe(false);
    expect(holds({ a: [{ b: 1, c: 2 }] }, { a: [{ b: 1 }] })).toBe(true);
  });
});

describe('webhook certificates', () => {
  it('a CA read back from PEM issues certificates covering the asked hosts', async () => {
    const ca = await createCertificateAuthority('test-ca');
    const again = await certificateAuthorityFromPem(ca.certPem, ca.keyPem);
    const serving = await again.issueServing(['127.0.0.1', 'localhost', 'hooks.example.svc']);
    expect(certificateCovers(serving.certPem, ['127.0.0.1', 'hooks.example.svc'])).toBe(true);
    expect(certificateCovers(serving.certPem, ['10.0.0.1'])).toBe(false);
    expect(certificateCovers('not a certificate', ['localhost'])).toBe(false);
  });

  it('derives the URL the API server dials from the bound address', () => {
    expect(webhookUrl(dialHost('0.0.0.0'), 9443)).toBe('https://127.0.0.1:9443');
    expect(webhookUrl(dialHost('::1'), 9443)).toBe('https://[::1]:9443');
  });
});
