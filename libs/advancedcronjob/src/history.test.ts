import { describe, expect, it } from 'vitest';
import type { ChildJob, JobOutcome } from './children.js';
import { historyToPrune, jobsBeyondLimit } from './history.js';

const job = (name: string, outcome: JobOutcome, startTime?: number, deleting = false): ChildJob => ({
  name,
  ref: { name },
  outcome,
  ...(startTime === undefined ? {} : { startTime }),
  deleting,
});

describe('jobsBeyondLimit', () => {
  const jobs = [job('c', 'Complete', 30), job('a', 'Complete', 10), job('never-started', 'Complete'), job('b', 'Complete', 20)];
  it.each([
    [undefined, []],
    [4, []],
    [10, []],
    [3, ['never-started']],
    [2, ['never-started', 'a']],
    [0, ['never-started', 'a', 'b', 'c']],
    [-1, ['never-started', 'a', 'b', 'c']],
  ] as const)('limit %s deletes %j (oldest start first, never started counts oldest)', (limit, names) => {
    expect(jobsBeyondLimit(jobs, limit).map((j) => j.name)).toEqual(names);
  });

  it('a job being deleted is neither counted nor deleted again', () => {
    const withDeleting = [job('x', 'Complete', 1, true), job('y', 'Complete', 2), job('z', 'Complete', 3)];
    expect(jobsBeyondLimit(withDeleting, 1).map((j) => j.name)).toEqual(['y']);
  });
});

describe('historyToPrune', () => {
  it('applies each limit to its own outcome and never touches active jobs', () => {
    const jobs = [
      job('s1', 'Complete', 1),
      job('s2', 'Complete', 2),
      job('s3', 'Complete', 3),
      job('f1', 'Failed', 1),
      job('f2', 'Failed', 2),
      job('r', 'Active', 0),
    ];
    expect(historyToPrune(jobs, { successful: 1, failed: 1 }).map((j) => j.name)).toEqual(['f1', 's1', 's2']);
    expect(historyToPrune(jobs, { successful: 3, failed: 0 }).map((j) => j.name)).toEqual(['f1', 'f2']);
    expect(historyToPrune(jobs, {})).toEqual([]);
  });
});
