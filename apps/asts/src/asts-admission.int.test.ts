// Advanced StatefulSet admission on the shared local cluster (S1 §1.3.2): the program's webhooks default
// and validate as OpenKruise and answer a 422 naming the field; a set stored without the webhooks that fails the same
// rules is not acted on (InvalidSpec event, no pod).
import { describe, expect, it } from 'vitest';
import { ASTS, demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();

const errorOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { status?: number; message?: string } | undefined;

describe('Advanced StatefulSet admission', () => {
  it("S1 §1.3.2's rollingUpdate.podUpdatePolicy: Parallel is refused, naming the field and where parallelism lives", async () => {
    const ns = await h.namespace();
    const sts = demo(ns, 'mysql-cluster');
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'Parallel', maxUnavailable: 2, paused: false },
    };
    const err = await errorOf(h.create(sts));
    expect(err?.status).toBe(422);
    expect(err?.message).toContain('spec.updateStrategy.rollingUpdate.podUpdatePolicy');
    expect(err?.message).toContain('podManagementPolicy');
  });

  it('maxUnavailable ≠ 1 with OrderedReady is refused; defaults are filled on create', async () => {
    const ns = await h.namespace();
    const bad = demo(ns, 'ordered');
    bad.spec.podManagementPolicy = 'OrderedReady';
    const err = await errorOf(h.create(bad));
    expect(err?.status).toBe(422);
    expect(err?.message).toContain('spec.updateStrategy.rollingUpdate.maxUnavailable');

    const ok = demo(ns, 'defaults');
    delete ok.spec.updateStrategy;
    delete ok.spec.podManagementPolicy;
    ok.spec.replicas = 1;
    const stored = await h.create(ok);
    expect(stored.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      revisionHistoryLimit: 10,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' },
      },
    });
    await h.settled(ns, 'defaults', 1);
  });

  it('InPlaceIfPossible without the InPlaceUpdateReady readiness gate is refused', async () => {
    const ns = await h.namespace();
    const sts = demo(ns, 'nogate');
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 },
    };
    const err = await errorOf(h.create(sts));
    expect(err?.status).toBe(422);
    expect(err?.message).toContain('InPlaceUpdateReady');
  });

  it('update rules: InPlaceOnly allows only image changes; serviceName is immutable', async () => {
    const ns = await h.namespace();
    const sts = demo(ns, 'only');
    sts.spec.replicas = 1;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', maxUnavailable: 1 },
    };
    sts.spec['template'] = {
      metadata: { labels: { app: 'only' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'nginx', image: 'nginx:1.25' }],
      },
    };
    await h.create(sts);
    const env = await errorOf(
      h.client.patch(
        { ...ASTS, namespace: ns, name: 'only' },
        [{ op: 'add', path: '/spec/template/spec/containers/0/env', value: [{ name: 'A', value: 'b' }] }],
        { type: 'json' },
      ),
    );
    expect(env?.status).toBe(422);
    expect(env?.message).toContain('only image update is allowed for InPlaceOnly');
    await h.setImage(ns, 'only', 'nginx:1.27');
    const svc = await errorOf(h.patch(ns, 'only', { spec: { serviceName: 'other' } }));
    expect(svc?.status).toBe(422);
    await h.settled(ns, 'only', 1, 90_000);
  });
});

describe('Advanced StatefulSet without webhooks', () => {
  const bare = useAstsScenarios({ webhooks: false });
  it('an invalid stored set: InvalidSpec event, no pod created', async () => {
    const ns = await bare.namespace();
    const sts = demo(ns, 'bad');
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'Parallel', maxUnavailable: 2 },
    };
    await bare.client.create({ ...sts, ...ASTS });
    await expect
      .poll(async () => (await bare.events(ns, 'InvalidSpec')).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect((await bare.events(ns, 'InvalidSpec'))[0]!.message).toContain(
      'spec.updateStrategy.rollingUpdate.podUpdatePolicy',
    );
    expect(await bare.pods(ns)).toEqual([]);
  });
});
