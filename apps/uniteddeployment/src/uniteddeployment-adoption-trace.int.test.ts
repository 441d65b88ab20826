// Orphaned subset workloads are adopted (docs/uniteddeployment.md "Adoption", docs/adr/0029): a UnitedDeployment
// deleted with `propagationPolicy: Orphan` and created again takes its subsets back, and a subset whose owner
// reference was removed is adopted again; no workload is created, no pod replaced. And what a change looks like in
// Jaeger (docs/uniteddeployment.md "Following a change"): one trace per change, across rounds, with a span per subset
// written and links to the rollouts it caused in the subset CloneSets. And what the program reports on /metrics.
import { describe, expect, it } from 'vitest';
import { isNotFound, type KubeObject } from '@regatta/kube';
import { unitedDeployment } from './testing/fixtures.js';
import { UD_V1BETA1, useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

/** Each workload's name → the uid of its controller ('' for none). */
const controllers = async (ns: string, gvk: { apiVersion: string; kind: string }) =>
  Object.fromEntries(
    (await h.workloads(ns, gvk)).map((w: KubeObject) => [
      w.metadata?.name,
      w.metadata?.ownerReferences?.find((r) => r.controller)?.uid ?? '',
    ]),
  );
const podUids = async (ns: string) => (await h.pods(ns)).map((p) => p.metadata?.uid).sort();

describe('UnitedDeployment adoption', () => {
  it('deleted with propagationPolicy Orphan and created again: the subsets are adopted, pods kept', async () => {
    const ns = await h.namespace();
    const manifest = unitedDeployment(ns, 'adopt', {
      replicas: 4,
      subsets: [
        { name: 'a', zone: 'east' },
        { name: 'b', zone: 'west' },
      ],
    });
    const first = await h.create(manifest);
    await h.settled(ns, 'adopt', 4);
    const before = await controllers(ns, CS);
    expect(Object.values(before)).toEqual([first.metadata?.uid, first.metadata?.uid]);
    const pods = await podUids(ns);

    await h.remove(ns, 'adopt', 'Orphan');
    await expect
      .poll(
        async () => {
          // while it is there, its finalizers show what the deletion waits for
          const gone = await h.unitedDeployment(ns, 'adopt').then(
            (u) => u.metadata?.finalizers ?? [],
            (err: unknown) => isNotFound(err),
          );
          return { gone, controllers: Object.values(await controllers(ns, CS)) };
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toEqual({ gone: true, controllers: ['', ''] });

    const second = await h.create(manifest);
    expect(second.metadata?.uid).not.toBe(first.metadata?.uid);
    await expect
      .poll(async () => Object.values(await controllers(ns, CS)), { timeout: 60_000, interval: 1000 })
      .toEqual([second.metadata?.uid, second.metadata?.uid]);
    const ud = await h.settled(ns, 'adopt', 4);
    expect(Object.keys(await controllers(ns, CS)).sort()).toEqual(Object.keys(before).sort());
    expect(await podUids(ns)).toEqual(pods);
    expect(Object.fromEntries((ud.status?.subsetStatuses ?? []).map((s) => [s.name, s.replicas]))).toEqual({ a: 2, b: 2 });
    expect(ud.status?.currentRevision).toBe(ud.status?.updatedRevision);
    // the new UnitedDeployment created no subset (events are about the name, so count the creates of its uid)
    const creates = (await h.events(ns, 'SuccessfulUpdateSubset')).filter(
      (e) => e.involvedObject.uid === second.metadata?.uid && e.message?.startsWith('Create'),
    );
    expect(creates).toEqual([]);
  }, 300_000);

  it('a subset workload whose owner reference was removed (JSON patch) is adopted again', async () => {
    const ns = await h.namespace();
    const created = await h.create(
      unitedDeployment(ns, 'patched', {
        replicas: 2,
        template: 'deploymentTemplate',
        subsets: [
          { name: 'a', zone: 'east' },
          { name: 'b', zone: 'central' },
        ],
      }),
    );
    await h.settled(ns, 'patched', 2, 180_000);
    const before = await controllers(ns, DEPLOY);
    const pods = await podUids(ns);
    const [orphaned] = Object.keys(before) as [string];
    await h.client.patch(
      { ...DEPLOY, namespace: ns, name: orphaned },
      [{ op: 'remove', path: '/metadata/ownerReferences' }],
      { type: 'json' },
    );
    // adopted back (poll: the controller acts on the watch event)
    await expect
      .poll(async () => controllers(ns, DEPLOY), { timeout: 60_000, interval: 500 })
      .toEqual(before);
    await h.settled(ns, 'patched', 2, 180_000);
    expect(await controllers(ns, DEPLOY)).toEqual(before);
    expect(await podUids(ns)).toEqual(pods);
    expect((await h.client.get({ ...UD_V1BETA1, namespace: ns, name: 'patched' })).metadata?.uid).toBe(created.metadata?.uid);
  }, 300_000);
});

describe('UnitedDeployment traces', () => {
  it('a change is one trace across its rounds: a span per subset written, links to the subset rollouts, ended once ready', async () => {
    const ns = await h.namespace();
    await h.create(
      unitedDeployment(ns, 'traced', {
        replicas: 3,
        subsets: [
          { name: 'a', zone: 'east' },
          { name: 'b', zone: 'west' },
          { name: 'c', zone: 'central' },
        ],
      }),
    );
    const recordOf = async () => {
      const raw = (await h.client.get({ ...UD_V1BETA1, namespace: ns, name: 'traced' })).metadata?.annotations?.['regatta.dev/rollout-trace'];
      return raw ? (JSON.parse(raw) as { traceparent: string; generation?: number; done?: boolean }) : undefined;
    };
    const traceOf = (traceparent: string | undefined) => traceparent?.split('-')[1] ?? '';
    /**
     * A trace's spans as `<operation> <subset> <reason>`, without the rewrites of a subset whose pods are still rolling
     * (reason `rolling`, as upstream rewrites them every round: how many depends on timing).
     */
    const spansOf = async (traceparent: string | undefined) => {
      const t = (await h.traces(ns)).find((x) => x.traceID === traceOf(traceparent));
      return (t?.spans ?? [])
        .filter((sp) => sp.tags['uniteddeployment.reason'] !== 'rolling')
        .map((sp) =>
          `${sp.operationName} ${String(sp.tags['uniteddeployment.subset'] ?? '')} ${String(sp.tags['uniteddeployment.reason'] ?? '')}`.trim(),
        )
        .sort();
    };

    // the creation: one trace, ended once every replica is updated and ready
    await h.settled(ns, 'traced', 3);
    await expect.poll(async () => (await recordOf())?.done, { timeout: 90_000, interval: 1000 }).toBe(true);
    const created = await recordOf();
    expect(created?.generation).toBe(1);
    await expect
      .poll(() => spansOf(created?.traceparent), { timeout: 60_000, interval: 2000 })
      .toEqual([
        'uniteddeployment.rollout',
        'uniteddeployment.subset-create a',
        'uniteddeployment.subset-create b',
        'uniteddeployment.subset-create c',
      ]);

    // a template change: a new trace writes the new revision to every subset and links to each CloneSet's rollout
    await h.patch(ns, 'traced', {
      spec: { template: { cloneSetTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29.0' }] } } } } } },
    });
    await h.settled(ns, 'traced', 3);
    await expect
      .poll(async () => {
        const r = await recordOf();
        return r?.generation === 2 && r.done === true;
      }, { timeout: 90_000, interval: 1000 })
      .toBe(true);
    const changed = await recordOf();
    expect(traceOf(changed?.traceparent)).not.toBe(traceOf(created?.traceparent));
    const subsetRollouts = async () =>
      Object.fromEntries(
        (await h.workloads(ns, CS)).map((w: KubeObject) => [
          w.metadata?.labels?.['apps.kruise.io/subset-name'],
          traceOf((JSON.parse(w.metadata?.annotations?.['regatta.dev/rollout-trace'] ?? '{}') as { traceparent?: string }).traceparent),
        ]),
      );
    const linked = async () => {
      const t = (await h.traces(ns)).find((x) => x.traceID === traceOf(changed?.traceparent));
      return Object.fromEntries(
        (t?.spans ?? [])
          .filter((sp) => sp.operationName === 'uniteddeployment.subset-rollout')
          .map((sp) => [String(sp.tags['uniteddeployment.subset']), sp.links[0] ?? '']),
      );
    };
    await expect
      .poll(() => spansOf(changed?.traceparent), { timeout: 60_000, interval: 2000 })
      .toEqual([
        'uniteddeployment.rollout',
        'uniteddeployment.subset-rollout a',
        'uniteddeployment.subset-rollout b',
        'uniteddeployment.subset-rollout c',
        'uniteddeployment.subset-update a revision',
        'uniteddeployment.subset-update b revision',
        'uniteddeployment.subset-update c revision',
      ]);
    expect(await linked()).toEqual(await subsetRollouts());
  }, 400_000);
});

describe('UnitedDeployment program metrics', () => {
  it('/metrics shows the program leading its Lease and the bus lag of each cache it fills', async () => {
    const ns = await h.namespace();
    await h.create(unitedDeployment(ns, 'metered', { replicas: 1, subsets: [{ name: 'a', zone: 'east' }] }));
    await h.settled(ns, 'metered', 1);
    await expect
      .poll(() => h.metrics(), { timeout: 30_000, interval: 1000 })
      .toMatch(/leader_election_master_status\{name="regatta-uniteddeployment"\} 1/);
    const metrics = await h.metrics();
    for (const cache of ['uniteddeployments', 'clonesets', 'pods']) {
      const count = new RegExp(`regatta_bus_event_lag_seconds_count\\{cache="${cache}"\\} (\\d+)`).exec(metrics);
      expect(Number(count?.[1] ?? 0), cache).toBeGreaterThan(0);
    }
  }, 300_000);
});
