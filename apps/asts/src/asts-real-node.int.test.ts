// Advanced StatefulSet in place on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a one-replica set
// pinned to a kubelet with its own containerd, podUpdatePolicy InPlaceIfPossible; an image patch restarts the
// container in place — `kubectl get pod -o yaml` shows the same UID and IP, a new container ID, restartCount 1 — and
// the new tag answers over HTTP from the pod IP. Skipped, with the reason printed, where a real node cannot run.
import { describe, expect, it } from 'vitest';
import { answerOf, containerStatus, expectRestartedInPlace, useRealNode } from '@regatta/testing';
import { demo, useAstsScenarios, type Pod } from './testing/scenario-harness.js';

const real = useRealNode('asts-real-node.int.test.ts', 'asts');
const h = real.skipReason ? undefined : useAstsScenarios();

describe.skipIf(real.skipReason !== undefined)(
  `Advanced StatefulSet on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it('an image patch restarts web-0 in place: same UID and IP, new container ID, restartCount 1, new tag answering', async () => {
      if (!h) throw new Error('not started');
      const ns = await h.namespace();
      const sts = demo(ns, 'web', 'nginx:1.27');
      sts.spec.replicas = 1;
      sts.spec.updateStrategy = {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
      };
      const template = sts.spec['template'] as { spec: Record<string, unknown> };
      real.pin(template.spec);
      // as OpenKruise's webhook requires with InPlaceIfPossible (docs/asts.md)
      template.spec['readinessGates'] = [{ conditionType: 'InPlaceUpdateReady' }];
      await h.create(sts);
      await h.settled(ns, 'web', 1, 120_000);
      const [before] = (await h.pods(ns)) as [Pod];
      expect(before.metadata?.name).toBe('web-0');
      expect(before.spec?.nodeName).toBe(real.name);
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
      expect(after.metadata?.name).toBe('web-0');
      process.stderr.write(
        `[real node] asts in-place update answered with the new tag ${answered} ms after the patch\n`,
      );
    }, 240_000);
  },
);
