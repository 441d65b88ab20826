// docs/adr/0040-sidecarset-effective-at-admission.md as a user sees it: a pod created right after its SidecarSet (no
// wait at all, as OpenKruise's ResourcesPolicy e2e specs do) gets the sidecar; a dry-run SidecarSet changes nothing;
// a refused SidecarSet create leaves no entry behind and injects nothing.
import { describe, expect, it } from 'vitest';
import { isAlreadyExists, type KubeObject } from '@regatta/kube';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);
const sidecarSet = (name: string, app: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'SidecarSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app } },
    containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
  },
});

describe('SidecarSet effective from its admission', () => {
  it('a pod created immediately after its SidecarSet gets the sidecar, every time', async () => {
    const ns = await s.namespace();
    for (let i = 0; i < 6; i++) {
      const app = `now-${i}-${s.id}`;
      await s.createSidecarSet(sidecarSet(`now-${i}`, app));
      const pod = await s.createPod(ns, `now-${i}`, { app });
      expect(names(pod), `pod ${i}`).toEqual(['agent', 'main']);
    }
    // once cached, each SidecarSet has its regular entry and no admitted one is left
    await expect
      .poll(async () => (await s.podWebhookEntries()).filter((e) => e.startsWith('now-')), {
        timeout: 30_000,
        interval: 500,
      })
      .toEqual(Array.from({ length: 6 }, (_, i) => `now-${i}-${s.id}.sidecarset.pods.regatta.kruise.io`));
  });

  it('a dry-run SidecarSet gets no entry', async () => {
    const obj = sidecarSet(`dry-${s.id}`, `dry-${s.id}`) as KubeObject;
    obj.metadata = { ...obj.metadata, labels: s.scopeLabels };
    await s.client.create(obj, { dryRun: true });
    // a real create applies its entry before its answer: none now means none at all
    expect((await s.podWebhookEntries()).filter((e) => e.startsWith('dry-'))).toEqual([]);
    expect(await s.client.getOrUndefined({ ...SCS, name: `dry-${s.id}` })).toBeUndefined();
  });

  it('a create refused after admission (the name is taken) leaves no entry and injects nothing', async () => {
    const ns = await s.namespace();
    const kept = `kept-${s.id}`;
    const created = await s.createSidecarSet(sidecarSet('taken', kept));
    const name = created.metadata!.name!;
    const again = sidecarSet(name, `other-${s.id}`) as KubeObject;
    again.metadata = { ...again.metadata, labels: s.scopeLabels };
    const refused = await s.client.create(again).catch((err: unknown) => err);
    expect(isAlreadyExists(refused)).toBe(true);

    // the pods of the refused SidecarSet are not injected; those of the stored one are
    expect(names(await s.createPod(ns, 'other', { app: `other-${s.id}` }))).toEqual(['main']);
    expect(names(await s.createPod(ns, 'kept', { app: kept }))).toEqual(['agent', 'main']);
    // the entry of the refused one goes once the program finds it was never stored
    const admittedEntries = async () =>
      (await s.podWebhookEntries()).filter((e) => e.startsWith(`${name}.`) && e.includes('.admitted.'));
    await expect.poll(admittedEntries, { timeout: 40_000, interval: 500 }).toEqual([]);
    expect(await s.podWebhookEntries()).toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
  });

  it('injectionStrategy.revision naming no revision: refused with the field path (the stored revisions are read too)', async () => {
    const obj = sidecarSet(`norev-${s.id}`, `norev-${s.id}`) as KubeObject & { spec: Record<string, unknown> };
    obj.metadata = { ...obj.metadata, labels: s.scopeLabels };
    obj.spec['injectionStrategy'] = { revision: { customVersion: 'never-made', policy: 'Always' } };
    // none is cached, so the webhook lists the SidecarSet's revisions from the API server before it answers
    const refused = await s.client.create(obj).catch((err: unknown) => err);
    expect(String(refused)).toContain('spec.injectionStrategy.revision');
    expect(String(refused)).toContain('Cannot find specific ControllerRevision');
    expect(String(refused)).not.toContain('forbidden');
  });
});
