// What the API server accepts without the admission webhooks (only the CRD schema checks it) must never stop the
// controller or make it act wrongly: a CloneSet that fails the admission rules is left alone with an event saying
// why, and every other CloneSet keeps being served. Runs the cloneset program with no webhooks.
import { describe, expect, it } from 'vitest';
import { CS, type CloneSet, seed, useCloneSetScenarios } from './testing/scenario-harness.js';
import { sleep } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios({ webhooks: false });
const { namespace, events, settled } = h;

/** cs-demo named `name`, selecting and labelling its pods `app: <name>` (no two CloneSets share pods). */
function demo(ns: string, name: string, edit: (cs: CloneSet) => void): CloneSet {
  const cs = seed('s1-2-cs-demo.yaml');
  cs.metadata = { name, namespace: ns };
  cs.spec['selector'] = { matchLabels: { app: name } };
  (cs.spec['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels = { app: name };
  edit(cs);
  return cs;
}

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

// Issue 8 (defects 5, 7, 8): wrongly typed templates, names over 52 characters and template labels the controller
// sets itself. With the webhooks on, each is denied with 422 naming the field; with them off, the reconciler says
// InvalidSpec once per change, creates nothing and does not spin.
type Json = Record<string, unknown>;
const podSpecOf = (cs: CloneSet): Json => (cs.spec['template'] as { spec: Json }).spec;
const firstContainerOf = (cs: CloneSet): Json => (podSpecOf(cs)['containers'] as Json[])[0]!;
const templateLabelsOf = (cs: CloneSet): Json =>
  (cs.spec['template'] as { metadata: { labels: Json } }).metadata.labels;

/** Bad shapes the CRD schema lets through (the template is kept whole): name → [edit, field the error names]. */
const BAD_SHAPES: Record<string, [(cs: CloneSet) => void, string]> = {
  'containers-object': [(cs) => (podSpecOf(cs)['containers'] = {}), 'spec.template.spec.containers'],
  'container-null': [(cs) => (podSpecOf(cs)['containers'] = [null]), 'spec.template.spec.containers[0]'],
  'port-null': [(cs) => (firstContainerOf(cs)['ports'] = [null]), 'spec.template.spec.containers[0].ports[0]'],
  'volumes-string': [(cs) => (podSpecOf(cs)['volumes'] = 'abc'), 'spec.template.spec.volumes'],
  'env-null': [(cs) => (firstContainerOf(cs)['env'] = [null]), 'spec.template.spec.containers[0].env[0]'],
  'port-name-number': [
    (cs) => (firstContainerOf(cs)['ports'] = [{ name: 8080, containerPort: 80 }]),
    'spec.template.spec.containers[0].ports[0].name',
  ],
  'specified-delete': [
    (cs) => (templateLabelsOf(cs)['apps.kruise.io/specified-delete'] = 'true'),
    'spec.template.metadata.labels[apps.kruise.io/specified-delete]',
  ],
};
const LONG_NAME = `long-${'n'.repeat(48)}`; // 53 characters

const hw = useCloneSetScenarios();

describe('CloneSet robustness: wrongly typed templates, long names, reserved labels (issue 8)', () => {
  it('with the webhooks: each is denied with 422 naming the field, not an internal error', async () => {
    const ns = await hw.namespace();
    const cases: [string, CloneSet, string][] = Object.entries(BAD_SHAPES).map(([name, [edit, field]]) => [
      name,
      demo(ns, name, edit),
      field,
    ]);
    cases.push(['long-name', demo(ns, LONG_NAME, () => undefined), 'metadata.name']);
    cases.push([
      'claim-null',
      demo(ns, 'claim-null', (cs) => (cs.spec['volumeClaimTemplates'] = [null])),
      'spec.volumeClaimTemplates[0]',
    ]);
    for (const [name, cs, field] of cases) {
      const err = (await hw.client.create(cs).catch((e: unknown) => e)) as { status?: number; message?: string };
      expect({ name, status: err.status }).toEqual({ name, status: 422 });
      expect(err.message, name).toContain(field);
      expect(err.message, name).not.toMatch(/TypeError|Cannot read|internal/i);
    }
    expect(await hw.pods(ns)).toEqual([]);
    hw.controller.assertRunning();
  });

  it('without the webhooks: InvalidSpec naming the field, no pod, no spinning', async () => {
    const ns = await namespace();
    const names = [...Object.keys(BAD_SHAPES), LONG_NAME];
    for (const [name, [edit]] of Object.entries(BAD_SHAPES)) await h.client.create(demo(ns, name, edit));
    await h.client.create(demo(ns, LONG_NAME, () => undefined));

    await expect
      .poll(async () => [...new Set((await events(ns, 'InvalidSpec')).map((e) => e.involvedObject.name))].sort(), {
        timeout: 30_000,
      })
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
    for (const e of await events(ns, 'InvalidSpec')) expect((e as { count?: number }).count ?? 1).toBeLessThanOrEqual(3);
    expect(await h.pods(ns)).toEqual([]);
    h.controller.assertRunning();
  });
});
