import { describe, expect, it } from 'vitest';
import { Child } from './common.js';

describe('Child (a benchmark helper process)', () => {
  it('answers calls; once the helper is gone a call fails instead of crashing the run', async () => {
    const child = Child.start('echo', 'echo-helper.ts');
    expect(await child.call('echo', { a: 1 })).toEqual({ a: 1 });
    // as a Ctrl-C does to the whole process group: the helper dies before the run's stop path calls it
    process.kill(child.pid, 'SIGKILL');
    await child.exited;
    await expect(child.call('stop')).rejects.toThrow(/^echo: .*(closed|not running)/i);
  }, 15_000);
});
