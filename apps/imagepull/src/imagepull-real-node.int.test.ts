// An ImagePullJob onto a real node (issue 42 item 5, docs/real-nodes.md "The image pull agent"): the node's image pull
// agent runs on its containerd's CRI socket, as the sandbox starts it; a job naming the node pulls an image no pod
// there used, `ctr -n k8s.io images ls` on that containerd lists it afterwards, the job completes with succeeded 1, and
// `kubectl get nodeimage <node>` counts it (DESIRED 1, SUCCEED 1). Skipped, with the reason printed, where a real node
// cannot run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { locateBinaries, nodeBinaries } from '@regatta/local-cluster';
import { useRealNode, useScenarioLayer, type ScenarioLayer } from '@regatta/testing';

const run = promisify(execFile);
const JOB = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob' } as const;
const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const IMAGE = 'regatta/sleep:v2';

const real = useRealNode('imagepull-real-node.int.test.ts', 'imagepull');
// the harness of apps/imagepull's other files answers for nodes itself; this one runs the real agent
const layer: ScenarioLayer | undefined = real.skipReason
  ? undefined
  : useScenarioLayer({
      lease: 'imagepull',
      short: 'ipr',
      scopeLabel: 'regatta-test-imagepull',
      env: { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '0' },
      controller: { app: 'imagepull', webhooks: true },
    });

/** The images the node's containerd holds for Kubernetes (`ctr -n k8s.io images ls -q`). */
async function containerdImages(): Promise<string[]> {
  const { stdout } = await run(nodeBinaries().ctr, [
    '--address',
    real.node.criSocket,
    '-n',
    'k8s.io',
    'images',
    'ls',
    '-q',
  ]);
  return stdout.split('\n').filter(Boolean);
}

describe.skipIf(real.skipReason !== undefined)(
  `ImagePullJob onto a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    beforeAll(async () => {
      await layer?.startProgram('imagepull-agent', 'real', {
        NODE_NAME: real.name,
        CRI_SOCKET: real.node.criSocket,
      });
    }, 120_000);
    afterAll(async () => {
      // the node goes after the controller stopped: its NodeImage is removed here
      await layer?.client.delete({ ...NODE_IMAGE, name: real.name }).catch(() => undefined);
    });

    it("pulls the image into the node's containerd; the job succeeds and kubectl get nodeimage counts it", async () => {
      if (!layer) throw new Error('not started');
      expect(await containerdImages()).not.toContain(`docker.io/${IMAGE}`);
      await expect
        .poll(
          async () => (await layer.client.getOrUndefined({ ...NODE_IMAGE, name: real.name }))?.metadata?.name,
          {
            timeout: 60_000,
          },
        )
        .toBe(real.name);
      const ns = await layer.namespace();
      const created = Date.now();
      await layer.client.create({
        ...JOB,
        metadata: { name: 'warm', namespace: ns },
        spec: {
          image: IMAGE,
          selector: { names: [real.name] },
          completionPolicy: { type: 'Always' },
        },
      });
      type Job = KubeObject & {
        status?: { completionTime?: string; desired?: number; succeeded?: number; failed?: number };
      };
      await expect
        .poll(
          async () =>
            (await layer.client.get<Job>({ ...JOB, namespace: ns, name: 'warm' })).status?.completionTime,
          {
            timeout: 90_000,
            interval: 250,
          },
        )
        .toBeDefined();
      const took = Date.now() - created;
      expect((await layer.client.get<Job>({ ...JOB, namespace: ns, name: 'warm' })).status).toMatchObject({
        desired: 1,
        succeeded: 1,
        failed: 0,
      });
      expect(await containerdImages()).toContain(`docker.io/${IMAGE}`);
      // NAME DESIRED PULLING SUCCEED FAILED AGE
      const kubectl = () =>
        run(locateBinaries().kubectl, [
          '--kubeconfig',
          layer.kubeconfig,
          'get',
          'nodeimage',
          real.name,
          '--no-headers',
        ]);
      await expect
        .poll(async () => (await kubectl()).stdout.trim().split(/\s+/).slice(0, 5), { timeout: 30_000 })
        .toEqual([real.name, '1', '0', '1', '0']);
      process.stderr.write(
        `[real node] ImagePullJob for ${IMAGE} complete ${took} ms after it was created\n`,
      );
    }, 180_000);
  },
);
