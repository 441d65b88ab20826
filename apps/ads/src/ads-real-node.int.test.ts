// Advanced DaemonSet in place on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a DaemonSet whose
// nodeSelector picks only a kubelet with its own containerd, rollingUpdateType InPlaceIfPossible; an image patch
// restarts its pod's container in place — `kubectl get pod -o yaml` shows the same UID and IP, a new container ID,
// restartCount 1 — and the new tag answers over HTTP from the pod IP. Skipped, with the reason printed, where a real
// node cannot run.
import { describe, expect, it } from 'vitest';
import { answerOf, containerStatus, expectRestartedInPlace, useRealNode } from '@regatta/testing';
import { nginxDaemonSet, nodeOf, useDaemonSetScenarios, type Pod } from './testing/scenario-harness.js';

const real = useRealNode('ads-real-node.int.test.ts', 'ads');
const h = real.skipReason ? undefined : useDaemonSetScenarios();

describe.skipIf(real.skipReason !== undefined)(
  `Advanced DaemonSet on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it("an image patch restarts the real node's pod in place: same UID and IP, new container ID, restartCount 1, new tag answering", async () => {
      if (!h) throw new Error('not started');
      const ns = await h.namespace();
      await h.create(
        nginxDaemonSet(ns, 'web', (ds) => {
          ds.spec['updateStrategy'] = {
            type: 'RollingUpdate',
            rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 },
          };
          ds.spec.template.spec.containers[0]!.image = 'nginx:1.27';
          real.pin(ds.spec.template.spec as unknown as Record<string, unknown>);
        }),
      );
      await h.settled(ns, 'web', 1, 120_000);
      const [before] = (await h.pods(ns)) as [Pod];
      expect(nodeOf(before)).toBe(real.name);
      expect(containerStatus(before, 'nginx')?.restartCount).toBe(0);
      const ip = before.status?.podIP ?? '';
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');

      const patched = Date.now();
      await h.setImage(ns, 'web', 'nginx:1.28');
      await expect.poll(() => answerOf(ip), { timeout: 60_000, interval: 100 }).toContain('nginx:1.28');
      const answered = Date.now() - patched;
      await h.settled(ns, 'web', 1, 60_000);
      await expect
        .poll(async () => containerStatus((await h.pods(ns))[0]!, 'nginx')?.restartCount, { timeout: 30_000 })
        .toBe(1);
      const [after] = (await h.pods(ns)) as [Pod];
      expectRestartedInPlace(before, after, 'nginx', 'nginx:1.28');
      expect(after.metadata?.name).toBe(before.metadata?.name);
      process.stderr.write(
        `[real node] ads in-place update answered with the new tag ${answered} ms after the patch\n`,
      );
    }, 240_000);
  },
);
