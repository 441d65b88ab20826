import { describe, expect, it } from 'vitest';
import { ImagePullError } from './errors.js';
import { calculateStatus } from './status.js';
import { job, nodeImage, owner } from './testing/fixtures.js';

const now = new Date('2025-01-01T01:00:00Z');
const A = { namespace: 'kruise-daemon-config', name: 'a', mode: 'batch' };

describe('calculateStatus (§8.7)', () => {
  it.each([
    {
      name: '1 node, tag v1 owned, status Succeeded v1',
      job: job(),
      nis: [nodeImage('node1', { tag: '1.20', version: 1, status: { phase: 'Succeeded', version: 1 } })],
      expect: [1, 0, 1, 0],
      message: 'job has completed',
      notSynced: [],
    },
    {
      name: 'job nginx:1.21; status only for tag 1.20',
      job: job((j) => (j.spec.image = 'nginx:1.21')),
      nis: [
        (() => {
          const ni = nodeImage('node1', { tag: '1.21', version: 0, status: { tag: '1.20', phase: 'Succeeded' } });
          return ni;
        })(),
      ],
      expect: [1, 1, 0, 0],
      message: 'job is running, progress 0.0%',
      notSynced: [],
    },
    {
      name: 'job nginx:1.21; status 1.21 at version 0, spec version 1',
      job: job((j) => (j.spec.image = 'nginx:1.21')),
      nis: [nodeImage('node1', { tag: '1.21', version: 1, status: { phase: 'Succeeded', version: 0 } })],
      expect: [1, 1, 0, 0],
      message: 'job is running, progress 0.0%',
      notSynced: [],
    },
    {
      name: 'tag just written, no status',
      job: job(),
      nis: [nodeImage('node1', { tag: '1.20' })],
      expect: [1, 1, 0, 0],
      message: 'job is running, progress 0.0%',
      notSynced: [],
    },
    {
      name: 'secret ref missing in NodeImage, tag synced',
      job: job(),
      nis: [nodeImage('node1', { tag: '1.20' })],
      secrets: [A],
      expect: [1, 1, 0, 0],
      message: 'job is running, progress 0.0%',
      notSynced: ['node1'],
    },
    {
      name: 'tag present but owner UID differs',
      job: job(),
      nis: [nodeImage('node1', { tag: '1.20', owners: [owner('other')] })],
      expect: [1, 0, 0, 0],
      message: 'job is running, progress 0.0%',
      notSynced: ['node1'],
    },
  ])('$name', (c) => {
    const { status, notSynced } = calculateStatus(c.job, c.nis, c.secrets ?? [], now);
    expect([status.desired, status.active, status.succeeded, status.failed]).toEqual(c.expect);
    expect(status.message).toBe(c.message);
    expect(notSynced).toEqual(c.notSynced);
  });

  it('3 nodes: Succeeded, Pulling, Failed → 3/1/1/1, failedNodes [node3], 66.7%', () => {
    const { status } = calculateStatus(
      job(),
      [
        nodeImage('node1', { tag: '1.20', status: { phase: 'Succeeded' } }),
        nodeImage('node2', { tag: '1.20', status: { phase: 'Pulling' } }),
        nodeImage('node3', { tag: '1.20', status: { phase: 'Failed' } }),
      ],
      [],
      now,
    );
    expect([status.desired, status.active, status.succeeded, status.failed]).toEqual([3, 1, 1, 1]);
    expect(status.failedNodes).toEqual(['node3']);
    expect(status.message).toBe('job is running, progress 66.7%');
    expect(status.completionTime).toBeUndefined();
  });

  it('invalid image → error', () => {
    expect(() => calculateStatus(job((j) => (j.spec.image = 'invalid image reference!!!')), [], [], now)).toThrow(
      ImagePullError,
    );
  });

  it('Always, all succeeded → completionTime set, job has completed', () => {
    const { status } = calculateStatus(job(), [nodeImage('node1', { tag: '1.20', status: { phase: 'Succeeded' } })], [], now);
    expect(status.completionTime).toBe('2025-01-01T01:00:00Z');
    expect(status.message).toBe('job has completed');
  });

  it('Always with no node completes at once; Never never completes', () => {
    expect(calculateStatus(job(), [], [], now).status.completionTime).toBeDefined();
    const never = job((j) => (j.spec.completionPolicy = { type: 'Never' }));
    const { status } = calculateStatus(never, [nodeImage('node1', { tag: '1.20', status: { phase: 'Succeeded' } })], [], now);
    expect(status.completionTime).toBeUndefined();
    expect(status.message).toBe('job is running, progress 100.0%');
    expect(calculateStatus(never, [], [], now).status.message).toBe('job is running, no progress');
  });

  it('Always, activeDeadline 300, started 10 min ago, still Pulling → failed by deadline', () => {
    const j = job((x) => {
      x.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 300 };
      x.status = { desired: 1, startTime: '2025-01-01T00:50:00Z' };
    });
    const { status, notSynced } = calculateStatus(j, [nodeImage('node1', { tag: '1.20', status: { phase: 'Pulling' } })], [], now);
    expect([status.desired, status.active, status.succeeded, status.failed]).toEqual([1, 0, 0, 1]);
    expect(status.failedNodes).toEqual(['node1']);
    expect(status.completionTime).toBeDefined();
    expect(status.message).toBe('job exceeds activeDeadlineSeconds');
    expect(notSynced).toEqual([]);
  });

  it('deadline: a node synced but missing secrets is listed twice (as upstream)', () => {
    const j = job((x) => {
      x.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 300 };
      x.status = { desired: 1, startTime: '2025-01-01T00:50:00Z' };
    });
    const { status } = calculateStatus(j, [nodeImage('node1', { tag: '1.20' })], [A], now);
    expect(status.failedNodes).toEqual(['node1', 'node1']);
    expect(status.failed).toBe(2);
  });
});
