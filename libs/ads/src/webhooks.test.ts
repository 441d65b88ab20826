// The DaemonSet admission handlers and their configurations, and the program's event mappings (nodes, orphans).
import type { AdmissionInput } from '@regatta/runtime';
import type { KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { daemonSetsForNodeChange, daemonSetsForOrphanChange, nodeChangeMatters } from './handlers.js';
import { daemonSetDefaulter, daemonSetValidator, daemonSetWebhookConfigurations } from './webhooks.js';
import { daemonSet, node } from './testing/world.js';

const input = (
  object: KubeObject,
  version = 'v1beta1',
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
): AdmissionInput<KubeObject> => ({
  operation,
  object,
  oldObject: operation === 'UPDATE' ? object : null,
  kind: { group: 'apps.kruise.io', version, kind: 'DaemonSet' },
  namespace: 'ns',
  name: 'ds',
  userInfo: { username: 'u' },
  dryRun: false,
  uid: '1',
});

describe('DaemonSet webhooks', () => {
  it('default as the request version says (v1alpha1 Surging → Standard with maxSurge 1)', () => {
    const ds = daemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging' } },
    });
    const out = daemonSetDefaulter()({
      ...input({ ...ds, apiVersion: 'apps.kruise.io/v1alpha1' }, 'v1alpha1'),
    }) as { spec: Record<string, unknown> };
    expect(out.spec['updateStrategy']).toMatchObject({
      rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 },
    });
  });

  it('refuse maxSurge with a non-zero maxUnavailable, naming the field', () => {
    const ds = daemonSet({
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 1 },
      },
    });
    const res = daemonSetValidator()(input(ds)) as {
      allowed: boolean;
      status?: { details?: { causes?: { field: string }[] } };
    };
    expect(res.allowed).toBe(false);
    expect(JSON.stringify(res)).toContain('maxSurge');
    expect(daemonSetValidator()(input(daemonSet()))).toEqual({ allowed: true });
  });

  it('configurations: both versions, scoped, failing closed', () => {
    const { mutating, validating } = daemonSetWebhookConfigurations('https://h:1', 'CA', {
      matchLabels: { t: 'a' },
    });
    for (const cfg of [mutating, validating]) {
      expect(cfg.metadata?.name).toBe('regatta-ads-a');
      const [hook] = cfg.webhooks as Record<string, unknown>[];
      expect(hook).toMatchObject({
        namespaceSelector: { matchLabels: { t: 'a' } },
        failurePolicy: 'Fail',
        rules: [
          { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['daemonsets'] },
        ],
      });
    }
  });
});

describe('event mappings', () => {
  const ds = daemonSet();
  const readers = { daemonsets: { list: () => [ds] } };
  it('a node change that can move daemon pods reconciles every DaemonSet; a heartbeat does not', () => {
    const n = node('a');
    const beat = { ...n, metadata: { ...n.metadata, resourceVersion: '9' } };
    expect(nodeChangeMatters({ type: 'update', object: beat, old: n })).toBe(false);
    const relabelled = { ...n, metadata: { ...n.metadata, labels: { x: 'y' } } };
    expect(daemonSetsForNodeChange({ type: 'update', object: relabelled, old: n }, readers)).toEqual([
      { namespace: 'ns', name: 'ds' },
    ]);
    const tainted = { ...n, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } };
    expect(nodeChangeMatters({ type: 'update', object: tainted, old: n })).toBe(true);
    const notReady = { ...n, status: { conditions: [{ type: 'Ready', status: 'False' }] } };
    expect(nodeChangeMatters({ type: 'update', object: notReady, old: n })).toBe(true);
    expect(nodeChangeMatters({ type: 'add', object: n })).toBe(true);
  });
  it('an orphan pod maps to the DaemonSets whose selector matches it', () => {
    const orphan = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns', labels: { app: 'ds' } },
    };
    expect(daemonSetsForOrphanChange({ type: 'add', object: orphan }, readers)).toEqual([
      { namespace: 'ns', name: 'ds' },
    ]);
    const other = { ...orphan, metadata: { ...orphan.metadata, labels: { app: 'x' } } };
    expect(daemonSetsForOrphanChange({ type: 'add', object: other }, readers)).toEqual([]);
  });
});
