// The write fence a program's client carries (KubeClientOptions.writeGate; the kit passes the leader's
// LeaderElector.mayWrite): a write it refuses never reaches the API server, and reads are not asked.
import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import { KubeClient } from './client.js';

class Fenced extends Error {
  readonly code = 'TEST_FENCED';
}

describe('KubeClient writeGate', () => {
  it('refuses writes unsent while it throws, lets reads through, and writes again once it allows', { timeout: 60_000 }, async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(inject('cluster').kubeconfig);
    let open = false;
    let asked = 0;
    const client = new KubeClient(kc, {
      writeGate: () => {
        asked++;
        if (!open) throw new Fenced('lease not fresh');
      },
    });
    const admin = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
    const name = `gate-${randomBytes(3).toString('hex')}`;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { a: '1' } };
    await expect(client.create(cm)).rejects.toBeInstanceOf(Fenced);
    expect(await admin.getOrUndefined({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name })).toBeUndefined();
    const reads = asked;
    await client.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' });
    expect(asked).toBe(reads);
    open = true;
    await client.create(cm);
    await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });
    await client.close();
    await admin.close();
  });
});
