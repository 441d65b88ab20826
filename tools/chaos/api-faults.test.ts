import { describe, expect, it } from 'vitest';
import { decideApiFault, statusBody } from './api-faults.js';
import { seededRandom } from './schedule.js';

const always = () => 0;

describe('decideApiFault', () => {
  it('never breaks a lease, and nothing at rate 0', () => {
    expect(
      decideApiFault(
        always,
        { method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/x/leases/y' },
        1,
      ),
    ).toBeUndefined();
    expect(
      decideApiFault(seededRandom(1), { method: 'POST', path: '/api/v1/namespaces/x/pods' }, 0),
    ).toBeUndefined();
  });

  it('drops a watch, and gives 409 only to updates', () => {
    expect(decideApiFault(always, { method: 'GET', path: '/api/v1/pods?watch=true' }, 1)).toEqual({
      kind: 'drop-watch',
      when: 'after',
    });
    const rand = seededRandom(3);
    const creates = new Set<string>();
    const updates = new Set<string>();
    for (let i = 0; i < 500; i++) {
      creates.add(decideApiFault(rand, { method: 'POST', path: '/api/v1/namespaces/x/pods' }, 1)!.kind);
      updates.add(decideApiFault(rand, { method: 'PATCH', path: '/api/v1/namespaces/x/pods/p' }, 1)!.kind);
    }
    expect(creates).toEqual(new Set(['429', '500', 'timeout']));
    expect(updates).toEqual(new Set(['409', '429', '500', 'timeout']));
  });

  it('breaks about `rate` of the requests', () => {
    const rand = seededRandom(5);
    let n = 0;
    for (let i = 0; i < 10_000; i++)
      if (decideApiFault(rand, { method: 'POST', path: '/api/v1/x' }, 0.1)) n++;
    expect(n).toBeGreaterThan(850);
    expect(n).toBeLessThan(1150);
  });
});

describe('statusBody', () => {
  it('is a Kubernetes Status with the code and reason', () => {
    const s = statusBody('409');
    expect(s.code).toBe(409);
    expect(JSON.parse(s.body)).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
  });
});
