import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import type { AdmissionInput } from '@regatta/runtime';
import {
  deletionProtectionValidator,
  deletionProtectionWebhookConfigurations,
  type DeletionLookups,
} from './webhooks.js';

const KEY = 'policy.kruise.io/delete-protection';
const running = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  status: { phase: 'Running' },
} as KubeObject;

function lookups(
  o: Partial<Record<keyof DeletionLookups, unknown>> = {},
): DeletionLookups & { crdLists: number } {
  const l = {
    crdLists: 0,
    podsInNamespace: () => (o.podsInNamespace as KubeObject[]) ?? [],
    claimsInNamespace: () => [],
    podsControlledBy: () => (o.podsControlledBy as KubeObject[]) ?? [],
    crdObjects: async () => {
      l.crdLists++;
      return (o.crdObjects as KubeObject[]) ?? [];
    },
  };
  return l;
}

const del = (
  kind: string,
  old: KubeObject,
  operation: 'DELETE' | 'UPDATE' = 'DELETE',
): AdmissionInput<KubeObject> => ({
  operation,
  object: null,
  oldObject: old,
  kind: { group: '', version: 'v1', kind },
  name: old.metadata?.name,
  userInfo: { username: 'alice' },
  dryRun: false,
  uid: 'u',
});
const labelled = (value: string | undefined, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'X',
    metadata: { name: 'x', uid: 'uid-1', ...(value ? { labels: { [KEY]: value } } : {}) },
    ...extra,
  }) as KubeObject;

describe('deletionProtectionValidator', () => {
  it('a Cascading Namespace with a running pod: 403 naming Regatta, upstream reason first', async () => {
    const r = await deletionProtectionValidator({
      lookups: lookups({ podsInNamespace: [running] }),
      crdCascading: true,
    })(del('Namespace', labelled('Cascading')));
    expect(r.allowed).toBe(false);
    if (r.allowed) return;
    expect(r.status.code).toBe(403);
    expect(r.status.message).toMatch(
      new RegExp(
        `^forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and active pods 1>0 \\(refused by Regatta`,
      ),
    );
  });

  it('the same Namespace empty, and an unlabelled one full: admitted', async () => {
    const v = (pods: KubeObject[]) =>
      deletionProtectionValidator({ lookups: lookups({ podsInNamespace: pods }), crdCascading: true });
    expect((await v([])(del('Namespace', labelled('Cascading')))).allowed).toBe(true);
    expect((await v([running])(del('Namespace', labelled(undefined)))).allowed).toBe(true);
  });

  it('a Cascading CRD lists its objects only with the CRD gate on', async () => {
    const crd = labelled('Cascading', {
      spec: {
        group: 'e2e.io',
        names: { plural: 'tests', kind: 'Test' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    });
    const on = lookups({ crdObjects: [labelled(undefined)] });
    const r = await deletionProtectionValidator({ lookups: on, crdCascading: true })(
      del('CustomResourceDefinition', crd),
    );
    expect(r.allowed).toBe(false);
    expect(on.crdLists).toBe(1);
    const off = lookups();
    const r2 = await deletionProtectionValidator({ lookups: off, crdCascading: false })(
      del('CustomResourceDefinition', crd),
    );
    expect(r2.allowed).toBe(false);
    expect(off.crdLists).toBe(0);
    const always = lookups();
    await deletionProtectionValidator({ lookups: always, crdCascading: true })(
      del('CustomResourceDefinition', labelled('Always')),
    );
    expect(always.crdLists).toBe(0);
  });

  it('an Advanced DaemonSet or BroadcastJob counts the active pods it controls', async () => {
    for (const kind of ['DaemonSet', 'BroadcastJob']) {
      const v = (pods: KubeObject[]) =>
        deletionProtectionValidator({ lookups: lookups({ podsControlledBy: pods }), crdCascading: false });
      expect((await v([running])(del(kind, labelled('Cascading')))).allowed).toBe(false);
      expect((await v([])(del(kind, labelled('Cascading')))).allowed).toBe(true);
    }
  });

  it('with gate ResourcesDeletionProtection off, everything is admitted', async () => {
    const r = await deletionProtectionValidator({ lookups: lookups(), crdCascading: true, enabled: false })(
      del('Namespace', labelled('Always')),
    );
    expect(r.allowed).toBe(true);
  });

  it('anything but a DELETE is admitted', async () => {
    const r = await deletionProtectionValidator({ lookups: lookups(), crdCascading: true })(
      del('Namespace', labelled('Always'), 'UPDATE'),
    );
    expect(r.allowed).toBe(true);
  });
});

describe('deletionProtectionWebhookConfigurations', () => {
  const [vwc] = deletionProtectionWebhookConfigurations('https://h:1', 'CA') as [
    { webhooks: Record<string, unknown>[] },
  ];
  it('only DELETEs of objects labelled Cascading reach the webhook, and those fail closed', () => {
    for (const w of vwc.webhooks) {
      expect((w['objectSelector'] as { matchLabels: Record<string, string> }).matchLabels[KEY]).toBe(
        'Cascading',
      );
      expect((w['rules'] as { operations: string[] }[]).every((r) => r.operations.join() === 'DELETE')).toBe(
        true,
      );
      expect(w['failurePolicy']).toBe('Fail');
      expect(w['matchConditions']).toEqual([
        { name: 'not-being-deleted', expression: '!has(oldObject.metadata.deletionTimestamp)' },
      ]);
    }
  });
  it('with a namespace scope: namespaced kinds by namespace, CRDs by the scope labels on them', () => {
    const [scoped] = deletionProtectionWebhookConfigurations('https://h:1', 'CA', {
      matchLabels: { t: 'a' },
    }) as [{ metadata: { name: string }; webhooks: Record<string, unknown>[] }];
    expect(scoped.metadata.name).toBe('regatta-deletionprotection-a');
    const [ns, crd, workloads] = scoped.webhooks;
    expect(ns!['namespaceSelector']).toEqual({ matchLabels: { t: 'a' } });
    expect(crd!['objectSelector']).toEqual({ matchLabels: { [KEY]: 'Cascading', t: 'a' } });
    expect(workloads!['namespaceSelector']).toEqual({ matchLabels: { t: 'a' } });
  });
});
