// The webhook configuration keeper against the real API server (webhook-configurations.ts, docs/adr/0085): the
// leader deletes the configurations with its mark that it no longer wants, and only those; a webhook entry left out
// of a configuration goes with the next apply; a follower deletes nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { createLogger } from '@regatta/telemetry';
import { KEEPER_LABEL, WebhookConfigurationKeeper, keeperMark } from './webhook-configurations.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
const id = randomBytes(3).toString('hex');
const log = createLogger({ name: 'webhook-keeper-test', level: 'silent' });
const made: { kind: string; name: string }[] = [];

/** A configuration whose entries match no real request (a group nothing serves), failing open. */
function configuration(kind: 'Mutating' | 'Validating', name: string, entries: string[]): KubeObject {
  made.push({ kind: `${kind}WebhookConfiguration`, name });
  return {
    apiVersion: ADMISSION,
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: entries.map((e) => ({
      name: `${e}.regatta.test`,
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      failurePolicy: 'Ignore',
      clientConfig: { url: `https://127.0.0.1:1/${e}` },
      rules: [
        { apiGroups: ['regatta.test'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nothings'] },
      ],
    })),
  } as KubeObject;
}

const read = (kind: string, name: string) => client.getOrUndefined({ apiVersion: ADMISSION, kind, name });
const entries = (c: KubeObject | undefined) =>
  ((c as { webhooks?: { name: string }[] } | undefined)?.webhooks ?? []).map((w) => w.name);

function keeper(desired: () => readonly KubeObject[], o: { leader: boolean; mark: string }) {
  return new WebhookConfigurationKeeper({
    client,
    fieldManager: 'regatta-kit-test',
    mark: o.mark,
    desired,
    isLeader: () => o.leader,
    log,
  });
}

afterAll(async () => {
  for (const { kind, name } of made)
    await client.delete({ apiVersion: ADMISSION, kind, name }).catch(() => undefined);
});

describe('WebhookConfigurationKeeper', () => {
  it('deletes the configurations with its mark it no longer wants; leaves others and its own entries in step', async () => {
    const mark = keeperMark('regatta-kit-test', { matchLabels: { 'regatta-test-kit': id } });
    const otherMark = keeperMark('regatta-kit-test', { matchLabels: { 'regatta-test-kit': `${id}-other` } });
    const pods = configuration('Mutating', `kit-${id}-pods`, ['a', 'b']);
    const sets = configuration('Validating', `kit-${id}-sets`, ['v']);
    let desired: KubeObject[] = [pods, sets];
    const leader = keeper(() => desired, { leader: true, mark });

    // a configuration it did not make, and one another scope's keeper made: never its to delete
    const foreign = configuration('Validating', `kit-${id}-foreign`, ['f']);
    await client.create(foreign);
    const other = configuration('Mutating', `kit-${id}-other`, ['o']);
    await keeper(() => [other], { leader: true, mark: otherMark }).syncOnce();

    expect(await leader.syncOnce()).toBe(true);
    const applied = await read('MutatingWebhookConfiguration', `kit-${id}-pods`);
    expect(applied?.metadata?.labels?.[KEEPER_LABEL]).toBe(mark);
    expect(entries(applied)).toEqual(['a.regatta.test', 'b.regatta.test']);

    // an entry left out (the object it served is gone): dropped by the next apply
    desired = [configuration('Mutating', `kit-${id}-pods`, ['a']), sets];
    expect(await leader.syncOnce()).toBe(true);
    expect(entries(await read('MutatingWebhookConfiguration', `kit-${id}-pods`))).toEqual(['a.regatta.test']);

    // a follower that wants none of them deletes nothing
    expect(await keeper(() => [], { leader: false, mark }).syncOnce()).toBe(true);
    expect(await read('ValidatingWebhookConfiguration', `kit-${id}-sets`)).toBeDefined();

    // a configuration left out of the declaration: the leader deletes it, and only it
    desired = [desired[0]!];
    expect(await leader.syncOnce()).toBe(true);
    expect(await read('ValidatingWebhookConfiguration', `kit-${id}-sets`)).toBeUndefined();
    expect(await read('MutatingWebhookConfiguration', `kit-${id}-pods`)).toBeDefined();
    expect(await read('ValidatingWebhookConfiguration', `kit-${id}-foreign`)).toBeDefined();
    expect(await read('MutatingWebhookConfiguration', `kit-${id}-other`)).toBeDefined();

    // nothing wanted any more (a gate turned off): its last one goes too
    desired = [];
    expect(await leader.syncOnce()).toBe(true);
    expect(await read('MutatingWebhookConfiguration', `kit-${id}-pods`)).toBeUndefined();
    expect(await read('MutatingWebhookConfiguration', `kit-${id}-other`)).toBeDefined();
  });

  it('labels a configuration it kept before it had a mark (one apply), and then may delete it', async () => {
    const mark = keeperMark('regatta-kit-test', undefined);
    const old = configuration('Validating', `kit-${id}-unmarked`, ['u']);
    await client.patch({ apiVersion: ADMISSION, kind: old.kind!, name: old.metadata!.name! }, old, {
      type: 'apply',
      force: true,
      fieldManager: 'regatta-kit-test',
    });
    let desired: KubeObject[] = [old];
    const leader = keeper(() => desired, { leader: true, mark });
    expect(await leader.syncOnce()).toBe(true);
    const marked = await read('ValidatingWebhookConfiguration', `kit-${id}-unmarked`);
    expect(marked?.metadata?.labels?.[KEEPER_LABEL]).toBe(mark);
    desired = [];
    expect(await leader.syncOnce()).toBe(true);
    expect(await read('ValidatingWebhookConfiguration', `kit-${id}-unmarked`)).toBeUndefined();
  });
});
