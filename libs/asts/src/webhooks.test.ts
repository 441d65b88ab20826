import { describe, expect, it } from 'vitest';
import {
  MUTATE_STATEFULSET_PATH,
  VALIDATE_STATEFULSET_PATH,
  statefulSetDefaulter,
  statefulSetValidator,
  statefulSetWebhookConfigurations,
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
});
