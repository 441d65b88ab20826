import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeErrorFromResponse } from './errors.js';
import { DEFAULT_BACKOFF, DEFAULT_RETRY, backoffDelays, retryOnConflict, retryOnError } from './retry.js';

const conflict = (): Error => kubeErrorFromResponse(409, { kind: 'Status', reason: 'Conflict', message: 'stale' });
const fast = { backoff: { durationMs: 0 } };

describe('backoffDelays', () => {
  const cases: [number, Parameters<typeof backoffDelays>[1], number[]][] = [
    [DEFAULT_RETRY.steps, DEFAULT_RETRY.backoff, [10, 10, 10, 10]],
    [DEFAULT_BACKOFF.steps, DEFAULT_BACKOFF.backoff, [10, 50, 250]],
    [4, { durationMs: 100, factor: 2, capMs: 300 }, [100, 200, 300]],
    [1, { durationMs: 10 }, []],
  ];
  it.each(cases)('%i steps of %j', (steps, backoff, expected) => {
    expect(backoffDelays(steps, backoff)).toEqual(expected);
  });
});

describe('retryOnConflict', () => {
  it('retries conflicts until success', async () => {
    let calls = 0;
    const out = await retryOnConflict(async () => {
      calls++;
      if (calls < 3) throw conflict();
      return 'ok';
    }, fast);
    expect(out).toBe('ok');
    expect(calls).toBe(3);
  });

  it('recognises client-node ApiException conflicts too', async () => {
    let calls = 0;
    await retryOnConflict(async () => {
      if (++calls === 1) throw new ApiException(409, 'x', '{"kind":"Status","reason":"Conflict"}', {});
    }, fast);
    expect(calls).toBe(2);
  });

  it('gives up after `steps` attempts with the last conflict', async () => {
    let calls = 0;
    const last = conflict();
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw calls === 5 ? last : conflict();
      }, fast),
    ).rejects.toBe(last);
    expect(calls).toBe(DEFAULT_RETRY.steps);
  });

  it('rethrows other errors at once, unchanged', async () => {
    let calls = 0;
    const boom = new Error('boom');
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw boom;
      }, fast),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    let calls = 0;
    await expect(
      retryOnConflict(
        async () => {
          calls++;
          ac.abort();
          throw conflict();
        },
        { steps: 10, backoff: { durationMs: 1000 }, signal: ac.signal },
      ),
    ).rejects.toThrow('stale');
    expect(calls).toBe(1);
  });
});

describe('retryOnError', () => {
  it('uses the given predicate and steps', async () => {
    let calls = 0;
    await expect(
      retryOnError(
        async () => {
          calls++;
          throw new Error('x');
        },
        () => true,
        { steps: 3, backoff: { durationMs: 0 } },
      ),
    ).rejects.toThrow('x');
    expect(calls).toBe(3);
  });
});
