import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KubeClient } from './client.js';
import { ListWatcher } from './list-watch.js';
import type { KubeObject } from './meta.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
let lw: ListWatcher | undefined;
afterAll(() => lw?.stop());

describe('ListWatcher', () => {
  it(
    "a handler's failure for one object is reported with it; the watch goes on without a relist (issue 8)",
    { timeout: 150_000 },
    async () => {
      const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
      const ns = `lw-${randomBytes(3).toString('hex')}`;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      let lists = 0;
      const seen: string[] = [];
      const failed: string[] = [];
      // kube-controller-manager publishes `kube-root-ca.crt` into every new namespace, under load after the watch began
      const mine = (o: KubeObject) => o.metadata?.namespace === ns && o.metadata.name !== 'kube-root-ca.crt';
      lw = new ListWatcher(
        client,
        { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps' },
        {
          onList: async () => {
            lists++;
          },
          onUpsert: async (o) => {
            if (!mine(o)) return;
            if (o.metadata?.name?.startsWith('poison')) throw new Error('cannot handle this one');
            seen.push(o.metadata!.name!);
          },
          onDelete: async () => undefined,
          onError: (_err, o) => {
            if (o && mine(o)) failed.push(o.metadata!.name!);
          },
        },
      );
      lw.start();
      await expect.poll(() => lists, { timeout: 60_000 }).toBe(1);
      for (const name of ['before', 'poison-1', 'between', 'poison-2', 'after']) {
        await client.create({ ...CM, metadata: { name, namespace: ns }, data: { v: '1' } });
      }
      await expect.poll(() => seen, { timeout: 60_000 }).toEqual(['before', 'between', 'after']);
      expect(failed).toEqual(['poison-1', 'poison-2']);
      expect(lists).toBe(1);
    },
  );

  it(
    'stopped while its first watch is being opened, it ends then, not when the watch next goes quiet',
    // without the fix the stop waits for client-node's 30 s inactivity timer (on a busy kind, for the request's
    // timeoutSeconds, up to 300 s), so this test times out
    { timeout: 20_000 },
    async () => {
      const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
      let stopping: Promise<void> | undefined;
      const w: ListWatcher = new ListWatcher(
        client,
        { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces' },
        {
          // the list is handed over; the watch request goes out next, and the stop comes before its response
          onList: async () => void setImmediate(() => (stopping = w.stop())),
          onUpsert: async () => undefined,
          onDelete: async () => undefined,
        },
      );
      w.start();
      await expect.poll(() => stopping !== undefined, { timeout: 15_000 }).toBe(true);
      await stopping;
    },
  );
});
