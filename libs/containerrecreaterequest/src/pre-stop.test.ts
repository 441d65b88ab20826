import { CriCallError, GrpcStatus } from '@regatta/cri';
import { describe, expect, it } from 'vitest';
import { remainingGraceSeconds, runPreStopHook } from './pre-stop.js';

describe('remainingGraceSeconds', () => {
  it.each([
    [30, 0, 30],
    [30, 8_200, 22],
    [10, 9_500, 2],
    [5, 60_000, 2],
  ])('grace %i s, hook %i ms → %i s', (grace, elapsed, left) => {
    expect(remainingGraceSeconds(grace, elapsed)).toBe(left);
  });
});

describe('runPreStopHook', () => {
  const log = { warn: () => undefined };
  it('runs an exec hook in the container with the grace period as its limit', async () => {
    const calls: unknown[] = [];
    const cri = {
      execSync: async (id: string, cmd: string[], timeout: number) => {
        calls.push([id, cmd, timeout]);
        return { exitCode: 0 };
      },
    };
    expect(await runPreStopHook(cri, 'c1', { exec: { command: ['sleep', '0'] } }, 30, log)).toBe(30);
    expect(calls).toEqual([['c1', ['sleep', '0'], 30]]);
  });
  it('stops anyway when the hook fails; skips a runtime without ExecSync and handlers other than exec', async () => {
    const warned: string[] = [];
    const failing = {
      execSync: () => Promise.reject(new CriCallError('ExecSync', GrpcStatus.UNKNOWN, 'boom')),
    };
    expect(
      await runPreStopHook(failing, 'c1', { exec: { command: ['x'] } }, 5, {
        warn: (_f, m) => warned.push(m),
      }),
    ).toBe(5);
    expect(warned).toHaveLength(1);
    const unimplemented = {
      execSync: () => Promise.reject(new CriCallError('ExecSync', GrpcStatus.UNIMPLEMENTED, 'no')),
    };
    warned.length = 0;
    await runPreStopHook(unimplemented, 'c1', { exec: { command: ['x'] } }, 5, {
      warn: (_f, m) => warned.push(m),
    });
    expect(warned).toEqual([]);
    expect(await runPreStopHook({}, 'c1', { exec: { command: ['x'] } }, 1, log)).toBe(2);
    expect(await runPreStopHook(failing, 'c1', { httpGet: { port: 80 } }, 7, log)).toBe(7);
  });
  it('waits out a sleep hook within the grace period', async () => {
    const t0 = Date.now();
    expect(await runPreStopHook({}, 'c1', { sleep: { seconds: 1 } }, 30, log)).toBe(29);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(990);
  });
});
