// Advanced DaemonSet and nodes that change while it runs (docs/ads.md "Which nodes run the daemon"; issue 11): a
// node added during a rollout gets a pod at the new revision; node events all through a Standard rollout (each one
// a reconcile, at any moment) never put a second pod on a node; an untolerated NoExecute taint removes the pod; a
// NotReady node keeps it. The added node carries a NoSchedule taint only these DaemonSets tolerate, so other
// scenario files on the shared cluster never place pods on it.
import { afterAll, describe, expect, it } from 'vitest';
import { NOT_READY_ANNOTATION, simulatedNodeManifest } from '@regatta/node-simulator';
import { imageOf, randomId, recordPods } from '@regatta/testing';
import { maxPodsOnANode } from './testing/invariants.js';
import { isReady, nginxDaemonSet, nodeOf, useDaemonSetScenarios } from './testing/scenario-harness.js';

const h = useDaemonSetScenarios();
const { namespace, pods, settled } = h;
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;
const id = randomId();
const taint = { key: `regatta-test-ads-${id}`, value: 'yes', effect: 'NoSchedule' };
const added: string[] = [];


/** A node run by the shared simulator (prefix `node`), tainted so only this file's DaemonSets go there. */
async function addNode(suffix: string): Promise<string> {
  const name = `node-ads-${id}-${suffix}`;
  added.push(name);
  await h.client.create(
    simulatedNodeManifest(name, { prefix: 'node', zone: 'zone-a', taints: [taint] }) as never,
  );
  return name;
}

afterAll(async () => {
  for (const name of added) await h.client.delete({ ...NODE, name }).catch(() => undefined);
});

const tolerating = (ns: string, name: string, ru: Record<string, unknown>, minReadySeconds = 0) =>
  nginxDaemonSet(ns, name, (ds) => {
    ds.spec['updateStrategy'] = {
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', ...ru },
    };
    ds.spec['minReadySeconds'] = minReadySeconds;
    (ds.spec.template.spec as Record<string, unknown>)['tolerations'] = [
      { key: taint.key, operator: 'Exists' },
    ];
  });

describe('Advanced DaemonSet and changing nodes', () => {
  it('a node added during a rollout gets a pod at the new revision; the rollout completes on every node', async () => {
    const ns = await namespace();
    await h.create(tolerating(ns, 'grow', { maxUnavailable: 1 }, 2));
    await settled(ns, 'grow', h.nodes.length);
    await h.setImage(ns, 'grow', 'nginx:1.29.0');
    await expect
      .poll(async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length, {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(1);
    const extra = await addNode('grow');
    await settled(ns, 'grow', h.nodes.length + 1, 150_000);
    const list = await pods(ns);
    expect(list.map(nodeOf).sort()).toEqual([...h.nodes, extra].sort());
    expect(list.every((p) => imageOf(p) === 'nginx:1.29.0' && isReady(p))).toBe(true);
  });

  it('node events all through a Standard rollout (a node relabelled every 100 ms): never two pods on a node', async () => {
    // each relabel reconciles every DaemonSet, so rounds start while the previous round's creates are on their way
    // to the cache (a round that read the pods before its expectations gate created a second pod on such a node)
    const ns = await namespace();
    const churn = await addNode('churn');
    await h.create(tolerating(ns, 'churned', { maxUnavailable: 2 }));
    await settled(ns, 'churned', h.nodes.length + added.length, 100_000);
    const rec = await recordPods(h.client, ns);
    const listed = rec.snapshots.length;
    let stop = false;
    const relabel = (async () => {
      for (let i = 0; !stop; i++) {
        await h.client.patch(
          { ...NODE, name: churn },
          { metadata: { labels: { [`regatta-test-churn-${id}`]: String(i) } } },
          { type: 'merge' },
        );
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      await h.setImage(ns, 'churned', 'nginx:1.29.0');
      await expect
        .poll(async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length, {
          timeout: 90_000,
        })
        .toBe(h.nodes.length + added.length);
    } finally {
      stop = true;
      await relabel;
    }
    await settled(ns, 'churned', h.nodes.length + added.length, 100_000);
    expect(maxPodsOnANode(rec, listed)).toBe(1);
  });

  it(
    'NoExecute taint: the pod goes; NotReady node (simulator annotation): the pod stays',
    { timeout: 180_000 },
    async () => {
      const ns = await namespace();
      const a = await addNode('taint');
      const b = await addNode('notready');
      await h.create(tolerating(ns, 'picky', { maxUnavailable: 1 }));
      // every node this file added so far runs the daemon (the first test's too)
      await settled(ns, 'picky', h.nodes.length + added.length, 100_000);
      const before = (await h.daemonSet(ns, 'picky')).status?.desiredNumberScheduled ?? 0;
      await h.client.patch(
        { ...NODE, name: a },
        { spec: { taints: [taint, { key: `evict-${id}`, effect: 'NoExecute' }] } },
        { type: 'merge' },
      );
      await h.client.patch(
        { ...NODE, name: b },
        { metadata: { annotations: { [NOT_READY_ANNOTATION]: 'true' } } },
        { type: 'merge' },
      );
      await expect
        .poll(async () => (await pods(ns)).map(nodeOf).includes(a), { timeout: 60_000 })
        .toBe(false);
      // neither node should run the daemon any more (an untolerated NoExecute taint on one, the simulator's
      // unreachable:NoSchedule on the other, as Kubernetes' NodeShouldRunDaemonPod decides), but the NotReady
      // node's pod may continue running
      await expect
        .poll(async () => (await h.daemonSet(ns, 'picky')).status?.desiredNumberScheduled, { timeout: 60_000 })
        .toBe(before - 2);
      expect((await pods(ns)).map(nodeOf)).toContain(b);
    },
  );
});
