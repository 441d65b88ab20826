// SidecarSet on a real node, beyond injection and the cold upgrade (sidecarset-real-node.int.test.ts): issue 42's
// hot-upgrade proof and issue 45's native sidecars (docs/real-nodes.md "Proof", docs/sidecarset.md "Native sidecars",
// "Hot upgrade on a real node").
// - Hot upgrade, the seed's example (S2 hotupgrade-sidecarset.yaml) with stand-ins: the sidecar `regatta/http` serves
//   :8080 from one of its twins; the twins hand the listening socket over through a unix socket on a shared volume
//   (HANDOVER_SOCKET, tools/images/http/handover.go) and a PostStartHook waits until the new twin serves. A poller
//   asks the pod's app (:80) and sidecar (:8080) over HTTP, a new connection per request, throughout the upgrade:
//   no request fails, the sidecar's answers go from v1 to v2, the idle twin goes back to the empty image.
//   The same with the sidecar declared as a native sidecar: its twins are init containers with `restartPolicy: Always`.
// - A native sidecar (an init container with `restartPolicy: Always`) upgraded in place: the real kubelet restarts it
//   ("Init container proxy definition changed"), same pod UID and IP, new container ID, restartCount 1, the app
//   container keeps its ID.
// Skipped, with the reason printed, where a real node cannot run.
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { answerOf, containerStatus, expectInPlaceUpdate, useRealNodeScenarios } from '@regatta/testing';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'sidecarset-real-node-hot-upgrade.int.test.ts',
  'scsh',
  useSidecarSetScenarios,
);
const initStatus = (p: Pod, name: string) => p.status?.initContainerStatuses?.find((c) => c.name === name);

/** One GET on a new connection (no keep-alive: each request meets whichever twin accepts now). */
function getOnce(ip: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: ip, port, path: '/poll', agent: false, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Polls ip:port every 20 ms until stopped: answers (first word, each change once), successes, failures. */
function poll(ip: string, port: number) {
  let stopped = false;
  const r = { ok: 0, failed: [] as string[], answers: [] as string[] };
  const loop = (async () => {
    while (!stopped) {
      try {
        const word = (await getOnce(ip, port)).split(' ')[0] ?? '';
        r.ok++;
        if (r.answers.at(-1) !== word) r.answers.push(word);
      } catch (err) {
        r.failed.push(`${new Date().toISOString()} ${String(err)}`);
      }
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return r;
    },
  };
}

// waits (bounded) until this twin serves: the new instance writes /tmp/serving once it has the listener; the empty
// image's instance has nothing to wait for

/**
 * Creates the SidecarSet `scs`, waits until the pod webhook serves it, and creates pod `podName` of `app` (one `main`
 * nginx:1.27 container) on the real node: the SidecarSet's name, the namespace, the pod as the webhook left it.
 */
async function injectedPod(
  s: ReturnType<typeof scenarios>,
  scs: KubeObject & { spec: Record<string, unknown> },
  podName: string,
  app: string,
): Promise<{ name: string; ns: string; created: Pod }> {
  const name = (await s.createSidecarSet(scs)).metadata?.name ?? '';
  await expect
    .poll(() => s.podWebhookEntries(), { timeout: 20_000, interval: 300 })
    .toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
  const ns = await s.namespace();
  const created = await s.createPod(
    ns,
    podName,
    { app },
    real.pin({ containers: [{ name: 'main', image: 'nginx:1.27' }] }),
  );
  return { name, ns, created };
}

const WAIT_SERVING =
  'case "$IMAGE" in regatta/http*) i=0; until test -e /tmp/serving || test $i -ge 100; do sleep 0.1; i=$((i+1)); done;; esac';

describeOnRealNode('SidecarSet hot upgrade and native sidecars on a real node', () => {
  // the seed's example as containers, then the same sidecar as a native sidecar (its twins init containers)
  it.each([
    ['containers', 'hotupgrade'],
    ['initContainers', 'hotnative'],
  ] as const)(
    'hot upgrade (%s): the app and the sidecar answer every request during the swap',
    async (field, label) => {
      const s = scenarios();
      const native = field === 'initContainers';
      const app = `${label}-${s.id}`;
      const podName = label;
      const { name, ns, created } = await injectedPod(
        s,
        {
          ...SCS,
          metadata: { name: label },
          spec: {
            selector: { matchLabels: { app } },
            updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
            [field]: [
              {
                ...(native ? { restartPolicy: 'Always' } : {}),
                name: 'sidecar',
                image: 'regatta/http:v1',
                env: [
                  { name: 'PORT', value: '8080' },
                  { name: 'HANDOVER_SOCKET', value: '/handover/http.sock' },
                ],
                volumeMounts: [{ name: 'handover', mountPath: '/handover' }],
                lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', WAIT_SERVING] } } },
                upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'regatta/sleep:v1' },
              },
            ],
            volumes: [{ name: 'handover', emptyDir: {} }],
          },
        },
        podName,
        app,
      );
      const twins = [
        ['sidecar-1', 'regatta/http:v1'],
        ['sidecar-2', 'regatta/sleep:v1'],
      ];
      const specOf = (p: Pod) => [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])];
      expect(specOf(created).map((c) => [c.name, c.image])).toEqual([...twins, ['main', 'nginx:1.27']]);
      expect(created.spec?.initContainers?.length ?? 0).toBe(native ? 2 : 0);
      const ref = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: podName } as const;
      const read = () => s.client.get<Pod>(ref);
      const st = (p: Pod, n: string) => (native ? initStatus(p, n) : containerStatus(p, n));
      await expect
        .poll(
          async () => {
            const p = await read();
            return ['sidecar-1', 'sidecar-2', 'main'].every(
              (n) => !!(n === 'main' ? containerStatus(p, n) : st(p, n))?.ready,
            );
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      const before = await read();
      const ip = before.status?.podIP ?? '';
      await expect.poll(() => answerOf(ip, 8080), { timeout: 15_000 }).toContain('regatta/http:v1');
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');

      const sidecar = poll(ip, 8080);
      const main = poll(ip, 80);
      const patched = Date.now();
      await s.client.patch(
        { ...SCS, name },
        [{ op: 'replace', path: `/spec/${field}/0/image`, value: 'regatta/http:v2' }],
        { type: 'json' },
      );
      // the switch (sidecar-2 on v2 serving), then the reset (sidecar-1 back on the empty image, running)
      let switched = 0;
      await expect
        .poll(
          async () => {
            const p = await read();
            const img = (n: string) => st(p, n)?.image ?? '';
            if (!switched && img('sidecar-2').includes('regatta/http:v2')) switched = Date.now() - patched;
            return [
              img('sidecar-1').includes('regatta/sleep:v1') && !!st(p, 'sidecar-1')?.ready,
              img('sidecar-2').includes('regatta/http:v2') && !!st(p, 'sidecar-2')?.ready,
            ];
          },
          { timeout: 90_000, interval: 200 },
        )
        .toEqual([true, true]);
      const reset = Date.now() - patched;
      await sleep(1_000);
      const [side, app80] = await Promise.all([sidecar.stop(), main.stop()]);
      if (side.failed.length + app80.failed.length > 0) {
        // what the kubelet did around a failed request
        const ev = await s.kubectl([
          'get',
          'events',
          '-n',
          ns,
          '-o',
          'custom-columns=T:.lastTimestamp,R:.reason,O:.involvedObject.fieldPath,M:.message',
        ]);
        const logs = await Promise.all(
          ['sidecar-1', 'sidecar-2'].map((c) =>
            s.kubectl(['logs', '-n', ns, podName, '-c', c, '--timestamps']),
          ),
        );
        const prev = await Promise.all(
          ['sidecar-1', 'sidecar-2'].map((c) =>
            s.kubectl(['logs', '-n', ns, podName, '-c', c, '--previous', '--timestamps']),
          ),
        );
        process.stderr.write(
          `[debug] patched ${new Date(patched).toISOString()}\n${ev.stdout}\n${logs.map((l) => l.stdout + l.stderr).join('\n')}\nprevious:\n${prev.map((l) => l.stdout + l.stderr).join('\n')}\n`,
        );
      }
      expect(side.failed).toEqual([]);
      expect(app80.failed).toEqual([]);
      expect(side.answers).toEqual(['regatta/http:v1', 'regatta/http:v2']);
      expect(app80.answers).toEqual(['nginx:1.27']);

      const after = await read();
      expect(after.metadata?.uid).toBe(before.metadata?.uid);
      expect(after.status?.podIP).toBe(ip);
      expect(containerStatus(after, 'main')?.containerID).toBe(containerStatus(before, 'main')?.containerID);
      expect(containerStatus(after, 'main')?.restartCount).toBe(0);
      expect(st(after, 'sidecar-1')?.restartCount).toBe(1);
      expect(st(after, 'sidecar-2')?.restartCount).toBe(1);
      expect(after.metadata?.annotations?.['kruise.io/sidecarset-working-hotupgrade-container']).toBe(
        '{"sidecar":"sidecar-2"}',
      );
      await expect
        .poll(async () => (await s.client.get<Scs>({ ...SCS, name })).status, { timeout: 30_000 })
        .toMatchObject({ matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1 });
      process.stderr.write(
        `[real node] sidecarset hot upgrade (${field}): new twin on v2 ${switched} ms, old twin reset ${reset} ms after the patch; ` +
          `${side.ok} sidecar and ${app80.ok} app requests, none failed\n`,
      );
    },
    240_000,
  );

  it('a native sidecar is upgraded in place by the real kubelet: app container and pod kept', async () => {
    const s = scenarios();
    const app = `native-${s.id}`;
    const { name, ns, created } = await injectedPod(
      s,
      {
        ...SCS,
        metadata: { name: 'native' },
        spec: {
          selector: { matchLabels: { app } },
          updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
          initContainers: [
            {
              name: 'proxy',
              image: 'regatta/http:v1',
              restartPolicy: 'Always',
              env: [{ name: 'PORT', value: '8081' }],
            },
          ],
        },
      },
      'native',
      app,
    );
    expect(created.spec?.initContainers?.map((c) => [c.name, c.restartPolicy])).toEqual([
      ['proxy', 'Always'],
    ]);
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'native' } as const;
    const read = () => s.client.get<Pod>(ref);
    await expect
      .poll(
        async () => {
          const p = await read();
          return !!initStatus(p, 'proxy')?.ready && !!containerStatus(p, 'main')?.ready;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const { before, after, ip } = await expectInPlaceUpdate({
      what: 'sidecarset native sidecar upgrade',
      node: real.name,
      read,
      container: 'proxy',
      statusOf: initStatus,
      port: 8081,
      from: 'regatta/http:v1',
      to: 'regatta/http:v2',
      update: () =>
        s.client.patch(
          { ...SCS, name },
          [{ op: 'replace', path: '/spec/initContainers/0/image', value: 'regatta/http:v2' }],
          { type: 'json' },
        ),
      answerTimeoutMs: 90_000,
    });
    expect(containerStatus(after, 'main')?.containerID).toBe(containerStatus(before, 'main')?.containerID);
    expect(containerStatus(after, 'main')?.restartCount).toBe(0);
    expect(await answerOf(ip)).toContain('nginx:1.27');
    await expect
      .poll(async () => (await s.client.get<Scs>({ ...SCS, name })).status, { timeout: 30_000 })
      .toMatchObject({ matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1 });
    // the real kubelet's words, which the simulator uses too (libs/node-simulator runtime.ts)
    const killing = async () =>
      (
        await s.kubectl([
          'get',
          'events',
          '-n',
          ns,
          '--field-selector',
          'reason=Killing',
          '-o',
          'jsonpath={.items[*].message}',
        ])
      ).stdout;
    await expect.poll(killing, { timeout: 15_000 }).toContain('Init container proxy definition changed');
  }, 240_000);
});

interface Scs extends KubeObject {
  status?: { matchedPods?: number; updatedPods?: number; readyPods?: number; updatedReadyPods?: number };
}
