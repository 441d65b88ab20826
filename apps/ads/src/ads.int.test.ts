// Advanced DaemonSet scenarios on the shared local cluster and its simulated nodes (docs/ads.md; OpenKruise
// test/e2e/apps/v1beta1/daemonset.go; S1 §4.1): one pod per eligible node, nodeSelector over node labels, a deleted
// pod revived, in-place image update keeping pod UIDs, the webhook refusing an invalid DaemonSet.
import { describe, expect, it } from 'vitest';
import { isReady, nginxDaemonSet, nodeOf, useDaemonSetScenarios } from './testing/scenario-harness.js';
import { imageOf } from '@regatta/testing';

const h = useDaemonSetScenarios();
const { namespace, pods, settled } = h;
const uid = (p: { metadata?: { uid?: string } }) => p.metadata?.uid ?? '';

describe('Advanced DaemonSet', () => {
  it('runs one pod on every node (the seed nginx), kubectl get daemon columns from the status; a deleted pod is revived', async () => {
    const ns = await namespace();
    await h.create(nginxDaemonSet(ns, 'nginx'));
    const ds = await settled(ns, 'nginx', h.nodes.length);
    expect(ds.status).toMatchObject({
      numberReady: h.nodes.length,
      numberMisscheduled: 0,
      numberUnavailable: 0,
    });
    const list = await pods(ns);
    expect(list.map(nodeOf).sort()).toEqual([...h.nodes].sort());
    expect(list.every((p) => p.metadata?.name?.startsWith('nginx-'))).toBe(true);
    await expect.poll(async () => (await h.events(ns, 'SuccessfulCreate')).length).toBe(h.nodes.length);
    const victim = list[0]!;
    await h.client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: victim.metadata!.name! });
    await expect
      .poll(
        async () =>
          (await pods(ns)).filter((p) => nodeOf(p) === nodeOf(victim) && uid(p) !== uid(victim) && isReady(p))
            .length,
        { timeout: 60_000 },
      )
      .toBe(1);
  });

  it('nodeSelector: no pod until a node is labelled; relabelled → its pod goes; selector changed → pod back', async () => {
    const ns = await namespace();
    const key = `regatta-test-color-${ns}`;
    await h.create(
      nginxDaemonSet(ns, 'picky', (ds) => {
        (ds.spec.template.spec as Record<string, unknown>)['nodeSelector'] = { [key]: 'blue' };
      }),
    );
    await settled(ns, 'picky', 0);
    const [n0, n1] = h.nodes as [string, string];
    await h.labelNode(n0, key, 'blue');
    await settled(ns, 'picky', 1);
    expect((await pods(ns)).map(nodeOf)).toEqual([n0]);
    await h.labelNode(n0, key, 'green');
    await settled(ns, 'picky', 0);
    await h.labelNode(n1, key, 'green');
    await h.client.patch(
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', namespace: ns, name: 'picky' },
      [{ op: 'replace', path: `/spec/template/spec/nodeSelector`, value: { [key]: 'green' } }],
      { type: 'json' },
    );
    await settled(ns, 'picky', 2);
    expect((await pods(ns)).map(nodeOf).sort()).toEqual([n0, n1].sort());
  });

  it('InPlaceIfPossible: an image change updates every pod in place (same names and UIDs, InPlaceUpdateReady gate)', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'inplace', (ds) => {
        ds.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 },
        };
      }),
    );
    await settled(ns, 'inplace', h.nodes.length);
    const before = new Map((await pods(ns)).map((p) => [uid(p), p.metadata!.name!]));
    await h.setImage(ns, 'inplace', 'nginx:1.29.0');
    await expect
      .poll(
        async () =>
          (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0' && isReady(p)).length,
        { timeout: 90_000 },
      )
      .toBe(h.nodes.length);
    await settled(ns, 'inplace', h.nodes.length);
    const after = await pods(ns);
    expect(new Map(after.map((p) => [uid(p), p.metadata!.name!]))).toEqual(before);
    expect(
      after.every((p) =>
        (p.spec as { readinessGates?: { conditionType: string }[] }).readinessGates?.some(
          (g) => g.conditionType === 'InPlaceUpdateReady',
        ),
      ),
    ).toBe(true);
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulUpdatePodInPlace')).length)
      .toBe(h.nodes.length);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([]);
    // one trace for the rollout (service regatta-ads): its root and one in-place span per node
    await expect
      .poll(
        async () =>
          (await h.rolloutSpans(ns, 'inplace'))
            .map(
              (sp) =>
                `${sp.operationName}${sp.tags['daemonset.update.type'] ? ` ${String(sp.tags['daemonset.update.type'])}` : ''}`,
            )
            .sort(),
        { timeout: 40_000, interval: 1000 },
      )
      .toEqual([...h.nodes.map(() => 'daemonset.pod-update in-place'), 'daemonset.rollout']);
  });

  it('the webhook refuses maxSurge with a non-zero maxUnavailable, naming the field', async () => {
    const ns = await namespace();
    const err = await h
      .create(
        nginxDaemonSet(ns, 'bad', (ds) => {
          ds.spec['updateStrategy'] = {
            type: 'RollingUpdate',
            rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 1 },
          };
        }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(String(err)).toMatch(/maxSurge/);
  });
});
