import { describe, expect, it } from 'vitest';
import {
  MUTATE_STATEFULSET_PATH,
  VALIDATE_STATEFULSET_PATH,
  statefulSetDefaulter,
  statefulSetValidator,
  statefulSetWebhookConfigurations,
  storageClassLookup,
} from './webhooks.js';

const sts = (rollingUpdate: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate },
  },
});

describe('StatefulSet webhooks', () => {
  it('configurations: both versions, CREATE/UPDATE, scoped and named after the scope', () => {
    const { mutating, validating } = statefulSetWebhookConfigurations('https://127.0.0.1:9443', 'PEM', {
      matchLabels: { t: 'abc' },
    });
    expect(mutating.metadata?.name).toBe('regatta-asts-abc');
    const w = validating.webhooks[0] as Record<string, unknown> & {
      clientConfig: { url: string; caBundle: string };
    };
    expect(w.clientConfig.url).toBe(`https://127.0.0.1:9443${VALIDATE_STATEFULSET_PATH}`);
    expect(Buffer.from(w.clientConfig.caBundle, 'base64').toString()).toBe('PEM');
    expect(w['rules']).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: ['v1alpha1', 'v1beta1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['statefulsets'],
        scope: 'Namespaced',
      },
    ]);
    expect(w['namespaceSelector']).toEqual({ matchLabels: { t: 'abc' } });
    expect((mutating.webhooks[0] as { clientConfig: { url: string } }).clientConfig.url).toContain(
      MUTATE_STATEFULSET_PATH,
    );
    expect(statefulSetWebhookConfigurations('u', 'c').mutating.metadata?.name).toBe('regatta-asts');
  });

  it('validator: podUpdatePolicy Parallel → 422 naming the field', async () => {
    const res = await statefulSetValidator()({
      operation: 'CREATE',
      object: sts({ podUpdatePolicy: 'Parallel' }),
    } as never);
    expect(res.allowed).toBe(false);
    expect(JSON.stringify(res)).toContain('spec.updateStrategy.rollingUpdate.podUpdatePolicy');
  });

  it('defaulter: podManagementPolicy, maxUnavailable, podUpdatePolicy filled', () => {
    const out = statefulSetDefaulter()({ operation: 'CREATE', object: sts({}) } as never) as {
      spec: Record<string, unknown>;
    };
    expect(out.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' } },
    });
  });

  describe('claim templates with StatefulSetAutoResizePVCGate', () => {
    const classes = [
      { metadata: { name: 'allow', creationTimestamp: '2026-01-01T00:00:00Z' }, allowVolumeExpansion: true },
      { metadata: { name: 'deny' }, allowVolumeExpansion: false },
      {
        metadata: {
          name: 'std',
          creationTimestamp: '2026-01-02T00:00:00Z',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
      },
    ];
    const withClaims = (sc: string, storage: string) => {
      const o = sts({ podUpdatePolicy: 'ReCreate' }) as ReturnType<typeof sts> & {
        spec: Record<string, unknown>;
      };
      o.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' };
      o.spec['volumeClaimTemplates'] = [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: sc,
            resources: { requests: { storage } },
          },
        },
      ];
      return o;
    };
    const update = (sc: string, gate: boolean) =>
      statefulSetValidator({ StatefulSetAutoResizePVCGate: gate }, () => Promise.resolve(classes))({
        operation: 'UPDATE',
        object: withClaims(sc, '2Gi'),
        oldObject: withClaims(sc, '1Gi'),
      } as never);

    it('lookup: by name, or the default class for none', () => {
      const get = storageClassLookup(classes);
      expect(get('allow')).toEqual({ name: 'allow', allowVolumeExpansion: true });
      expect(get('nope')).toBeNull();
      expect(get(undefined)).toEqual({ name: 'std' });
      expect(storageClassLookup([])(undefined)).toBeNull();
    });

    it('an expansion on a class that allows it passes; on one that does not, 422 naming the storage', async () => {
      expect((await update('allow', true)).allowed).toBe(true);
      const denied = await update('deny', true);
      expect(denied.allowed).toBe(false);
      expect(JSON.stringify(denied)).toContain('storage class deny does not support volume expansion');
      expect(JSON.stringify(denied)).toContain(
        'spec.volumeClaimTemplates[0].spec.resources.requests.storage',
      );
    });

    it('with the gate off, claim templates are not checked', async () => {
      expect((await update('deny', false)).allowed).toBe(true);
    });

    it('defaulter: volumeClaimUpdateStrategy OnDelete with the gate on', () => {
      const out = statefulSetDefaulter({ StatefulSetAutoResizePVCGate: true })({
        operation: 'CREATE',
        object: sts({}),
      } as never) as { spec: Record<string, unknown> };
      expect(out.spec['volumeClaimUpdateStrategy']).toEqual({ type: 'OnDelete' });
    });
  });
});
