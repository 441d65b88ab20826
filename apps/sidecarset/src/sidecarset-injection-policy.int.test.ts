// docs/adr/0089-sidecarset-injection-policies.md: a SidecarSet whose injection CEL can express is compiled into a
// MutatingAdmissionPolicy, so with the sidecarset program SIGSTOPped (alive, answering nothing) a selected pod is
// created with its sidecar and volume (the policy's path; the SidecarSet webhook defaults podInjectPolicy to
// BeforeAppContainer) and an unselected one at once; a SidecarSet needing the pod's
// contents (shareVolumePolicy) stays on the fail-closed webhook. Its pod creation latency with the policy against the
// webhook is printed (the bench's admission entry measures it: tools/bench).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const ADMISSION = 'admissionregistration.k8s.io/v1';

const sidecarSet = (name: string, app: string, extra: Record<string, unknown> = {}): KubeObject & { spec: Record<string, unknown> } =>
  ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app } },
      containers: [
        {
          name: `${name}-agent`,
          image: 'busybox',
          command: ['sleep', '999d'],
          volumeMounts: [{ name: `${name}-cache`, mountPath: '/cache' }],
          ...extra,
        },
      ],
      volumes: [{ name: `${name}-cache`, emptyDir: {} }],
    },
  }) as KubeObject & { spec: Record<string, unknown> };

const names = (pod: Pod) => pod.spec!.containers!.map((c) => c.name);

describe('SidecarSet injection by MutatingAdmissionPolicy', () => {
  it('program SIGSTOPped: a selected pod gets its sidecar from the policy, an unselected one is created at once', async () => {
    const app = `policy-${s.id}`;
    const compiled = await s.createSidecarSet(sidecarSet('policy', app));
    const webhookOnly = await s.createSidecarSet(sidecarSet('shared', `${app}-shared`, { shareVolumePolicy: { type: 'enabled' } }));
    const policyName = (n: string) => `regatta-sidecarset-${n}-${s.id}`;
    const compiledName = compiled.metadata!.name!;
    await expect
      .poll(async () => !!(await s.client.getOrUndefined({ apiVersion: ADMISSION, kind: 'MutatingAdmissionPolicyBinding', name: policyName(compiledName) })), {
        timeout: 30_000,
      })
      .toBe(true);
    // the webhook-only SidecarSet has no policy; both keep their webhook entries (the compiled one's skips injected pods)
    expect(
      await s.client.getOrUndefined({ apiVersion: ADMISSION, kind: 'MutatingAdmissionPolicy', name: policyName(webhookOnly.metadata!.name!) }),
    ).toBeUndefined();
    await expect.poll(() => s.podWebhookEntries(), { timeout: 20_000 }).toContain(`${compiledName}.sidecarset.pods.regatta.kruise.io`);
    const ns = await s.namespace();
    const group = -s.controller.pid;
    process.kill(group, 'SIGSTOP');
    try {
      // the API server starts enforcing a new policy a second or more after it is written (its informer; longer
      // under load), and until then the webhook injects: with the program stopped, a pod is created with its
      // sidecar only once the policy is enforced (before that, the stopped webhook times out and refuses it)
      await expect
        .poll(() => s.createPod(ns, `warm-${Date.now()}`, { app }).then(names, () => []), {
          timeout: 60_000,
          interval: 500,
        })
        .toEqual(['policy-agent', 'main']);
      const t0 = Date.now();
      const selected = await s.createPod(ns, 'selected', { app });
      const unselected = await s.createPod(ns, 'unselected', { app: 'unrelated' });
      // a stopped webhook would hold each call for its 10 s timeout: these made none
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(names(selected)).toEqual(['policy-agent', 'main']);
      expect(selected.spec!.volumes!.map((v) => v.name)).toContain('policy-cache');
      const a = selected.metadata!.annotations!;
      expect(a['kruise.io/sidecarset-injected-list']).toBe(compiledName);
      expect(Object.keys(JSON.parse(a['kruise.io/sidecarset-hash']!) as object)).toEqual([compiledName]);
      expect(selected.spec!.containers![0]!.env).toContainEqual({ name: 'IS_INJECTED', value: 'true' });
      expect(names(unselected)).toEqual(['main']);
      // the SidecarSet CEL cannot express still fails closed on the stopped webhook
      await expect(s.createPod(ns, 'shared', { app: `${app}-shared` })).rejects.toThrow(/sidecarset|webhook|deadline|timeout/i);
    } finally {
      process.kill(group, 'SIGCONT');
    }
  }, 120_000);

  it('pod creation latency: policy against webhook against unselected (printed; not a timed assertion)', async () => {
    const app = `lat-${s.id}`;
    await s.createSidecarSet(sidecarSet('lat', app));
    await s.createSidecarSet(sidecarSet('latwh', `${app}-wh`, { shareVolumePolicy: { type: 'enabled' } }));
    const ns = await s.namespace();
    // both paths in place: a policy-injected pod and a webhook-injected one
    await expect
      .poll(async () => names(await s.createPod(ns, `warm-p-${Date.now()}`, { app })), { timeout: 30_000, interval: 500 })
      .toEqual(['lat-agent', 'main']);
    await expect
      .poll(() => s.createPod(ns, `warm-w-${Date.now()}`, { app: `${app}-wh` }).then(names, () => []), {
        timeout: 30_000,
        interval: 500,
      })
      .toEqual(['latwh-agent', 'main']);
    const times: Record<'policy' | 'webhook' | 'unselected', number[]> = { policy: [], webhook: [], unselected: [] };
    const labels = { policy: { app }, webhook: { app: `${app}-wh` }, unselected: { app: 'none' } };
    for (let i = 0; i < 40; i++) {
      for (const k of ['policy', 'webhook', 'unselected'] as const) {
        const t0 = performance.now();
        await s.createPod(ns, `${k}-${i}`, labels[k]);
        if (i >= 5) times[k].push(performance.now() - t0);
      }
    }
    const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
    const line = (k: keyof typeof times) => `${k}: p50 ${q(times[k], 50).toFixed(1)} ms, p99 ${q(times[k], 99).toFixed(1)} ms`;
    console.log(
      `[injection latency, ${times.policy.length} pods each] ${line('policy')}; ${line('webhook')}; ${line('unselected')}; ` +
        `policy/webhook p50 ratio ${(q(times.policy, 50) / q(times.webhook, 50)).toFixed(2)}, ` +
        `policy-unselected p99 +${(q(times.policy, 99) - q(times.unselected, 99)).toFixed(1)} ms`,
    );
    expect(times.policy.length).toBe(35);
  }, 180_000);
});
