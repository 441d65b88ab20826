import { describe, expect, it } from 'vitest';
import { checkRuntime, parseDuties, RUNTIME_CHECK_TIMEOUT_MS } from './program.js';

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

describe('parseDuties', () => {
  it.each([
    [undefined, { imagePull: true, containerRecreate: true, containerMeta: false }],
    ['', { imagePull: true, containerRecreate: true, containerMeta: false }],
    ['all', { imagePull: true, containerRecreate: true, containerMeta: true }],
    ['containermeta', { imagePull: false, containerRecreate: false, containerMeta: true }],
    ['imagepull, containerrecreate', { imagePull: true, containerRecreate: true, containerMeta: false }],
  ])('%s', (value, duties) => {
    expect(parseDuties(value)).toEqual(duties);
  });
  it('refuses an unknown duty', () => {
    expect(() => parseDuties('imagepull,meta')).toThrow(/unknown duty meta/);
  });
});
