// The UnitedDeployment reconciler when a subset create loses its answer (docs/adr/0061-writes-without-an-answer.md):
// the workload's name is generated, so it is read back by the subset's label; with the cache lagging, the next
// round must not make a second workload for the subset.
import { type KubeObject, ServerError, TimeoutError } from '@regatta/kube';
import { Expectations } from '@regatta/runtime';
import { MemoryCluster, type ObjectReader } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { UnitedDeploymentReconciler } from './reconciler.js';
import { demoUnitedDeployment } from './testing/demo.js';
import type { UnitedDeployment } from './types.js';

const log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as never;
const ctx = { reconcileID: 'r', log, signal: new AbortController().signal };
const empty: ObjectReader<KubeObject> = { get: () => undefined, byIndex: () => [], list: () => [] };

interface Fault {
  /** The first CloneSet create is applied before its error. */
  applied: boolean;
  err: Error;
  /** The read-back's list fails. */
  listFails?: boolean;
}

/**
 * Created CloneSets reach the cache on deliver(), which observes their creates as the program's handlers do; the first
 * create fails as `fault` says.
 */
function world(fault: Fault, subsetNames = ['a', 'b']) {
  const c = new MemoryCluster();
  const expectations = new Expectations();
  const ud = demoUnitedDeployment();
  const obj: UnitedDeployment = {
    ...ud,
    spec: { ...ud.spec, topology: { subsets: subsetNames.map((name) => ({ name })) } },
  };
  c.add(obj);
  const undelivered = new Set<string>();
  const sets = c.reader('CloneSet');
  const shown = (o: KubeObject) => !undelivered.has(o.metadata?.name ?? '');
  const lagging: ObjectReader<KubeObject> = {
    get: (ns, name) => (undelivered.has(name) ? undefined : sets.get(ns, name)),
    byIndex: (index, value) => sets.byIndex(index, value).filter(shown),
    list: (opts) => sets.list(opts).filter(shown),
  };
  let first = true;
  const writer = {
    ...c.writer,
    create: async <T extends KubeObject>(o: T): Promise<T> => {
      if (o.kind !== 'CloneSet') return c.writer.create(o);
      const lose = first;
      first = false;
      if (lose && !fault.applied) throw fault.err;
      const out = await c.writer.create(o);
      undelivered.add(out.metadata?.name ?? '');
      if (lose) throw fault.err;
      return out;
    },
    list: async <T extends KubeObject>(ref: never, opts: never) => {
      if (fault.listFails) throw new ServerError({ status: 503, serverMessage: 'unavailable' });
      return c.writer.list<T>(ref, opts);
    },
  };
  const reconciler = new UnitedDeploymentReconciler({
    uniteddeployments: c.reader('UnitedDeployment'),
    clonesets: lagging,
    statefulsets: empty,
    advancedstatefulsets: empty,
    deployments: empty,
    pods: empty,
    revisions: c.reader('ControllerRevision'),
    client: writer as never,
    expectations,
    recorder: { normal: async () => undefined, warning: async () => undefined },
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  const subsets = () =>
    c
      .all('CloneSet')
      .map((o) => o.metadata?.labels?.['apps.kruise.io/subset-name'])
      .sort();
  return {
    run: () => reconciler.reconcile({ namespace: 'ns', name: 'demo' }, ctx).catch((e: unknown) => e),
    deliver: () => {
      for (const name of undelivered) expectations.observeScale('ns/demo', 'create', name);
      undelivered.clear();
    },
    subsets,
  };
}

const serverError = () => new ServerError({ status: 500, serverMessage: 'etcdserver: request timed out' });
const timeout = () => new TimeoutError({ status: 0, serverMessage: 'the request timed out' });

describe('UnitedDeploymentReconciler: a subset create without an answer', () => {
  it.each([
    ['a, b', 'a 5xx', serverError],
    ['a, b', 'a timeout', timeout],
    ['a', 'a 5xx', serverError],
    ['a', 'a timeout', timeout],
  ])(
    'subsets %s, the first create applied and answered with %s, the cache lagging: one workload per subset',
    async (list, _, err) => {
      const names = list.split(', ');
      const w = world({ applied: true, err: err() }, names);
      await w.run();
      expect(w.subsets()).toEqual(names);
      // the cache does not show them yet: the round waits instead of creating again
      await w.run();
      expect(w.subsets()).toEqual(names);
      w.deliver();
      await w.run();
      expect(w.subsets()).toEqual(names);
    },
  );

  it('not applied (a 5xx, nothing found on reading back): the round fails and the next creates it', async () => {
    const w = world({ applied: false, err: serverError() });
    expect(await w.run()).toBeInstanceOf(Error);
    w.deliver();
    await w.run();
    expect(w.subsets()).toEqual(['a', 'b']);
  });

  it('a timeout that cannot be read back is taken as done, as before the read-back', async () => {
    const w = world({ applied: false, err: timeout(), listFails: true });
    expect(await w.run()).not.toBeInstanceOf(Error);
    w.deliver();
    await w.run();
    expect(w.subsets()).toEqual(['a', 'b']);
  });
});
