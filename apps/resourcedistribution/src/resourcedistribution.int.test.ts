// ResourceDistribution scenarios on the shared local cluster (spec: docs/resourcedistribution.md; upstream
// test/e2e/apps/v1alpha1|v1beta1/resourcedistribution.go): the seed's distribution over ns-1…ns-5, continuous sync
// (an edited copy reverted, a deleted one recreated), namespaces added, relabelled and deleted, a foreign object left
// alone, a Secret whose data never reaches the bus, admission (422 with field paths, 403 with the gate off), traces,
// and the program killed with SIGKILL in the middle of a 200-namespace distribution.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { goJson, type ResourceDistribution } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { RD, RD_V1ALPHA1, seedText, useResourceDistributionScenarios } from './testing/harness.js';

const h = useResourceDistributionScenarios();
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;
const FROM = 'kruise.io/resourcedistribution.resource.from';
const HASH = 'kruise.io/resourcedistribution.resource.hashcode';
const TIMESTAMP = 'kruise.io/resourcedistribution.resource.distributed.timestamp';
const POLL = { timeout: 60_000, interval: 500 };
type Data = KubeObject & { data?: Record<string, string> };

const namespace = async (name: string, labels: Record<string, string> = {}) =>
  h.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const copyIn = (ref: typeof CM | typeof SECRET, ns: string, name: string) =>
  h.client.getOrUndefined<Data>({ ...ref, namespace: ns, name });
const holders = async (ref: typeof CM | typeof SECRET, name: string, namespaces: string[]) => {
  const out: string[] = [];
  for (const ns of namespaces) if (await copyIn(ref, ns, name)) out.push(ns);
  return out;
};
const sha256 = (resource: unknown) => createHash('sha256').update(goJson(resource)).digest('hex');
const conditionSummary = (rd: ResourceDistribution) =>
  (rd.status?.conditions ?? []).map((c) => `${c.type}=${c.status}${c.failedNamespaces ? `:${c.failedNamespaces.join(',')}` : ''}`);
const patchTargets = (name: string, targets: Record<string, unknown>) =>
  h.client.patch({ ...RD, name }, { spec: { targets } }, { type: 'merge' });

const NS = ['ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5'];

describe('the seed: ResourceDistribution "sample" of the ConfigMap game-demo', () => {
  it('applies unchanged and distributes exactly where the targets say, with the two annotations', async () => {
    // included {ns-1, ns-4}, selector group=test, excluded {ns-3}
    await namespace('ns-1', { group: 'test' });
    await namespace('ns-2', { group: 'test' });
    await namespace('ns-3', { group: 'test' });
    await namespace('ns-4');
    await namespace('ns-5', { group: 'other' });
    const applied = await h.kubectl(['apply', '-f', '-'], seedText('seed-resourcedistribution.yaml'));
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('resourcedistribution.apps.kruise.io/sample created');

    await expect.poll(() => holders(CM, 'game-demo', NS), POLL).toEqual(['ns-1', 'ns-2', 'ns-4']);
    const rd = await h.distribution('sample');
    for (const ns of ['ns-1', 'ns-2', 'ns-4']) {
      const copy = (await copyIn(CM, ns, 'game-demo'))!;
      expect(copy.metadata?.annotations?.[FROM]).toBe('sample');
      expect(copy.metadata?.annotations?.[HASH]).toBe(sha256(rd.spec.resource));
      expect(copy.metadata?.annotations?.[TIMESTAMP]).toBeUndefined();
      expect(copy.data?.['player_initial_lives']).toBe('3');
      expect(copy.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', name: 'sample', uid: rd.metadata?.uid, controller: true }),
      ]);
    }
    await expect
      .poll(async () => {
        const s = (await h.distribution('sample')).status;
        return [s?.desired, s?.succeeded, s?.failed, s?.observedGeneration];
      }, POLL)
      .toEqual([3, 3, 0, rd.metadata?.generation]);
    expect(conditionSummary(await h.distribution('sample'))).toEqual([
      'GetResourceFailed=False',
      'CreateResourceFailed=False',
      'UpdateResourceFailed=False',
      'DeleteResourceFailed=False',
      'ConflictOccurred=False',
      'NamespaceNotExists=False',
    ]);
    const table = await h.kubectl(['get', 'distributor', 'sample']);
    expect(table.stdout.split('\n')[0]?.split(/\s+/).filter(Boolean)).toEqual(['NAME', 'TOTAL', 'SUCCEED', 'FAILED']);
    expect(table.stdout.split('\n')[1]?.split(/\s+/).filter(Boolean)).toEqual(['sample', '3', '3', '0']);
  });

  it('reads back through v1beta1 with namespaceSelector, and through v1alpha1 with namespaceLabelSelector', async () => {
    const beta = await h.distribution('sample');
    expect(beta.spec.targets.namespaceSelector).toEqual({ matchLabels: { group: 'test' } });
    const alpha = await h.client.get<ResourceDistribution>({ ...RD_V1ALPHA1, name: 'sample' });
    expect(alpha.spec.targets.namespaceLabelSelector).toEqual({ matchLabels: { group: 'test' } });
    expect(alpha.status?.conditions?.every((c) => c.type && c.status === 'False')).toBe(true);
  });

  it('reverts an edited copy and recreates a deleted one', async () => {
    const before = (await copyIn(CM, 'ns-1', 'game-demo'))!;
    await h.client.patch({ ...CM, namespace: 'ns-1', name: 'game-demo' }, { data: { player_initial_lives: '99' } }, { type: 'merge' });
    await expect.poll(async () => (await copyIn(CM, 'ns-1', 'game-demo'))?.data?.['player_initial_lives'], POLL).toBe('3');
    expect((await copyIn(CM, 'ns-1', 'game-demo'))?.data).toEqual(before.data);

    await h.client.delete({ ...CM, namespace: 'ns-2', name: 'game-demo' });
    await expect.poll(async () => (await copyIn(CM, 'ns-2', 'game-demo'))?.data?.['player_initial_lives'], POLL).toBe('3');
  });

  it('follows namespaces: added, relabelled (in and out) and deleted', async () => {
    await namespace('ns-6', { group: 'test' });
    await expect.poll(() => copyIn(CM, 'ns-6', 'game-demo'), POLL).toBeDefined();
    await h.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: 'ns-5' }, { metadata: { labels: { group: 'test' } } }, { type: 'merge' });
    await expect.poll(() => copyIn(CM, 'ns-5', 'game-demo'), POLL).toBeDefined();
    await h.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: 'ns-2' }, { metadata: { labels: { group: 'other' } } }, { type: 'merge' });
    await expect.poll(() => copyIn(CM, 'ns-2', 'game-demo'), POLL).toBeUndefined();

    // ns-4 is listed by name: once deleted, it is a target that does not exist
    await h.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: 'ns-4' });
    await expect
      .poll(async () => conditionSummary(await h.distribution('sample'))[5], POLL)
      .toBe('NamespaceNotExists=True:ns-4');
    const s = (await h.distribution('sample')).status;
    expect([s?.desired, s?.succeeded, s?.failed]).toEqual([4, 3, 1]);
    expect(await holders(CM, 'game-demo', ['ns-1', 'ns-2', 'ns-3', 'ns-5', 'ns-6'])).toEqual(['ns-1', 'ns-5', 'ns-6']);
  });

  it('leaves a foreign object of the same name alone (ConflictOccurred)', async () => {
    await namespace('ns-7');
    const foreign = await h.client.create<Data>({ ...CM, metadata: { name: 'game-demo', namespace: 'ns-7' }, data: { mine: 'yes' } });
    await patchTargets('sample', {
      includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-7' }] },
      namespaceLabelSelector: { matchLabels: { group: 'test' } },
      excludedNamespaces: { list: [{ name: 'ns-3' }] },
    });
    await expect
      .poll(async () => conditionSummary(await h.distribution('sample'))[4], POLL)
      .toBe('ConflictOccurred=True:ns-7');
    const after = (await copyIn(CM, 'ns-7', 'game-demo'))!;
    expect(after.metadata?.resourceVersion).toBe(foreign.metadata?.resourceVersion);
    expect(after.data).toEqual({ mine: 'yes' });
    expect(after.metadata?.ownerReferences).toBeUndefined();
    // ns-4 left the targets: no NamespaceNotExists any more
    expect(conditionSummary(await h.distribution('sample'))[5]).toBe('NamespaceNotExists=False');
  });

  it('deleting the distribution removes its copies, never the foreign object', async () => {
    await h.client.delete({ ...RD, name: 'sample' });
    await expect.poll(() => holders(CM, 'game-demo', ['ns-1', 'ns-5', 'ns-6']), POLL).toEqual([]);
    expect((await copyIn(CM, 'ns-7', 'game-demo'))?.data).toEqual({ mine: 'yes' });
  });
});

describe('a Secret distribution', () => {
  const CLEAR = 'correct-horse-battery-staple';
  const CLEAR_DATA = 'tr0ub4dor&3';
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('copies the Secret, and neither the distribution nor the copies carry its data on the bus', async () => {
    await namespace(`sec-a-${h.id}`, { [`secret-${h.id}`]: 'yes' });
    await namespace(`sec-b-${h.id}`, { [`secret-${h.id}`]: 'yes' });
    await h.client.create({
      ...RD,
      metadata: { name: `secret-${h.id}` },
      spec: {
        resource: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'db-password' },
          type: 'Opaque',
          stringData: { password: CLEAR },
          data: { token: b64(CLEAR_DATA) },
        },
        targets: { namespaceSelector: { matchLabels: { [`secret-${h.id}`]: 'yes' } } },
      },
    });
    const namespaces = [`sec-a-${h.id}`, `sec-b-${h.id}`];
    await expect.poll(() => holders(SECRET, 'db-password', namespaces), POLL).toEqual(namespaces);
    for (const ns of namespaces) {
      expect((await copyIn(SECRET, ns, 'db-password'))?.data).toEqual({ password: b64(CLEAR), token: b64(CLEAR_DATA) });
    }
    await expect.poll(async () => (await h.distribution(`secret-${h.id}`)).status?.succeeded, POLL).toBe(2);

    // the watcher mirrored the distribution and its copies: read every bucket of this file's bus as it is stored
    await expect
      .poll(async () => (await h.busContents()).filter((v) => v.includes('db-password')).length, POLL)
      .toBeGreaterThanOrEqual(3);
    const contents = await h.busContents();
    for (const secret of [CLEAR, b64(CLEAR), CLEAR_DATA, b64(CLEAR_DATA)]) {
      expect(contents.filter((v) => v.includes(secret))).toEqual([]);
    }
    // an edited copy is reverted even though the bus never shows its data
    await h.client.patch({ ...SECRET, namespace: namespaces[0]!, name: 'db-password' }, { data: { token: b64('x') } }, { type: 'merge' });
    await expect
      .poll(async () => (await copyIn(SECRET, namespaces[0]!, 'db-password'))?.data?.['token'], POLL)
      .toBe(b64(CLEAR_DATA));
  });

  it('a change of the data reaches every copy, still never on the bus', async () => {
    const name = `secret-${h.id}`;
    const rd = await h.distribution(name);
    const resource: Record<string, unknown> = { ...rd.spec.resource, data: { token: b64('rotated-Secret-42') } };
    resource['stringData'] = null; // a merge patch removes it
    await h.client.patch({ ...RD, name }, { spec: { resource } }, { type: 'merge' });
    for (const ns of [`sec-a-${h.id}`, `sec-b-${h.id}`]) {
      await expect.poll(async () => (await copyIn(SECRET, ns, 'db-password'))?.data, POLL).toEqual({ token: b64('rotated-Secret-42') });
    }
    const contents = await h.busContents();
    expect(contents.filter((v) => v.includes('rotated-Secret-42') || v.includes(b64('rotated-Secret-42')))).toEqual([]);
  });

  it('traces a round with a child span per namespace written (service regatta-resourcedistribution)', async () => {
    const name = `secret-${h.id}`;
    await expect
      .poll(async () => {
        const traces = await h.traces('resourcedistribution.distribute');
        return traces.some((spans) => {
          const round = spans.find((s) => s.operationName === 'resourcedistribution.distribute' && s.tags['resourcedistribution.name'] === name);
          return !!round && spans.some((s) => s.operationName === 'resourcedistribution.write' && s.parentSpanId === round.spanId);
        });
      }, { timeout: 60_000, interval: 2_000 })
      .toBe(true);
  });
});

describe('admission', () => {
  it('answers 422 with field paths', async () => {
    const res = await h.kubectl(
      ['create', '-f', '-'],
      JSON.stringify({
        ...RD,
        metadata: { name: `bad-${h.id}` },
        spec: {
          resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
          targets: { includedNamespaces: { list: [{ name: 'INVALID' }, { name: 'ns-9' }] }, excludedNamespaces: { list: [{ name: 'ns-9' }] } },
        },
      }),
    );
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('spec.targets.includedNamespaces: Invalid value: "INVALID"');
    expect(res.stderr).toContain('ambiguous targets because namespace [ns-9] is in both IncludedNamespaces.List and ExcludedNamespaces.List');
  });

  it('refuses an unsupported kind and a resource rename', async () => {
    const kind = await h.kubectl(
      ['create', '-f', '-'],
      JSON.stringify({ ...RD, metadata: { name: `dep-${h.id}` }, spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, targets: {} } }),
    );
    expect(kind.stderr).toContain('unknown or unsupported resource GroupKind, only support [Secret ConfigMap]');
    await h.client.create({ ...RD, metadata: { name: `rename-${h.id}` }, spec: { resource: { ...CM, metadata: { name: 'a' } }, targets: {} } });
    await expect(
      h.client.patch({ ...RD, name: `rename-${h.id}` }, { spec: { resource: { metadata: { name: 'b' } } } }, { type: 'merge' }),
    ).rejects.toThrow('resource apiVersion, kind, and name are immutable');
    await h.client.delete({ ...RD, name: `rename-${h.id}` });
  });

  it('with ResourceDistributionGate=false the program answers OpenKruise\'s 403', async () => {
    const scope = `rd-off-${h.id}`;
    // a program of its own (own lease, scoped to distributions labelled `scope`), beside the one the file runs
    await namespace(`${scope}-lease`);
    await h.startController('off', {
      REGATTA_FEATURE_GATES: 'ResourceDistributionGate=false',
      REGATTA_NAMESPACE_SELECTOR: `${scope}=yes`,
      REGATTA_LEASE_NAMESPACE: `${scope}-lease`,
    });
    const create = () =>
      h.client.create({
        ...RD,
        metadata: { name: `off-${h.id}`, labels: { [scope]: 'yes' } },
        spec: { resource: { ...CM, metadata: { name: 'c' } }, targets: {} },
      });
    // the scoped configuration is written by the program once it leads
    await expect
      .poll(
        async () =>
          create().then(
            async () => {
              await h.client.delete({ ...RD, name: `off-${h.id}` });
              return 'created';
            },
            (e: Error) => e.message,
          ),
        POLL,
      )
      .toContain('feature-gate ResourceDistributionGate is not enabled');
    await h.client.delete({ ...RD, name: `off-${h.id}` }).catch(() => undefined);
  });
});

describe('faults', () => {
  it('a program killed with SIGKILL in the middle of a 200-namespace distribution is replaced and every copy converges', async () => {
    const label = `bulk-${h.id}`;
    const namespaces = Array.from({ length: 200 }, (_, i) => `bulk-${h.id}-${i}`);
    for (let i = 0; i < namespaces.length; i += 20) {
      await Promise.all(namespaces.slice(i, i + 20).map((ns) => namespace(ns, { [label]: 'yes' })));
    }
    const name = `bulk-${h.id}`;
    await h.client.create({
      ...RD,
      metadata: { name },
      spec: { resource: { ...CM, metadata: { name: 'bulk' }, data: { v: '1' } }, targets: { namespaceSelector: { matchLabels: { [label]: 'yes' } } } },
    });
    const count = async () =>
      (await h.client.list<Data>({ ...CM }, { fieldSelector: 'metadata.name=bulk' })).items.filter((c) =>
        c.metadata?.ownerReferences?.some((r) => r.name === name),
      );
    await expect.poll(async () => (await count()).length, { timeout: 120_000, interval: 200 }).toBeGreaterThanOrEqual(5);
    h.controller.killNow();
    await h.startController('b');
    await expect
      .poll(async () => (await count()).map((c) => c.metadata?.namespace).sort(), { timeout: 240_000, interval: 2_000 })
      .toEqual([...namespaces].sort());
    await expect
      .poll(async () => {
        const st = (await h.distribution(name)).status;
        return [st?.desired, st?.succeeded, st?.failed];
      }, { timeout: 120_000, interval: 2_000 })
      .toEqual([200, 200, 0]);
    for (const c of await count()) expect(c.data).toEqual({ v: '1' });

    // narrowed to nothing: none left behind
    await patchTargets(name, { namespaceSelector: { matchLabels: { [label]: 'no' } } });
    await expect.poll(async () => (await count()).length, { timeout: 240_000, interval: 2_000 }).toBe(0);
    await h.client.delete({ ...RD, name });
    for (const ns of namespaces) await h.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(() => undefined);
  });
});
