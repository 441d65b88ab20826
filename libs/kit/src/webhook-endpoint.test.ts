import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { inStep } from './webhook-configurations.js';
import { ownedBy, parseWebhookService, pointAtService, serviceHosts } from './webhook-endpoint.js';

const built = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'regatta-cloneset' },
  webhooks: [
    { name: 'm.cloneset', clientConfig: { url: 'https://127.0.0.1:9443/mutate-cloneset', caBundle: 'CA' } },
    { name: 'v.cloneset', clientConfig: { url: 'https://127.0.0.1:9443/validate-cloneset', caBundle: 'CA' } },
  ],
} as KubeObject;

describe('REGATTA_WEBHOOK_SERVICE', () => {
  it.each([
    ['regatta-system/regatta-cloneset', { namespace: 'regatta-system', name: 'regatta-cloneset', port: 443 }],
    ['ns/svc:8443', { namespace: 'ns', name: 'svc', port: 8443 }],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, want) => {
    expect(parseWebhookService(value)).toEqual(want);
  });

  it.each(['svc', 'ns/svc:0', 'ns/svc:70000', 'NS/svc', 'ns/svc/extra', 'ns/:443'])(
    'refuses %j, saying the expected form',
    (value) => {
      expect(() => parseWebhookService(value)).toThrow(/<namespace>\/<service>\[:<port>\]/);
    },
  );

  it('the serving certificate names the Service as the API server dials it', () => {
    expect(serviceHosts({ namespace: 'ns', name: 'svc', port: 443 })).toEqual([
      'svc.ns.svc',
      'svc.ns.svc.cluster.local',
    ]);
  });

  it('every webhook names the Service with its own path and keeps its caBundle', () => {
    const placed = pointAtService(built, 'https://127.0.0.1:9443', {
      namespace: 'ns',
      name: 'svc',
      port: 443,
    });
    expect((placed as unknown as typeof built & { webhooks: unknown[] }).webhooks).toEqual([
      {
        name: 'm.cloneset',
        clientConfig: {
          caBundle: 'CA',
          service: { namespace: 'ns', name: 'svc', port: 443, path: '/mutate-cloneset' },
        },
      },
      {
        name: 'v.cloneset',
        clientConfig: {
          caBundle: 'CA',
          service: { namespace: 'ns', name: 'svc', port: 443, path: '/validate-cloneset' },
        },
      },
    ]);
  });
});

describe('REGATTA_WEBHOOK_OWNER', () => {
  const owner = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    name: 'regatta-cloneset',
    uid: 'u1',
  };
  const want = ownedBy(built, owner);

  it('the configuration is owned by the ClusterRole, without blocking its deletion', () => {
    expect(want.metadata?.ownerReferences).toEqual([owner]);
    expect(want.metadata?.name).toBe('regatta-cloneset');
  });

  it.each([
    ['owned as desired', [owner], true],
    ['not owned (written by an older version)', undefined, false],
    ['owned by an earlier ClusterRole', [{ ...owner, uid: 'u0' }], false],
  ])('%s → in step: %s', (_what, ownerReferences, expected) => {
    const observed = { ...built, metadata: { ...built.metadata, ownerReferences } } as KubeObject;
    expect(inStep(observed, want, { leader: true })).toBe(expected);
  });
});
