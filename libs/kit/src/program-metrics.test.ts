import type { Change } from '@regatta/kube';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerProgramMetrics } from './program-metrics.js';

/** A change stream as a cache offers it, driven by the test. */
function stream() {
  const fns: ((c: Change) => void)[] = [];
  return { onChange: (fn: (c: Change) => void) => fns.push(fn), emit: (c: Change) => fns.forEach((fn) => fn(c)) };
}

describe('program metrics', () => {
  it('reports leadership and the bus lag per cache (changes without a lag, such as deletes, are not counted)', async () => {
    const registry = new Registry();
    let leader = false;
    const pods = stream();
    registerProgramMetrics(registry, { program: 'regatta-cloneset', isLeader: () => leader, caches: new Map([['pods', pods]]) });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    pods.emit({ type: 'add', object: pod, lagMs: 3 });
    pods.emit({ type: 'update', object: pod, old: pod, lagMs: 30 });
    pods.emit({ type: 'delete', object: pod, old: pod });
    let text = await registry.metrics();
    expect(text).toContain('leader_election_master_status{name="regatta-cloneset"} 0');
    expect(text).toContain('regatta_bus_event_lag_seconds_count{cache="pods"} 2');
    expect(text).toContain('regatta_bus_event_lag_seconds_bucket{le="0.005",cache="pods"} 1');
    expect(text).toContain('regatta_bus_event_lag_seconds_bucket{le="0.05",cache="pods"} 2');
    leader = true;
    text = await registry.metrics();
    expect(text).toContain('leader_election_master_status{name="regatta-cloneset"} 1');
  });

  it('shows each workload of a declared kind with its phase and replicas, from the leader only', async () => {
    const registry = new Registry();
    let leader = true;
    const objects = [
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { namespace: 'shop', name: 'web' }, phase: 'Progressing', available: 2 },
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { namespace: 'shop', name: 'api' }, phase: 'Completed', available: undefined },
    ];
    registerProgramMetrics(registry, {
      program: 'regatta-cloneset',
      isLeader: () => leader,
      caches: new Map(),
      rollouts: [
        {
          kind: 'CloneSet',
          reader: { list: () => objects },
          project: (o) => {
            const x = o as (typeof objects)[number];
            return { phase: x.phase, desired: 3, updated: 1, ready: 2, available: x.available };
          },
        },
      ],
    });
    let text = await registry.metrics();
    expect(text).toContain('regatta_rollout_info{kind="CloneSet",namespace="shop",name="web",phase="Progressing"} 1');
    expect(text).toContain('regatta_rollout_info{kind="CloneSet",namespace="shop",name="api",phase="Completed"} 1');
    expect(text).toContain('regatta_rollout_replicas_desired{kind="CloneSet",namespace="shop",name="web"} 3');
    expect(text).toContain('regatta_rollout_replicas_updated{kind="CloneSet",namespace="shop",name="web"} 1');
    expect(text).toContain('regatta_rollout_replicas_ready{kind="CloneSet",namespace="shop",name="web"} 2');
    expect(text).toContain('regatta_rollout_replicas_available{kind="CloneSet",namespace="shop",name="web"} 2');
    expect(text).not.toContain('regatta_rollout_replicas_available{kind="CloneSet",namespace="shop",name="api"}');

    // a phase change replaces the series (no stale Progressing line); a deleted workload disappears
    objects[0]!.phase = 'Completed';
    objects.pop();
    text = await registry.metrics();
    expect(text).toContain('regatta_rollout_info{kind="CloneSet",namespace="shop",name="web",phase="Completed"} 1');
    expect(text).not.toContain('phase="Progressing"');
    expect(text).not.toContain('name="api"');

    leader = false;
    text = await registry.metrics();
    expect(text).not.toMatch(/^regatta_rollout_info\{/m);
  });
});
