// Sidecar injection as a user sees it: the seed SidecarSets applied with kubectl, pods created in selected and
// unselected namespaces, the pod webhook's configuration following the SidecarSets (docs/sidecarset.md).
import { describe, expect, it } from 'vitest';
import { seedText, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const entry = (name: string) => `${name}.sidecarset.pods.regatta.kruise.io`;
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);

async function entryPresent(name: string): Promise<void> {
  await expect.poll(() => s.podWebhookEntries(), { timeout: 20_000, interval: 300 }).toContain(entry(name));
}

describe('SidecarSet injection', () => {
  it('S1 §1.3.3 log-collector: kubectl warns about volumeTemplates, and a selected pod gets filebeat with the volume', async () => {
    const name = `log-collector-${s.id}`;
    const text = seedText('s1-1.3.3-log-collector.yaml').replace(
      /^metadata:\n {2}name: log-collector$/m,
      `metadata:\n  name: ${name}\n  labels:\n    regatta-test-sidecarset: "${s.id}"`,
    );
    const created = await s.kubectl(['create', '-f', '-'], text);
    try {
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toMatch(/Warning: spec\.volumeTemplates is not a SidecarSet field/);
      await entryPresent(name);
      const ns = await s.namespace();
      const pod = await s.createPod(ns, 'web', { 'sidecar.kruise.io/inject': 'true' });
      expect(names(pod)).toEqual(['filebeat', 'main']); // containers default to BeforeAppContainer
      const filebeat = pod.spec!.containers!.find((c) => c.name === 'filebeat')!;
      expect(filebeat.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }]);
      expect(pod.spec!.volumes?.some((v) => v.name === 'logs' && v.emptyDir)).toBe(true);
      const a = pod.metadata!.annotations!;
      expect(a['kruise.io/sidecarset-injected-list']).toBe(name);
      expect(JSON.parse(a['kruise.io/sidecarset-hash']!)).toMatchObject({
        [name]: { sidecarSetName: name, sidecarList: ['filebeat'] },
      });
      const plain = await s.createPod(ns, 'plain', { app: 'other' });
      expect(names(plain)).toEqual(['main']);
    } finally {
      await s.kubectl(['delete', 'sidecarset', name, '--wait=false']);
    }
  });

  it('namespaceSelector: only pods of selected namespaces are injected', async () => {
    const sel = { [`ns-test-${s.id}`]: 'true' };
    const scs = await s.createSidecarSet({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'by-namespace' },
      spec: {
        selector: { matchLabels: { app: `nsel-${s.id}` } },
        namespaceSelector: { matchLabels: { team: 'a' } },
        containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
      },
    });
    await entryPresent(scs.metadata!.name!);
    const selected = await s.namespace({ team: 'a', ...sel });
    const other = await s.namespace({ team: 'b', ...sel });
    expect(names(await s.createPod(selected, 'p', { app: `nsel-${s.id}` }))).toEqual(['agent', 'main']);
    expect(names(await s.createPod(other, 'p', { app: `nsel-${s.id}` }))).toEqual(['main']);
  });

  it('injectionStrategy.paused: no webhook entry, new pods are not injected', async () => {
    const scs = await s.createSidecarSet({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'paused' },
      spec: {
        selector: { matchLabels: { app: `paused-${s.id}` } },
        injectionStrategy: { paused: true },
        containers: [{ name: 'agent', image: 'busybox' }],
      },
    });
    const ns = await s.namespace();
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 10_000 })
      .toContain('launch-priority.pods.regatta.kruise.io');
    expect(await s.podWebhookEntries()).not.toContain(entry(scs.metadata!.name!));
    expect(names(await s.createPod(ns, 'p', { app: `paused-${s.id}` }))).toEqual(['main']);
  });
});
