// The PodUnavailableBudget wait every workload's in-place update and pod deletion shares (docs/podunavailablebudget.md
// "Workloads"): a guarded pod's update is first a dry run; the budget's refusal is a wait of BUDGET_RETRY_MS.
import { BUDGET_RETRY_MS, type Pod } from '@regatta/api';
import { ConflictError, ForbiddenError, type KubeClient } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { budgetRefusesUpdate, waitedForBudget, waitsForBudget } from './budget-wait.js';

const REFUSAL =
  'admission webhook "vpod.kb.io" denied the request: podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative';
const refused = () => new ForbiddenError({ status: 403, serverMessage: REFUSAL });
const rbac = () =>
  new ForbiddenError({ status: 403, serverMessage: 'pods "web-0" is forbidden: cannot patch' });
const conflict = () => new ConflictError({ status: 409, serverMessage: 'the object has been modified' });

const pod = (guarded: boolean): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    namespace: 'ns',
    name: 'web-0',
    resourceVersion: '7',
    ...(guarded ? { annotations: { 'kruise.io/related-pub': 'web-pub' } } : {}),
  },
  spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
});
const planned = (p: Pod): Pod => ({ ...p, spec: { containers: [{ name: 'main', image: 'nginx:1.29' }] } });

/** A client whose patch answers with `answer` (none: success), recording the options it was sent. */
function client(answer?: () => Error): Pick<KubeClient, 'patch'> & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    patch: ((_ref: unknown, _body: unknown, options: unknown) => {
      sent.push(options);
      return answer ? Promise.reject(answer()) : Promise.resolve({} as never);
    }) as KubeClient['patch'],
  };
}

describe('budgetRefusesUpdate / waitsForBudget: a dry run of a guarded pod’s update', () => {
  it.each([
    ['an unguarded pod: no request, not refused', false, undefined, false, 0],
    ['a guarded pod the budget admits', true, undefined, false, 1],
    ['a guarded pod the budget refuses', true, refused, true, 1],
    ['another 403 (RBAC): left to the real write', true, rbac, false, 1],
    ['a conflict: left to the real write', true, conflict, false, 1],
  ] as const)('%s', async (_, guarded, answer, want, requests) => {
    const k = client(answer);
    const p = pod(guarded);
    expect(await budgetRefusesUpdate(k, p, planned(p))).toBe(want);
    expect(k.sent).toHaveLength(requests);
    for (const o of k.sent) expect(o).toEqual({ type: 'json', dryRun: true });
    const s = { d: { client: client(answer) }, delays: [] as number[] };
    expect(await waitsForBudget(s, p, planned(p))).toBe(want);
    expect(s.delays).toEqual(want ? [BUDGET_RETRY_MS] : []);
  });
});

describe('waitedForBudget: the budget’s refusal of a pod write is a wait', () => {
  it.each([
    ['the budget’s refusal', refused(), true],
    ['another 403', rbac(), false],
    ['a conflict', conflict(), false],
    ['not an API error', new Error(REFUSAL), false],
  ])('%s', (_, err, want) => {
    const s = { delays: [] as number[] };
    expect(waitedForBudget(s, err)).toBe(want);
    expect(s.delays).toEqual(want ? [BUDGET_RETRY_MS] : []);
  });
});
