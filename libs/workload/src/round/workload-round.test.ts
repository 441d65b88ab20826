import type { KubeObject } from '@regatta/kube';
import { Expectations } from '@regatta/runtime';
import { describe, expect, it } from 'vitest';
import { MemoryCluster } from '../testing/memory-cluster.js';
import { WorkloadRound } from './workload-round.js';

const GVK = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const log = { debug: () => undefined, warn: () => undefined, info: () => undefined };

function setup(problem?: string) {
  const cluster = new MemoryCluster();
  const expectations = new Expectations();
  const events: string[] = [];
  const recorder = { warning: async (_o: KubeObject, reason: string) => void events.push(reason) };
  const forgotten: string[] = [];
  const round = new WorkloadRound(
    { gvk: GVK, name: 'CloneSet', reader: cluster.reader('CloneSet'), specProblem: () => problem },
    { client: cluster.writer, pods: cluster.reader('Pod'), expectations, recorder, now: () => new Date(0) },
    [{ forget: (key) => void forgotten.push(key) }],
  );
  return { cluster, expectations, events, round, forgotten };
}

const cs = { ...GVK, metadata: { namespace: 'ns', name: 'web', uid: 'u1', generation: 1 }, spec: {} };
const req = { namespace: 'ns', name: 'web' };

describe('WorkloadRound.open: read, spec guard, pending pod writes', () => {
  it('a workload gone from the cache: nothing to do, everything about it forgotten', () => {
    const { round, expectations, forgotten } = setup();
    expectations.expectScale('ns/web', 'create', 'web-1');
    expect(round.open(req, 'ns/web', log)).toEqual({ done: {} });
    expect(expectations.satisfiedScale('ns/web').satisfied).toBe(true);
    expect(forgotten).toEqual(['ns/web']);
  });

  it('a stored spec failing the rules: not acted on, one warning event', () => {
    const { cluster, round, events } = setup('spec.replicas: must be non-negative');
    cluster.add(cs);
    expect(round.open(req, 'ns/web', log)).toEqual({ done: {} });
    expect(events).toEqual(['InvalidSpec']);
  });

  it('a pod create the cache does not show yet: looked at again shortly', () => {
    const { cluster, round, expectations } = setup();
    cluster.add(cs);
    expectations.expectScale('ns/web', 'create', 'web-1');
    const opened = round.open(req, 'ns/web', log);
    expect('done' in opened && (opened.done.requeueAfterMs ?? 0) > 0).toBe(true);
  });

  it('otherwise the workload, with apiVersion and kind set', () => {
    const { cluster, round } = setup();
    const { apiVersion: _a, kind: _k, ...bare } = cs;
    cluster.add({ ...bare, apiVersion: GVK.apiVersion, kind: GVK.kind });
    const opened = round.open(req, 'ns/web', log);
    expect('workload' in opened && opened.workload).toMatchObject({ ...GVK, metadata: { name: 'web' } });
  });
});

describe('WorkloadRound.expectWrites', () => {
  it('expects each written pod at the version written, after onEach saw it', () => {
    const { round, expectations } = setup();
    const seen: string[] = [];
    const expect1 = round.expectWrites('ns/web', (o) => void seen.push(o.metadata?.name ?? ''));
    expect1({ metadata: { name: 'web-1', resourceVersion: '7' } });
    expect1({ metadata: { name: 'web-2' } });
    expect(seen).toEqual(['web-1', 'web-2']);
    expect(expectations.isUpdatedSatisfied('ns/web').satisfied).toBe(false);
  });
});
