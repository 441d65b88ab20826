import { describe, expect, it } from 'vitest';
import type { BroadcastJob, BroadcastJobSpec, Pod } from '@regatta/api';
import type { Node } from './eligibility.js';
import { countWrites, parallelismOf, planBroadcastJob, type PlanInput } from './plan.js';
import { assignedNode, jobPodName, newJobPod, podsByState } from './pods.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

function job(spec: Partial<BroadcastJobSpec> = {}, status?: BroadcastJob['status']): BroadcastJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'BroadcastJob',
    metadata: { name: 'bj', namespace: 'ns', uid: '11111111-2222-3333-4444-555555555555', creationTimestamp: ago(600) },
    spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } }, ...spec },
    ...(status ? { status } : {}),
  };
}
const nodes = (n: number, extra: Partial<Node['spec']> = {}): Node[] =>
  Array.from({ length: n }, (_, i) => ({ metadata: { name: `n${i}` }, spec: { ...extra } }));
function pod(j: BroadcastJob, node: string, phase: string, extra: Partial<Pod> = {}): Pod {
  const p = newJobPod(j, node);
  return { ...p, metadata: { ...p.metadata, uid: `uid-${node}` }, status: { phase }, ...extra };
}
const running = (status?: Partial<NonNullable<BroadcastJob['status']>>): BroadcastJob['status'] => ({
  startTime: ago(60),
  active: 0,
  succeeded: 0,
  failed: 0,
  desired: 0,
  phase: 'running',
  ...status,
});
const plan = (i: Partial<PlanInput> & { job: BroadcastJob }) => planBroadcastJob({ pods: [], nodes: nodes(3), now: NOW, ...i });
const reasons = (p: ReturnType<typeof plan>) => p.events.map((e) => e.reason);

describe('parallelismOf', () => {
  it.each<[number | string, number, number]>([
    [10, 50, 10],
    ['20%', 50, 10],
    ['30%', 7, 3], // rounded up
    ['100%', 3, 3],
    [2 ** 31 - 1, 5, 2 ** 31 - 1],
    ['abc', 5, 0],
  ])('%s of %s → %s', (p, desired, want) => expect(parallelismOf(p, desired)).toBe(want));
});

describe('pods', () => {
  it('names a pod by job and node, stable and distinct', () => {
    const j = job();
    expect(jobPodName(j, 'n1')).toBe(jobPodName(j, 'n1'));
    expect(jobPodName(j, 'n1')).not.toBe(jobPodName(j, 'n2'));
    expect(jobPodName(j, 'n1')).toMatch(/^bj-[0-9a-f]{10}$/);
  });

  it('binds the new pod to its node through node affinity, with the job labels and controller reference', () => {
    const p = newJobPod(job(), 'n7');
    expect(assignedNode(p)).toBe('n7');
    expect(p.metadata?.labels).toEqual({ 'broadcastjob-name': 'bj', 'broadcastjob-controller-uid': '11111111-2222-3333-4444-555555555555' });
    expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'BroadcastJob', controller: true, blockOwnerDeletion: true });
  });

  it.each<[string, Pod, 'active' | 'failed' | 'succeeded' | 'none']>([
    ['Succeeded', { status: { phase: 'Succeeded' } }, 'succeeded'],
    ['Failed', { status: { phase: 'Failed' } }, 'failed'],
    ['Running', { status: { phase: 'Running' } }, 'active'],
    ['being deleted', { metadata: { deletionTimestamp: ago(1) }, status: { phase: 'Running' } }, 'none'],
    ['OnFailure over the restart limit', { spec: { restartPolicy: 'OnFailure' }, status: { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 3 }] } }, 'failed'],
    ['OnFailure at the restart limit', { spec: { restartPolicy: 'OnFailure' }, status: { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 2 }] } }, 'active'],
  ])('classifies %s (restartLimit 2)', (_n, p, want) => {
    const s = podsByState([p], 2);
    const got = s.active.length ? 'active' : s.failed.length ? 'failed' : s.succeeded.length ? 'succeeded' : 'none';
    expect(got).toBe(want);
  });
});

describe('planBroadcastJob', () => {
  it('a new job: startTime, running, a pod per node up to parallelism', () => {
    const p = plan({ job: job({ parallelism: 2 }), nodes: nodes(5) });
    expect(p.nodesToCreate).toEqual(['n0', 'n1']);
    expect(p.status).toMatchObject({ phase: 'running', desired: 5, active: 0, startTime: NOW.toISOString() });
  });

  it('parallelism counts active pods', () => {
    const j = job({ parallelism: 2 }, running());
    const p = plan({ job: j, nodes: nodes(4), pods: [pod(j, 'n0', 'Running'), pod(j, 'n1', 'Succeeded')] });
    expect(p.nodesToCreate).toEqual(['n2']);
    expect(p.status).toMatchObject({ active: 1, succeeded: 1, desired: 4 });
  });

  it('too many active pods: a warning and no pod', () => {
    const j = job({ parallelism: 1 }, running());
    const p = plan({ job: j, pods: [pod(j, 'n0', 'Running'), pod(j, 'n1', 'Running')] });
    expect(p.nodesToCreate).toEqual([]);
    expect(reasons(p)).toContain('TooManyActivePods');
  });

  it('Always: completes once every eligible node has a finished pod, with condition and completionTime', () => {
    const j = job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } }, running());
    const p = plan({ job: j, nodes: nodes(2), pods: [pod(j, 'n0', 'Succeeded'), pod(j, 'n1', 'Succeeded')] });
    expect(p.status.phase).toBe('completed');
    expect(p.status.completionTime).toBe(NOW.toISOString());
    expect(p.status.conditions).toEqual([expect.objectContaining({ type: 'Complete', status: 'True', message: 'Job completed, 2 pods succeeded, 0 pods failed' })]);
    expect(reasons(p)).toEqual(['JobComplete']);
    expect(p.requeueAfterMs).toBe(31_000);
  });

  it('Always with no eligible node never completes', () => {
    expect(plan({ job: job({}, running()), nodes: [] }).status.phase).toBe('running');
  });

  it('Never: never completes; a node added later gets a pod', () => {
    const j = job({ completionPolicy: { type: 'Never' } }, running());
    const p = plan({ job: j, nodes: nodes(2), pods: [pod(j, 'n0', 'Succeeded')] });
    expect(p.status.phase).toBe('running');
    expect(p.nodesToCreate).toEqual(['n1']);
  });

  it('activeDeadlineSeconds passed: failed, active pods deleted, DeadlineExceeded', () => {
    const j = job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 30 } }, running({ startTime: ago(31) }));
    const active = pod(j, 'n0', 'Running');
    const p = plan({ job: j, nodes: nodes(2), pods: [active, pod(j, 'n1', 'Succeeded')] });
    expect(p.status.phase).toBe('failed');
    expect(p.status.conditions?.[0]).toMatchObject({ type: 'Failed', reason: 'Failed' });
    expect(p.podsToDelete).toEqual([active]);
    expect(p.nodesToCreate).toEqual([]);
    expect(reasons(p)).toEqual(['DeadlineExceeded']);
  });

  it('activeDeadlineSeconds not yet passed: looked at again when it passes', () => {
    const j = job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 30 } }, running({ startTime: ago(10) }));
    expect(plan({ job: j }).requeueAfterMs).toBe(20_000);
  });

  it.each<[string, 'Continue' | 'FailFast' | 'Pause', string, string[]]>([
    ['FailFast fails the job', 'FailFast', 'failed', ['failed pod is found']],
    ['Continue goes on', 'Continue', 'running', []],
    ['Pause pauses the job', 'Pause', 'paused', ['Paused']],
  ])('a failed pod: %s', (_n, type, phase, evs) => {
    const j = job({ failurePolicy: { type } }, running());
    const p = plan({ job: j, nodes: nodes(3), pods: [pod(j, 'n0', 'Failed'), pod(j, 'n1', 'Running')] });
    expect(p.status.phase).toBe(phase);
    expect(p.status.failed).toBe(1);
    expect(reasons(p)).toEqual(evs);
    expect(p.nodesToCreate).toEqual(type === 'Continue' ? ['n2'] : []);
  });

  it('Continue: failed pods count as finished for completion', () => {
    const j = job({ failurePolicy: { type: 'Continue' } }, running());
    const p = plan({ job: j, nodes: nodes(2), pods: [pod(j, 'n0', 'Failed'), pod(j, 'n1', 'Succeeded')] });
    expect(p.status.phase).toBe('completed');
  });

  it('paused: no pods, phase paused; unpaused: running again with a Continue event', () => {
    expect(plan({ job: job({ paused: true }, running()) })).toMatchObject({ nodesToCreate: [], status: { phase: 'paused' } });
    const resumed = plan({ job: job({ paused: false }, running({ phase: 'paused' })) });
    expect(resumed.status.phase).toBe('running');
    expect(reasons(resumed)).toEqual(['Continue']);
    expect(resumed.nodesToCreate).toEqual(['n0', 'n1', 'n2']);
  });

  it('a tainted node gets no pod unless tolerated', () => {
    const ns = [...nodes(1), { metadata: { name: 'tainted' }, spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }];
    expect(plan({ job: job(), nodes: ns }).nodesToCreate).toEqual(['n0']);
    const tolerating = job({ template: { spec: { containers: [{ name: 'c', image: 'i' }], tolerations: [{ key: 'k', operator: 'Exists' }] } } });
    expect(plan({ job: tolerating, nodes: ns }).nodesToCreate).toEqual(['n0', 'tainted']);
  });

  it('a pod whose node no longer fits it is deleted', () => {
    const j = job({}, running());
    const p0 = pod(j, 'n0', 'Running');
    const p = plan({ job: j, nodes: [{ metadata: { name: 'n0' }, spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } }], pods: [p0] });
    expect(p.podsToDelete).toEqual([p0]);
    expect(p.status.desired).toBe(0);
  });

  it('two pods on one node: a DuplicatePodCreatedOnSameNode warning', () => {
    const j = job({}, running());
    const second = { ...pod(j, 'n0', 'Running'), metadata: { ...pod(j, 'n0', 'Running').metadata, name: 'other' } };
    expect(reasons(plan({ job: j, pods: [pod(j, 'n0', 'Running'), second] }))).toContain('DuplicatePodCreatedOnSameNode');
  });

  it('a finished job: deleted once its ttl passed, else looked at again then; no status write', () => {
    const done = (completionTime: string) =>
      job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 10 } }, running({ phase: 'completed', completionTime, conditions: [{ type: 'Complete', status: 'True' }] }));
    expect(plan({ job: done(ago(11)) })).toMatchObject({ deleteJob: true, writeStatus: false });
    expect(plan({ job: done(ago(4)) })).toMatchObject({ deleteJob: false, writeStatus: false, requeueAfterMs: 6_000 });
  });

  it('a failed Never job stays failed and only counts', () => {
    const j = job({ completionPolicy: { type: 'Never' } }, running({ phase: 'failed' }));
    const p = plan({ job: j, pods: [pod(j, 'n0', 'Failed')] });
    expect(p).toMatchObject({ nodesToCreate: [], status: { phase: 'failed', failed: 1 } });
  });

  it('counts the writes as upstream: created pods active, deleted pods failed', () => {
    expect(countWrites({ active: 2, failed: 1, succeeded: 0, desired: 5, phase: 'running' }, 3, 1)).toMatchObject({ active: 4, failed: 2 });
  });
});
