import { describe, expect, it } from 'vitest';
import { checkRuntime, RUNTIME_CHECK_TIMEOUT_MS } from './program.js';

describe('checkRuntime', () => {
  it.each([
    [
      'a runtime that answers',
      async () => ({ imageFilesystems: [], containerFilesystems: [] }),
      true,
      'info',
    ],
    [
      'a runtime that does not answer (not fatal)',
      () => Promise.reject(new Error('connect ENOENT')),
      false,
      'warn',
    ],
  ])('%s', async (_name, answer, ok, level) => {
    const asked: unknown[] = [];
    const logged: string[] = [];
    const cri = {
      socketPath: '/run/containerd/containerd.sock',
      imageFsInfo: (o: unknown) => {
        asked.push(o);
        return answer() as never;
      },
    };
    const log = { info: () => logged.push('info'), warn: () => logged.push('warn') };
    expect(await checkRuntime(cri, log)).toBe(ok);
    expect(asked).toEqual([{ timeoutMs: RUNTIME_CHECK_TIMEOUT_MS }]);
    expect(logged).toEqual([level]);
  });
});
