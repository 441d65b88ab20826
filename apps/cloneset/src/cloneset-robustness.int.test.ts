// What the API server accepts without the admission webhooks (only the CRD schema checks it) must never stop the
// controller or make it act wrongly: a CloneSet that fails the admission rules is left alone with an event saying
// why, and every other CloneSet keeps being served. Runs the cloneset program with no webhooks; the same bad shapes
// with the webhooks on are denied in cloneset.int.test.ts.
import { describe, expect, it } from 'vitest';
import { CS, type CloneSet, useCloneSetScenarios } from './testing/scenario-harness.js';
import { BAD_SHAPES, LONG_NAME, demo } from './testing/bad-shapes.js';
import { sleep } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios({ webhooks: false });
const { namespace, events, settled } = h;

describe('CloneSet robustness (no webhooks)', () => {
  it('bad values the schema lets through: events say what is wrong, no pod is touched, the controller keeps serving', async () => {
    const ns = await namespace();
    const bad = [
      demo(
        ns,
        'bad-partition',
        (cs) => (cs.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 'abc' }),
      ),
      demo(ns, 'bad-unavailable', (cs) => (cs.spec.updateStrategy = { maxUnavailable: 'lots%' })),
      demo(ns, 'bad-scale-unavailable', (cs) => (cs.spec['scaleStrategy'] = { maxUnavailable: 'x' })),
      demo(ns, 'selector-mismatch', (cs) => (cs.spec['selector'] = { matchLabels: { app: 'other' } })),
      demo(ns, 'bad-selector', (cs) => {
        cs.spec['selector'] = { matchExpressions: [{ key: 'app', operator: 'Sometimes', values: ['cs'] }] };
      }),
    ];
    for (const cs of bad) await h.client.create(cs);
    // a good CloneSet created after them (in its own namespace) is served as usual
    const goodNs = await namespace();
    await h.client.create(demo(goodNs, 'good', () => undefined));
    await settled(goodNs, 'good', 3);

    // the ones the admission rules reject: no pod is touched, and an event says what to fix
    await expect
      .poll(async () => (await events(ns, 'InvalidSpec')).map((e) => e.involvedObject.name).sort(), {
        timeout: 30_000,
      })
      .toEqual(['bad-partition', 'bad-selector', 'bad-unavailable', 'selector-mismatch']);
    const message = (await events(ns, 'InvalidSpec')).find(
      (e) => e.involvedObject.name === 'bad-unavailable',
    )!.message;
    expect(message).toMatch(
      /^not acting on this CloneSet until it is fixed: spec\.updateStrategy\.maxUnavailable/,
    );
    // scaleStrategy.maxUnavailable is not validated upstream either: an unparsable one counts as 0 and the
    // ScaleUpLimited event says so
    await expect
      .poll(async () => (await events(ns, 'ScaleUpLimited')).map((e) => [e.involvedObject.name, e.message]), {
        timeout: 30_000,
      })
      .toContainEqual([
        'bad-scale-unavailable',
        'scaleUp is limited because of scaleStrategy.maxUnavailable, limit: 0',
      ]);
    const owners = (await h.client.list({ apiVersion: 'v1', kind: 'Pod', namespace: ns })).items.map(
      (p) => p.metadata?.ownerReferences?.[0]?.name,
    );
    for (const name of ['bad-partition', 'bad-selector', 'bad-unavailable', 'selector-mismatch'])
      expect(owners).not.toContain(name);
    h.controller.assertRunning();

    // and the controller still acts on the good one afterwards
    await h.patch(goodNs, 'good', { spec: { replicas: 1 } });
    await settled(goodNs, 'good', 1);
    h.controller.assertRunning();
  });
});

describe('CloneSet robustness: wrongly typed templates, long names, reserved labels (issue 8)', () => {
  it('without the webhooks: InvalidSpec naming the field, no pod, no spinning', async () => {
    const ns = await namespace();
    const names = [...Object.keys(BAD_SHAPES), LONG_NAME];
    for (const [name, [edit]] of Object.entries(BAD_SHAPES)) await h.client.create(demo(ns, name, edit));
    await h.client.create(demo(ns, LONG_NAME, () => undefined));

    await expect
      .poll(
        async () => [...new Set((await events(ns, 'InvalidSpec')).map((e) => e.involvedObject.name))].sort(),
        {
          timeout: 30_000,
        },
      )
      .toEqual([...names].sort());
    const invalid = await events(ns, 'InvalidSpec');
    for (const [name, [, field]] of Object.entries(BAD_SHAPES)) {
      const message = invalid.find((e) => e.involvedObject.name === name)!.message;
      expect(message, name).toContain(`not acting on this CloneSet until it is fixed: ${field}`);
    }
    expect(invalid.find((e) => e.involvedObject.name === LONG_NAME)!.message).toContain('metadata.name');

    // no spinning: the objects are not written (no status), and the event is not repeated in a loop
    const versions = async () =>
      Object.fromEntries(
        (await h.client.list<CloneSet>({ ...CS, namespace: ns })).items.map((c) => [
          c.metadata!.name,
          c.metadata!.resourceVersion,
        ]),
      );
    const before = await versions();
    await sleep(5_000);
    expect(await versions()).toEqual(before);
    for (const e of await events(ns, 'InvalidSpec'))
      expect((e as { count?: number }).count ?? 1).toBeLessThanOrEqual(3);
    expect(await h.pods(ns)).toEqual([]);
    h.controller.assertRunning();
  });
});
