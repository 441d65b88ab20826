// A BroadcastJob the webhook would refuse, stored with the webhooks off (docs/broadcastjob.md "Admission"): the
// reconciler creates no pod and writes no status, and says why with an InvalidSpec Warning naming the field; a valid
// job beside it completes; once fixed, the refused job runs too.
import { describe, expect, it } from 'vitest';
import type { BroadcastJob, Pod } from '@regatta/api';
import { eventsAbout, useScenarioLayer } from '@regatta/testing';
import { BJ, BJ_LABEL, GROUP_LABEL, jobFor } from './testing/harness.js';

const layer = useScenarioLayer({
  lease: 'bjinv',
  short: 'bjinv',
  scopeLabel: 'regatta-test-bj-inv',
  controller: { app: 'broadcastjob', webhooks: false },
});
const POLL = { timeout: 60_000, interval: 500 };
const job = (ns: string, name: string) => layer.client.getOrUndefined<BroadcastJob>({ ...BJ, namespace: ns, name });
const pods = async (ns: string, name: string) =>
  (await layer.client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: `${BJ_LABEL}=${name}` })).items;

describe('a BroadcastJob stored past the webhooks', () => {
  it('gets no pod and no status, an InvalidSpec Warning naming the field; once fixed it runs', async () => {
    const ns = await layer.namespace();
    await layer.addTestNode('bjinv', { labels: { [GROUP_LABEL]: 'bjinv' } });
    const bad = jobFor(ns, 'bad', 'bjinv', 'true');
    bad.spec.template.spec!.restartPolicy = 'Always';
    await layer.client.create(bad);
    await layer.client.create(jobFor(ns, 'good', 'bjinv', 'true'));
    await expect.poll(async () => (await job(ns, 'good'))?.status?.phase, POLL).toBe('completed');
    await expect
      .poll(async () => (await eventsAbout(layer.client, ns, 'BroadcastJob', 'InvalidSpec')).map((e) => e.message), POLL)
      .toEqual([expect.stringContaining('spec.template.spec.restartPolicy')]);
    expect((await job(ns, 'bad'))?.status).toBeUndefined();
    expect(await pods(ns, 'bad')).toEqual([]);
    await layer.client.patch({ ...BJ, namespace: ns, name: 'bad' }, { spec: { template: { spec: { restartPolicy: 'Never' } } } }, { type: 'merge' });
    await expect.poll(async () => (await job(ns, 'bad'))?.status?.phase, POLL).toBe('completed');
  });
});
