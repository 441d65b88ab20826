// BroadcastJob scenarios on the shared local cluster's simulated nodes (spec: docs/broadcastjob.md; upstream
// test/e2e/apps/v1alpha1/broadcastjob.go and pkg/controller/broadcastjob): what a user sees — pods per node, the
// job's status and events — for the seed's security-patch, parallelism, completionPolicy Always with
// activeDeadlineSeconds and ttlSecondsAfterFinished, Never with a node added later, the three failure policies,
// paused, an untolerated taint, admission, and a controller killed with SIGKILL mid-job.
import { describe, expect, it } from 'vitest';
import type { BroadcastJob, Pod } from '@regatta/api';
import { recordPods, traceSpans } from '@regatta/testing';
import { BJ, jobFor, nodeOf, seedText, useBroadcastJobScenarios } from './testing/harness.js';

const h = useBroadcastJobScenarios();
const POLL = { timeout: 90_000, interval: 500 };
const phaseOf = async (ns: string, name: string) => (await h.job(ns, name))?.status?.phase;
const reasons = async (ns: string) => (await h.events(ns)).map((e) => e.reason);
const byNode = (pods: Pod[]) => {
  const m: Record<string, number> = {};
  for (const p of pods) m[nodeOf(p)] = (m[nodeOf(p)] ?? 0) + 1;
  return m;
};

describe('the seed: BroadcastJob security-patch (parallelism 10, completionPolicy Always)', () => {
  it('applies unchanged and runs to completion on every node, one pod each', async () => {
    const ns = await h.namespace();
    const applied = await h.kubectl(['apply', '-n', ns, '-f', '-'], seedText('seed-security-patch.yaml'));
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('broadcastjob.apps.kruise.io/security-patch created');
    await expect.poll(() => phaseOf(ns, 'security-patch'), POLL).toBe('completed');
    const job = (await h.job(ns, 'security-patch'))!;
    const n = h.nodes.length;
    expect(job.status).toMatchObject({ desired: n, succeeded: n, active: 0, failed: 0, phase: 'completed' });
    expect(job.status?.conditions).toEqual([expect.objectContaining({ type: 'Complete', status: 'True' })]);
    expect(job.status?.startTime).toBeDefined();
    expect(job.status?.completionTime).toBeDefined();
    // defaulted by the webhook
    expect(job.spec.failurePolicy?.type).toBe('FailFast');
    expect(job.spec.template.spec?.restartPolicy).toBe('Never');
    const pods = await h.pods(ns, 'security-patch');
    expect(Object.keys(byNode(pods)).sort()).toEqual([...h.nodes].sort());
    expect(Object.values(byNode(pods)).every((c) => c === 1)).toBe(true);
    expect(pods.every((p) => p.status?.phase === 'Succeeded')).toBe(true);
    expect(pods[0]?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'BroadcastJob', name: 'security-patch', controller: true });
    const rs = await reasons(ns);
    expect(rs.filter((r) => r === 'SuccessfulCreate')).toHaveLength(n);
    expect(rs).toContain('JobComplete');
    // kubectl get shows upstream's columns
    const got = await h.kubectl(['get', 'bcj', '-n', ns]);
    expect(got.stdout.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+ACTIVE\s+SUCCEEDED\s+FAILED\s+AGE/);
    expect(got.stdout).toMatch(new RegExp(`security-patch\\s+${n}\\s+0\\s+${n}\\s+0\\s`));

    // its trace (id: the job's uid): the root span `broadcastjob` and a child span per node's pod
    const traceId = (job.metadata?.uid ?? '').replace(/-/g, '');
    const spansOf = async () => traceSpans(h.layer.jaegerQuery, traceId);
    await expect.poll(async () => (await spansOf()).length, { timeout: 30_000, interval: 1000 }).toBe(n + 1);
    const spans = await spansOf();
    const root = spans.find((s) => s.operationName === 'broadcastjob')!;
    expect(root.tags).toMatchObject({ 'regatta.broadcastjob': 'security-patch', 'regatta.phase': 'completed', 'regatta.succeeded': n });
    const podSpans = spans.filter((s) => s.operationName === 'broadcastjob.pod');
    expect(podSpans.map((s) => s.tags['k8s.node.name']).sort()).toEqual([...h.nodes].sort());
    expect(podSpans.every((s) => s.parentSpanIds?.includes(root.spanId ?? '') && s.service === 'regatta-broadcastjob')).toBe(true);
  });
});

describe('dispatching', () => {
  it('parallelism bounds the active pods; every node gets one pod', async () => {
    const ns = await h.namespace();
    for (let i = 0; i < 5; i++) await h.addNode('par');
    const rec = await recordPods(h.client, ns);
    await h.create(jobFor(ns, 'par', 'par', 'sleep 2', { parallelism: 2 }));
    await expect.poll(() => phaseOf(ns, 'par'), POLL).toBe('completed');
    // from every pod version the watch delivered: never more than 2 pods not yet finished at once
    const last = new Map<string, Pod>();
    let most = 0;
    for (const s of rec.snapshots) {
      last.set(s.pod.metadata?.uid ?? '', s.pod);
      const unfinished = [...last.values()].filter((p) => !['Succeeded', 'Failed'].includes(p.status?.phase ?? '') && !p.metadata?.deletionTimestamp);
      most = Math.max(most, unfinished.length);
    }
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
    expect((await h.job(ns, 'par'))?.status).toMatchObject({ desired: 5, succeeded: 5, active: 0 });
    expect(Object.values(byNode(await h.pods(ns, 'par')))).toEqual([1, 1, 1, 1, 1]);
  });

  it('a node with a taint the job does not tolerate gets no pod', async () => {
    const ns = await h.namespace();
    const ok = await h.addNode('taint');
    await h.addNode('taint', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    await h.create(jobFor(ns, 'taint', 'taint', 'true'));
    await expect.poll(() => phaseOf(ns, 'taint'), POLL).toBe('completed');
    expect((await h.job(ns, 'taint'))?.status).toMatchObject({ desired: 1, succeeded: 1 });
    expect((await h.pods(ns, 'taint')).map(nodeOf)).toEqual([ok]);
  });

  it('paused: no pod until unpaused, phase paused then completed', async () => {
    const ns = await h.namespace();
    await h.addNode('pause');
    await h.create(jobFor(ns, 'paused', 'pause', 'true', { paused: true }));
    await expect.poll(() => phaseOf(ns, 'paused'), POLL).toBe('paused');
    expect(await h.pods(ns, 'paused')).toEqual([]);
    await h.client.patch({ ...BJ, namespace: ns, name: 'paused' }, { spec: { paused: false } }, { type: 'merge' });
    await expect.poll(() => phaseOf(ns, 'paused'), POLL).toBe('completed');
    expect(await reasons(ns)).toContain('Continue');
  });
});

describe('completionPolicy', () => {
  it('Always with activeDeadlineSeconds: the job fails at the deadline and its active pods are deleted', async () => {
    const ns = await h.namespace();
    await h.addNode('deadline');
    await h.addNode('deadline');
    await h.create(jobFor(ns, 'deadline', 'deadline', 'sleep 3600', { completionPolicy: { type: 'Always', activeDeadlineSeconds: 5 } }));
    await expect.poll(async () => (await h.pods(ns, 'deadline')).length, POLL).toBe(2);
    await expect.poll(() => phaseOf(ns, 'deadline'), POLL).toBe('failed');
    const job = (await h.job(ns, 'deadline'))!;
    expect(job.status?.conditions).toEqual([expect.objectContaining({ type: 'Failed', status: 'True' })]);
    expect(Date.parse(job.status!.completionTime!) - Date.parse(job.status!.startTime!)).toBeGreaterThanOrEqual(5_000);
    expect(await reasons(ns)).toContain('DeadlineExceeded');
    await expect.poll(async () => (await h.pods(ns, 'deadline')).filter((p) => !p.metadata?.deletionTimestamp).length, POLL).toBe(0);
  });

  it('ttlSecondsAfterFinished: the finished job is deleted, and its pods with it', async () => {
    const ns = await h.namespace();
    await h.addNode('ttl');
    await h.create(jobFor(ns, 'ttl', 'ttl', 'true', { completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 3 } }));
    await expect.poll(() => phaseOf(ns, 'ttl'), POLL).toBe('completed');
    const done = Date.now();
    await expect.poll(() => h.job(ns, 'ttl'), POLL).toBeUndefined();
    expect(Date.now() - done).toBeGreaterThanOrEqual(1_000);
    // the garbage collector removes the pods the job owned
    await expect.poll(async () => (await h.pods(ns, 'ttl')).length, POLL).toBe(0);
  });

  it('Never: the job keeps running and a node added later gets a pod', async () => {
    const ns = await h.namespace();
    const first = await h.addNode('never');
    await h.create(jobFor(ns, 'never', 'never', 'true', { completionPolicy: { type: 'Never' } }));
    await expect.poll(async () => (await h.job(ns, 'never'))?.status?.succeeded, POLL).toBe(1);
    expect(await phaseOf(ns, 'never')).toBe('running');
    const second = await h.addNode('never');
    await expect.poll(async () => (await h.job(ns, 'never'))?.status?.succeeded, POLL).toBe(2);
    const job = (await h.job(ns, 'never'))!;
    expect(job.status).toMatchObject({ desired: 2, phase: 'running' });
    expect(job.status?.conditions ?? []).toEqual([]);
    expect((await h.pods(ns, 'never')).map(nodeOf).sort()).toEqual([first, second].sort());
  });
});

describe('failurePolicy', () => {
  it.each<['FailFast' | 'Continue' | 'Pause', BroadcastJob['status'] & object, string | undefined, number]>([
    // the first pod fails: the job fails and the second node never gets its pod
    ['FailFast', { phase: 'failed', failed: 1, succeeded: 0 } as never, 'failed pod is found', 1],
    // both pods run and fail; the job completes with both counted failed
    ['Continue', { phase: 'completed', failed: 2, succeeded: 0 } as never, 'JobComplete', 2],
    // the first pod fails: the job pauses
    ['Pause', { phase: 'paused', failed: 1 } as never, 'Paused', 1],
  ])('%s', async (type, status, reason, podCount) => {
    const ns = await h.namespace();
    const x = `fail${type.toLowerCase()}`;
    await h.addNode(x);
    await h.addNode(x);
    await h.create(jobFor(ns, 'fails', x, 'sleep 1; exit 1', { parallelism: 1, failurePolicy: { type } }));
    await expect.poll(() => phaseOf(ns, 'fails'), POLL).toBe(status.phase);
    expect((await h.job(ns, 'fails'))?.status).toMatchObject(status);
    if (reason) expect(await reasons(ns)).toContain(reason);
    // nothing more is created afterwards
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await h.pods(ns, 'fails')).toHaveLength(podCount);
  });

  it('restartLimit: an OnFailure pod restarted more often counts as failed', async () => {
    const ns = await h.namespace();
    await h.addNode('restart');
    const job = jobFor(ns, 'restarts', 'restart', 'sleep 1; exit 1', { failurePolicy: { type: 'FailFast', restartLimit: 1 } });
    job.spec.template.spec!.restartPolicy = 'OnFailure';
    await h.create(job);
    await expect.poll(() => phaseOf(ns, 'restarts'), { ...POLL, timeout: 120_000 }).toBe('failed');
    expect((await h.job(ns, 'restarts'))?.status?.failed).toBe(1);
  });
});

describe('admission', () => {
  it('rejects restartPolicy Always and Never with a ttl, with field paths', async () => {
    const ns = await h.namespace();
    const bad = jobFor(ns, 'bad', 'none', 'true', { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 5 } });
    bad.spec.template.spec!.restartPolicy = 'Always';
    const err = await h.create(bad).then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(err).toContain('spec.template.spec.restartPolicy');
    expect(err).toContain('spec.completionPolicy.ttlSecondsAfterFinished');
  });
});

describe('faults', () => {
  it('controller killed with SIGKILL mid-job: a new one finishes it, and no node ever gets two pods', async () => {
    const ns = await h.namespace();
    const nodes: string[] = [];
    for (let i = 0; i < 6; i++) nodes.push(await h.addNode('restart9'));
    const rec = await recordPods(h.client, ns);
    await h.create(jobFor(ns, 'survivor', 'restart9', 'sleep 6', { parallelism: 3 }));
    await expect.poll(async () => (await h.pods(ns, 'survivor')).length, POLL).toBeGreaterThan(0);
    h.controller.killNow();
    await h.startController('b');
    await expect.poll(() => phaseOf(ns, 'survivor'), { ...POLL, timeout: 150_000 }).toBe('completed');
    const podsPerNode = new Map<string, Set<string>>();
    for (const s of rec.snapshots) {
      const node = nodeOf(s.pod);
      podsPerNode.set(node, (podsPerNode.get(node) ?? new Set()).add(s.pod.metadata?.uid ?? ''));
    }
    expect([...podsPerNode.keys()].sort()).toEqual([...nodes].sort());
    expect([...podsPerNode.values()].map((s) => s.size)).toEqual([1, 1, 1, 1, 1, 1]);
    expect((await h.job(ns, 'survivor'))?.status).toMatchObject({ desired: 6, succeeded: 6 });
  });
});
