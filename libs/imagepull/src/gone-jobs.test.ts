import { describe, expect, it } from 'vitest';
import { GoneJobs } from './gone-jobs.js';

describe('GoneJobs', () => {
  it('remembers the UIDs confirmed gone; none for a ref without one', () => {
    const gone = new GoneJobs();
    gone.add('uid-a');
    gone.add(undefined);
    gone.add('');
    expect(gone.has('uid-a')).toBe(true);
    expect(gone.has('uid-b')).toBe(false);
    expect(gone.has(undefined)).toBe(false);
  });

  it('keeps at most `limit` UIDs, forgetting the oldest first', () => {
    const gone = new GoneJobs(2);
    for (const uid of ['a', 'b', 'c']) gone.add(uid);
    expect(['a', 'b', 'c'].map((u) => gone.has(u))).toEqual([false, true, true]);
  });
});
