import type { ImagePullJob } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { jobSpan } from './job-trace.js';

const UID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const NOW = new Date('2026-12-03T12:00:00Z');
const job = (o: { uid?: string; deleted?: string; status?: ImagePullJob['status']; type?: 'Always' | 'Never' } = {}) =>
  ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'ImagePullJob',
    metadata: {
      namespace: 'ns',
      name: 'warm',
      uid: o.uid ?? UID,
      creationTimestamp: '2026-12-03T11:59:00Z',
      ...(o.deleted ? { deletionTimestamp: o.deleted } : {}),
    },
    spec: { image: 'nginx:1.25', completionPolicy: { type: o.type ?? 'Always' } },
    ...(o.status ? { status: o.status } : {}),
  }) as ImagePullJob;

describe('jobSpan: the root span of a job trace', () => {
  it.each([
    {
      name: 'completed on every node: creation → completionTime',
      job: job({ status: { desired: 3, succeeded: 3, failed: 0, completionTime: '2026-12-03T11:59:30Z' } }),
      end: '2026-12-03T11:59:30.000Z',
      outcome: 'completed',
      error: undefined,
    },
    {
      name: 'completed with failed nodes: an error',
      job: job({ status: { desired: 3, succeeded: 1, failed: 2, completionTime: '2026-12-03T11:59:40Z' } }),
      end: '2026-12-03T11:59:40.000Z',
      outcome: 'completed',
      error: 'pull failed on 2 of 3 nodes',
    },
    {
      name: 'past its deadline: an error with the job message',
      job: job({
        status: { desired: 3, succeeded: 1, failed: 0, completionTime: '2026-12-03T11:59:50Z', message: 'job exceeds activeDeadlineSeconds' },
      }),
      end: '2026-12-03T11:59:50.000Z',
      outcome: 'completed',
      error: 'job exceeds activeDeadlineSeconds',
    },
    {
      name: 'a Never job, deleted: creation → deletion',
      job: job({ type: 'Never', deleted: '2026-12-03T11:59:55Z', status: { desired: 2, succeeded: 2, failed: 0 } }),
      end: '2026-12-03T11:59:55.000Z',
      outcome: 'deleted',
      error: undefined,
    },
    {
      name: 'no end time recorded: now',
      job: job({ status: { desired: 1, succeeded: 0, failed: 0 } }),
      end: NOW.toISOString(),
      outcome: 'deleted',
      error: undefined,
    },
  ])('$name', ({ job: j, end, outcome, error }) => {
    const s = jobSpan(j, NOW)!;
    expect(s.ids).toEqual({ traceId: '0f8fad5bd9cb469fa16570867728950e', spanId: 'a16570867728950e' });
    expect(s.startTime.toISOString()).toBe('2026-12-03T11:59:00.000Z');
    expect(s.endTime.toISOString()).toBe(end);
    expect(s.attributes['regatta.outcome']).toBe(outcome);
    expect(s.error).toBe(error);
  });

  it('has none for a uid that is not a UUID', () => {
    expect(jobSpan(job({ uid: 'x' }), NOW)).toBeUndefined();
  });
});
