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
  // a plain command is PID 1 with no SIGTERM handler: it ignores SIGTERM; something not understood is taken for a
  // server, which exits on it
  const plain = (runMs: number | null, exitCode = 0) => ({ runMs, exitCode, exitsOnSigterm: false });
  const server = { runMs: null, exitCode: 0, exitsOnSigterm: true };
  it.each([
    [['sleep', '999'], plain(999_000)],
    [['/bin/sleep', 'infinity'], plain(null)],
    [['tail', '-f', '/dev/null'], plain(null)],
    [['tail', '-F', '/var/log/app.log'], plain(null)],
    [['tail', '/etc/hosts'], server],
    [['true'], plain(0)],
    [['false'], plain(0, 1)],
    [['echo', 'hello'], plain(0)],
    [['sh', '-c', 'sleep 5; exit 3'], plain(5000, 3)],
    [['/bin/sh', '-c', 'echo "a b" && sleep 1 && sleep 2'], plain(3000)],
    // OpenKruise's e2e sidecars: 115 days, beyond a timer: runs until stopped, ignoring SIGTERM
    [['/bin/sh', '-c', 'sleep 10000000'], plain(null)],
    [['sh', '-c', 'exec sleep infinity'], plain(null)],
    // separators inside quotes are not understood: taken for something that runs until stopped
    [['sh', '-c', 'echo "a; b"'], server],
    [['sh', '-c', 'exit 2; sleep 100'], plain(0, 2)],
    [['sh', '-c', 'while true; do sleep 1; done'], server],
    [['sh', '/migrate.sh'], server],
    [['nginx', '-g', 'daemon off;'], server],
    [[], server],
    // a trap on TERM ends the shell while it waits for a background job…
    [
      ['sh', '-c', "trap 'exit 0' TERM; sleep infinity & wait"],
      { runMs: null, exitCode: 0, exitsOnSigterm: true },
    ],
    [
      ['sh', '-c', 'trap "exit 0" SIGTERM INT\nsleep 30 &\nwait'],
      { runMs: 30_000, exitCode: 0, exitsOnSigterm: true },
    ],
    // …not while a foreground command runs (the shell runs traps between commands), nor with an empty action
    [['sh', '-c', "trap 'exit 0' TERM; sleep infinity"], plain(null)],
    [['sh', '-c', "trap '' TERM; sleep 5 & wait"], plain(5000)],
    [['sh', '-c', "trap 'exit 0' INT; sleep 5 & wait"], plain(5000)],
  ])('%j → %j', (argv, p) => expect(processOf(argv)).toEqual(p));
});

describe('mainProcessOf (a container)', () => {
  it('runs the image command when the spec has none: busybox exits at once, a server runs on', () => {
    const exitsAtOnce = { runMs: 0, exitCode: 0, exitsOnSigterm: false };
    const server = { runMs: null, exitCode: 0, exitsOnSigterm: true };
    expect(mainProcessOf({ image: 'busybox' })).toEqual(exitsAtOnce);
    expect(mainProcessOf({ image: 'docker.io/library/busybox:1.36' })).toEqual(exitsAtOnce);
    expect(mainProcessOf({ image: 'redis:7.0-alpine' })).toEqual(server);
    expect(mainProcessOf({ image: 'example.com/busybox:1' })).toEqual(server);
  });

  it('command plus args; args alone replace the command of images without an entrypoint', () => {
    expect(mainProcessOf({ image: 'busybox', command: ['sleep'], args: ['30'] })).toEqual({
      runMs: 30_000,
      exitCode: 0,
      exitsOnSigterm: false,
    });
    expect(mainProcessOf({ image: 'busybox', args: ['sleep', '3'] })).toEqual({
      runMs: 3000,
      exitCode: 0,
      exitsOnSigterm: false,
    });
    expect(mainProcessOf({ image: 'redis', args: ['--port', '7000'] })).toEqual({
      runMs: null,
      exitCode: 0,
      exitsOnSigterm: true,
    });
    expect(mainProcessOf({ image: 'busybox', command: ['sleep', '999d'] })).toEqual({
      runMs: null,
      exitCode: 0,
      exitsOnSigterm: false,
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
