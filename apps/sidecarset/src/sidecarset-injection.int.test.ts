// Sidecar injection as a user sees it: the seed SidecarSets applied with kubectl, pods created in selected and
// unselected namespaces, the pod webhook's configuration following the SidecarSets (docs/sidecarset.md).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { seedText, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;

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

  it('a pod created 1 s after its SidecarSet gets the sidecar (OpenKruise e2e timing); observedGeneration waits for the entry', async () => {
    const ns = await s.namespace();
    const app = `lag-${s.id}`;
    const scs = await s.createSidecarSet({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'lag' },
      spec: {
        selector: { matchLabels: { app } },
        containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
      },
    });
    // as OpenKruise's e2e specs do: create, wait one second, create pods (no poll)
    await new Promise((r) => setTimeout(r, 1_000));
    expect(names(await s.createPod(ns, 'p', { app }))).toEqual(['agent', 'main']);
    // a SidecarSet reported observed is effective: its entry is in the configuration
    const name = scs.metadata!.name!;
    await expect
      .poll(
        async () =>
          (await s.client.get<KubeObject & { status?: { observedGeneration?: number } }>({ ...SCS, name }))
            .status?.observedGeneration,
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await s.podWebhookEntries()).toContain(entry(name));
  });

  it('measures the lag from a SidecarSet create to the first injected pod (dry-run pods every 25 ms)', async () => {
    const ns = await s.namespace();
    const app = `lagm-${s.id}`;
    const t0 = performance.now();
    await s.createSidecarSet({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'lag-measure' },
      spec: {
        selector: { matchLabels: { app } },
        containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
      },
    });
    const created = performance.now() - t0;
    // when the API server holds the entry (GETs every 10 ms, alongside the dry-run pods)
    let applied = -1;
    const watchEntry = (async () => {
      while (applied < 0 && performance.now() - t0 < 20_000) {
        if ((await s.podWebhookEntries()).some((e) => e.startsWith('lag-measure-')))
          applied = performance.now() - t0;
        else await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let lag = -1;
    for (let i = 0; lag < 0 && performance.now() - t0 < 20_000; i++) {
      const pod = await s.client.create<Pod>(
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `m-${i}`, namespace: ns, labels: { app } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
        },
        { dryRun: true },
      );
      if (names(pod).includes('agent')) lag = performance.now() - t0;
      else await new Promise((r) => setTimeout(r, 25));
    }
    await watchEntry;
    console.log(
      `SidecarSet create took ${created.toFixed(0)} ms; its webhook entry was applied ${applied.toFixed(0)} ms and the first pod injected ${lag.toFixed(0)} ms after the create was sent`,
    );
    expect(lag).toBeGreaterThan(0);
  });
});
