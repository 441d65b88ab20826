// A CloneSet whose pods the API server rejects (issue 8, defect 6): the controller must back off, not retry about
// every 3 s forever. The FailedScale condition keeps its lastTransitionTime while it stays True, so its status is
// written once; a repeated failure returns an error and the work queue's rate limiter spaces the retries out
// (docs/cloneset.md, "Status"). The pods are rejected by Pod Security admission (on by default): the namespace
// enforces the `restricted` level, which the demo's pod template (no securityContext) violates; the CloneSet itself
// is stored, as Pod Security does not look into custom workload kinds.
import { describe, expect, it } from 'vitest';
import { useCloneSetScenarios } from './testing/scenario-harness.js';
import { sleep } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, cloneSet, events, pods } = h;

/** The CloneSet's writes seen by polling every 100 ms (a write changes its resourceVersion). */
async function countWrites(ns: string, name: string, ms: number): Promise<number> {
  let last = (await cloneSet(ns, name)).metadata?.resourceVersion;
  let writes = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await sleep(100);
    const rv = (await cloneSet(ns, name)).metadata?.resourceVersion;
    if (rv !== last) writes++;
    last = rv;
  }
  return writes;
}

/** How many pod creations failed, summed over the (aggregated) FailedCreate events. */
async function failedCreates(ns: string): Promise<number> {
  return (await events(ns, 'FailedCreate')).reduce((n, e) => n + ((e as { count?: number }).count ?? 1), 0);
}

describe('CloneSet back-off (issue 8, defect 6)', () => {
  it('a CloneSet whose pods are rejected writes its FailedScale condition once and retries with growing delays', async () => {
    const ns = await namespace();
    await h.client.patch(
      { apiVersion: 'v1', kind: 'Namespace', name: ns },
      { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
      { type: 'merge' },
    );
    await h.createDemo(ns, 'rejected', (cs) => {
      cs.spec['replicas'] = 2;
    });
    // the first failure is recorded on the status, with a transition time that must not move afterwards
    await expect
      .poll(
        async () =>
          (await cloneSet(ns, 'rejected')).status?.conditions?.find((c) => c.type === 'FailedScale')?.status,
        { timeout: 30_000 },
      )
      .toBe('True');
    const failedScale = async () =>
      (await cloneSet(ns, 'rejected')).status?.conditions?.find((c) => c.type === 'FailedScale') as
        | { status: string; lastTransitionTime?: string }
        | undefined;
    const first = await failedScale();

    // the rate limiter's delay doubles from 5 ms: after ~10 failures (~5 s) retries are seconds apart
    await sleep(6_000);
    const failedBefore = await failedCreates(ns);
    const writes = await countWrites(ns, 'rejected', 20_000);
    const failedDuring = (await failedCreates(ns)) - failedBefore;

    const last = await failedScale();
    expect(last?.lastTransitionTime).toBe(first?.lastTransitionTime);
    // before the fix: a status write and a retry about every 3 s (~7 of each in 20 s)
    expect(writes).toBeLessThanOrEqual(1);
    expect(failedDuring).toBeLessThanOrEqual(4);
    expect(failedDuring).toBeGreaterThanOrEqual(1);
    expect(await pods(ns)).toHaveLength(0);
  });
});
