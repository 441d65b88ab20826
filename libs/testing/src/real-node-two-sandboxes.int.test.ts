// Two sandboxes with real nodes on one host (issue 42 item 2, docs/real-nodes.md "Several sandboxes on one host"):
// node A in this run's cluster folder, node B in another folder (another sandbox, as another helper's test run would
// have), each running a pod. A stops first: `ip_forward`, /var/lib/kubelet/device-plugins and /var/log/containers
// stay, B's pod keeps answering and its Node stays Ready; only B's stop — the last real node on the host — puts the
// host back as the first node found it. Skipped, with the reason printed, where a real node cannot run.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '@regatta/kube';
import { HOST_SHARE_ROOT, hostShareHolders, RealNode } from '@regatta/local-cluster';
import { scenarioCluster } from './context.js';
import { createNamespace, randomId } from './namespaces.js';
import { POD, type Pod } from './pods.js';
import { answerOf, useRealNode } from './real-node.js';
import { testNodeTaint, testNodeToleration } from './test-nodes.js';

const real = useRealNode('real-node-two-sandboxes.int.test.ts', 'sbxa');
const ipForward = () => readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim();

describe.skipIf(real.skipReason !== undefined)(
  `two sandboxes' real nodes on one host${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    let client: KubeClient | undefined;
    let ns = '';
    let other: RealNode | undefined;
    let otherDir = '';
    const otherName = `real-sbxb-${randomId()}`;
    beforeAll(async () => {
      const c = scenarioCluster();
      client = c.client;
      ns = await createNamespace(client, 'sbx');
      // another sandbox's folder: its own nodes/ and logs/, signing with the same CA so it joins this cluster
      otherDir = mkdtempSync(join(tmpdir(), 'regatta-sandbox-b-'));
      symlinkSync(join(c.dir, 'pki'), join(otherDir, 'pki'));
      other = await RealNode.start({
        clusterDir: otherDir,
        kubeconfig: c.kubeconfig,
        apiserver: c.apiserver,
        name: otherName,
        zone: 'zone-real',
        registry: real.node.registry,
        taints: [testNodeTaint('sbxb')],
        log: (line) => process.stderr.write(`[real node] ${line}\n`),
      });
    }, 180_000);
    afterAll(async () => {
      const left = await other?.stop({ deleteNode: true });
      await client?.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(() => undefined);
      await client?.close();
      if (otherDir) rmSync(otherDir, { recursive: true, force: true });
      expect(left ?? []).toEqual([]);
    }, 60_000);

    async function runPod(name: string, node: string, x: string): Promise<string> {
      const kube = client!;
      await kube.create<Pod>({
        ...POD,
        metadata: { name, namespace: ns },
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': node },
          tolerations: [testNodeToleration(x)],
          containers: [{ name: 'main', image: 'regatta/http:v1' }],
        },
      } as Pod);
      const ref = { ...POD, namespace: ns, name };
      await expect
        .poll(async () => (await kube.get<Pod>(ref)).status?.podIP ?? '', { timeout: 60_000, interval: 200 })
        .not.toBe('');
      const ip = (await kube.get<Pod>(ref)).status?.podIP ?? '';
      await expect.poll(() => answerOf(ip), { timeout: 30_000 }).toContain('regatta/http:v1');
      return ip;
    }

    it("one sandbox's teardown leaves the host state the other's running node needs; the last one restores it", async () => {
      const holdersBefore = await hostShareHolders();
      expect(holdersBefore).toEqual(expect.arrayContaining([real.node.dir, other!.dir]));
      await runPod('on-a', real.name, 'sbxa');
      const ipB = await runPod('on-b', otherName, 'sbxb');
      expect(ipForward()).toBe('1');
      expect(existsSync('/var/lib/kubelet/device-plugins')).toBe(true);
      expect(existsSync('/var/log/containers')).toBe(true);

      expect(await real.node.stop({ deleteNode: true })).toEqual([]);
      expect(await real.node.leftovers()).toEqual([]);
      // B runs on: the bridge plugin's ip_forward and the kubelet's shared folders are still there
      expect(ipForward()).toBe('1');
      expect(existsSync('/var/lib/kubelet/device-plugins')).toBe(true);
      expect(existsSync('/var/log/containers')).toBe(true);
      expect(await hostShareHolders()).toContain(other!.dir);
      expect(await hostShareHolders()).not.toContain(real.node.dir);
      expect(await answerOf(ipB)).toContain('regatta/http:v1');
      const nodeB = await client!.get<{ status?: { conditions?: { type: string; status: string }[] } } & Pod>(
        {
          apiVersion: 'v1',
          kind: 'Node',
          name: otherName,
        } as never,
      );
      expect(nodeB.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

      // B is the last real node of these two; the host is restored only when no other sandbox's node holds it
      const firstFound = JSON.parse(readFileSync(join(HOST_SHARE_ROOT, 'host.json'), 'utf8')) as {
        ipForwardBefore: string;
        varLibKubeletExisted: boolean;
      };
      expect(await other!.stop({ deleteNode: true })).toEqual([]);
      const others = await hostShareHolders();
      process.stderr.write(
        `[real node] host share: first found ip_forward=${firstFound.ipForwardBefore}, now ${ipForward()}; ` +
          `${others.length} real node(s) of other runs on the host\n`,
      );
      if (others.length === 0) {
        expect(ipForward()).toBe(firstFound.ipForwardBefore);
        expect(existsSync('/var/lib/kubelet')).toBe(firstFound.varLibKubeletExisted);
      }
    }, 240_000);
  },
);
