import { describe, expect, it } from 'vitest';
import { type RoundFailure, type RoundSteps, failureOf, runRound, soonestRequeue } from './run-round.js';

/** A round whose steps only say they ran (the order is what is under test). */
function scripted(opts: { deleting?: boolean; fails?: unknown; delays?: number[] } = {}): {
  steps: RoundSteps<RoundFailure, string>;
  ran: string[];
} {
  const ran: string[] = [];
  const steps: RoundSteps<RoundFailure, string> = {
    deleting: opts.deleting,
    manage: async () => {
      ran.push('manage');
      return 'fails' in opts ? { err: opts.fails } : undefined;
    },
    status: async (failure) => {
      ran.push(failure ? 'status(failed)' : 'status');
      return 'computed';
    },
    follow: async (status) => void ran.push(`follow(${status})`),
    history: async (status) => void ran.push(`history(${status})`),
    delays: () => opts.delays ?? [],
  };
  return { steps, ran };
}

describe('runRound: manage, status, trace, history, then the failure or the requeue', () => {
  it.each([
    { name: 'a quiet round', opts: {}, ran: ['manage', 'status', 'follow(computed)', 'history(computed)'] },
    {
      name: 'a workload being deleted: no manage, status and history still run',
      opts: { deleting: true },
      ran: ['status', 'follow(computed)', 'history(computed)'],
    },
    {
      name: 'manage failed: the status knows, the trace and history still run',
      opts: { fails: new Error('boom') },
      ran: ['manage', 'status(failed)', 'follow(computed)', 'history(computed)'],
    },
  ])('$name', async ({ opts, ran: expected }) => {
    const { steps, ran } = scripted(opts);
    await runRound(steps).catch(() => undefined);
    expect(ran).toEqual(expected);
  });

  it('rethrows the failure once status and history ran (the queue backs off)', async () => {
    const err = new Error('scale failed');
    const { steps, ran } = scripted({ fails: err, delays: [100] });
    await expect(runRound(steps)).rejects.toBe(err);
    expect(ran.at(-1)).toBe('history(computed)');
  });

  it('asks again after the soonest delay a step asked for', async () => {
    await expect(runRound(scripted({ delays: [0, 5000, -1, 1200] }).steps)).resolves.toEqual({
      requeueAfterMs: 1200,
    });
    await expect(runRound(scripted({ delays: [0] }).steps)).resolves.toEqual({});
  });
});

describe('soonestRequeue', () => {
  it.each([
    { delays: [], otherwise: undefined, result: {} },
    { delays: [0, -5], otherwise: undefined, result: {} },
    { delays: [300, 20], otherwise: undefined, result: { requeueAfterMs: 20 } },
    { delays: [0], otherwise: { requeueAfterMs: 1000 }, result: { requeueAfterMs: 1000 } },
    { delays: [40], otherwise: { requeueAfterMs: 1000 }, result: { requeueAfterMs: 40 } },
  ])('$delays (otherwise $otherwise) → $result', ({ delays, otherwise, result }) => {
    expect(soonestRequeue(delays, otherwise)).toEqual(result);
  });
});

describe('failureOf', () => {
  it('is undefined when the step resolves, the named failure when it throws', async () => {
    expect(
      await failureOf(
        async () => 'done',
        (err) => ({ type: 'FailedScale', err }),
      ),
    ).toBeUndefined();
    const err = new Error('nope');
    expect(
      await failureOf(
        async () => {
          throw err;
        },
        (e) => ({ type: 'FailedUpdate', err: e }),
      ),
    ).toEqual({ type: 'FailedUpdate', err });
  });
});
