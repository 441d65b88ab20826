import { describe, expect, it } from 'vitest';
import { hookMs, mainProcessOf, MAX_FINITE_MS, processOf, sleepMs } from './container-command.js';

describe('sleepMs', () => {
  it.each([
    [['10'], 10_000],
    [['0.5'], 500],
    [['2m'], 120_000],
    [['1h', '30s'], 3_630_000],
    [['999d'], null],
    [['infinity'], null],
    [[], null],
    [['soon'], null],
  ])('sleep %j → %s ms', (ops, ms) => expect(sleepMs(ops)).toBe(ms));
});

describe('processOf (a command line)', () => {
  it.each([
    [['sleep', '999'], { runMs: 999_000, exitCode: 0 }],
    [['/bin/sleep', 'infinity'], { runMs: null, exitCode: 0 }],
    [['true'], { runMs: 0, exitCode: 0 }],
    [['false'], { runMs: 0, exitCode: 1 }],
    [['echo', 'hello'], { runMs: 0, exitCode: 0 }],
    [['sh', '-c', 'sleep 5; exit 3'], { runMs: 5000, exitCode: 3 }],
    [['/bin/sh', '-c', 'echo "a b" && sleep 1 && sleep 2'], { runMs: 3000, exitCode: 0 }],
    // separators inside quotes are not understood: taken for something that runs until stopped
    [['sh', '-c', 'echo "a; b"'], { runMs: null, exitCode: 0 }],
    [['sh', '-c', 'exit 2; sleep 100'], { runMs: 0, exitCode: 2 }],
    [['sh', '-c', 'while true; do sleep 1; done'], { runMs: null, exitCode: 0 }],
    [['sh', '/migrate.sh'], { runMs: null, exitCode: 0 }],
    [['nginx', '-g', 'daemon off;'], { runMs: null, exitCode: 0 }],
    [[], { runMs: null, exitCode: 0 }],
  ])('%j → %j', (argv, p) => expect(processOf(argv)).toEqual(p));
});

describe('mainProcessOf (a container)', () => {
  it('runs the image command when the spec has none: busybox exits at once, a server runs on', () => {
    expect(mainProcessOf({ image: 'busybox' })).toEqual({ runMs: 0, exitCode: 0 });
    expect(mainProcessOf({ image: 'docker.io/library/busybox:1.36' })).toEqual({ runMs: 0, exitCode: 0 });
    expect(mainProcessOf({ image: 'redis:7.0-alpine' })).toEqual({ runMs: null, exitCode: 0 });
    expect(mainProcessOf({ image: 'example.com/busybox:1' })).toEqual({ runMs: null, exitCode: 0 });
  });

  it('command plus args; args alone replace the command of images without an entrypoint', () => {
    expect(mainProcessOf({ image: 'busybox', command: ['sleep'], args: ['30'] })).toEqual({
      runMs: 30_000,
      exitCode: 0,
    });
    expect(mainProcessOf({ image: 'busybox', args: ['sleep', '3'] })).toEqual({ runMs: 3000, exitCode: 0 });
    expect(mainProcessOf({ image: 'redis', args: ['--port', '7000'] })).toEqual({ runMs: null, exitCode: 0 });
    expect(mainProcessOf({ image: 'busybox', command: ['sleep', '999d'] })).toEqual({
      runMs: null,
      exitCode: 0,
    });
  });

  it('never gives a duration a timer cannot wait for', () => {
    expect(processOf(['sh', '-c', 'sleep 20d; sleep 20d']).runMs).toBe(MAX_FINITE_MS);
  });
});

describe('hookMs', () => {
  it.each([
    [undefined, 0],
    [{ exec: { command: ['sleep', '10'] } }, 10_000],
    [{ exec: { command: ['/bin/sh', '-c', 'sleep 2'] } }, 2000],
    [{ exec: { command: ['/bin/sh', '-c', 'echo "preDelete"'] } }, 0],
    [{ exec: { command: ['/usr/bin/drain'] } }, 0],
    [{ sleep: { seconds: 4 } }, 4000],
    [{ httpGet: { path: '/', port: 80 } }, 0],
  ])('%j → %s ms', (h, ms) => expect(hookMs(h)).toBe(ms));
});
