// A BroadcastJob over a real node beside simulated ones (issue 43, docs/real-nodes.md): the job's node affinity takes
// two simulated test nodes and the real node (a kubelet with its own containerd and runc); each gets one pod, the real
// node's container is `regatta/exit:v1` run by containerd and exits 0, and the job completes with 3 succeeded.
// Skipped, with the reason printed, where a real node cannot run.
import { describe, expect, it } from 'vitest';
import type { BroadcastJob } from '@regatta/api';
import { NODE_KIND_LABEL } from '@regatta/local-cluster';
import { testNodeToleration, useRealNode } from '@regatta/testing';
import { BJ, GROUP_LABEL, nodeOf, useBroadcastJobScenarios } from './testing/harness.js';

const real = useRealNode('broadcastjob-real-node.int.test.ts', 'bjreal');
const h = useBroadcastJobScenarios();

describe.skipIf(real.skipReason !== undefined)(
  `BroadcastJob on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it("the real node's pod runs in containerd and succeeds beside the simulated nodes' pods; the job completes", async () => {
      const ns = await h.namespace();
      const sims = [await h.addNode('bjsim'), await h.addNode('bjsim')];
      const job: BroadcastJob = {
        ...BJ,
        metadata: { name: 'real', namespace: ns },
        spec: {
          completionPolicy: { type: 'Always' },
          template: {
            // the simulated nodes end the container after a second; the real kubelet ignores the annotation
            metadata: { annotations: { 'sim.regatta.dev/exit-after-ms': '1000' } },
            spec: {
              restartPolicy: 'Never',
              tolerations: [testNodeToleration('bjsim'), testNodeToleration('bjreal')],
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [
                      { matchExpressions: [{ key: GROUP_LABEL, operator: 'In', values: ['bjsim'] }] },
                      { matchExpressions: [{ key: NODE_KIND_LABEL, operator: 'In', values: ['real'] }, { key: 'kubernetes.io/hostname', operator: 'In', values: [real.name] }] },
                    ],
                  },
                },
              },
              containers: [
                { name: 'exit', image: 'regatta/exit:v1', env: [{ name: 'EXIT_CODE', value: '0' }, { name: 'DELAY_SECONDS', value: '1' }] },
              ],
            },
          },
        },
      };
      await h.create(job);
      await expect.poll(async () => (await h.job(ns, 'real'))?.status?.phase, { timeout: 180_000, interval: 1000 }).toBe('completed');
      expect((await h.job(ns, 'real'))?.status).toMatchObject({ desired: 3, succeeded: 3, failed: 0 });
      const pods = await h.pods(ns, 'real');
      expect(pods.map(nodeOf).sort()).toEqual([...sims, real.name].sort());
      const onReal = pods.find((p) => nodeOf(p) === real.name)!;
      expect(onReal.status?.phase).toBe('Succeeded');
      const term = onReal.status?.containerStatuses?.[0]?.state?.terminated;
      expect(term?.exitCode).toBe(0);
      expect(onReal.status?.containerStatuses?.[0]?.containerID).toMatch(/^containerd:\/\//);
    });
  },
);
