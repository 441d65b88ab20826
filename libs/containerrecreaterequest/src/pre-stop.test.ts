import { CriCallError, GrpcStatus } from '@regatta/cri';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpGetUrl } from './pre-stop-http.js';
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

describe('httpGetUrl', () => {
  const ports = [{ name: 'web', containerPort: 8080 }];
  it.each<[string, Parameters<typeof httpGetUrl>[0], string]>([
    ['the pod IP, a number port', { path: '/hook/prestop', port: 80 }, 'http://10.0.0.5/hook/prestop'],
    ['a named port', { path: '/stop', port: 'web' }, 'http://10.0.0.5:8080/stop'],
    ['a numeric string port', { path: 'stop', port: '9090' }, 'http://10.0.0.5:9090/stop'],
    [
      'a host, HTTPS, a query',
      { path: '/q?drain=1', port: 443, host: 'example.test', scheme: 'HTTPS' },
      'https://example.test/q?drain=1',
    ],
    ['no path', { port: 81 }, 'http://10.0.0.5:81/'],
  ])('%s', (_, action, want) => {
    const at = httpGetUrl(action, '10.0.0.5', ports);
    expect('url' in at && at.url.href).toBe(want);
  });
  it.each<[string, Parameters<typeof httpGetUrl>[0], string, RegExp]>([
    ['an unknown named port', { port: 'admin' }, '10.0.0.5', /port "admin" is not a port of the container/],
    ['no IP and no host', { port: 80 }, '', /no IP/],
    ['a bad scheme', { port: 80, scheme: 'FTP' }, '10.0.0.5', /scheme "FTP"/],
  ])('refused: %s', (_, action, ip, problem) => {
    const at = httpGetUrl(action, ip, ports);
    expect('problem' in at && at.problem).toMatch(problem);
  });
});

describe('runPreStopHook with an httpGet hook', () => {
  it("sends the GET (headers, the kubelet's user agent) to the pod's IP from its sandbox, then leaves the rest of the grace", async () => {
    const seen: { url?: string; agent?: string; drain?: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url, agent: req.headers['user-agent'], drain: req.headers['x-drain'] as string });
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const sandboxes: string[] = [];
      const cri = {
        podSandboxIP: async (id: string) => {
          sandboxes.push(id);
          return '127.0.0.1';
        },
      };
      const hook = {
        httpGet: { path: '/hook/prestop', port: 'web', httpHeaders: [{ name: 'X-Drain', value: 'yes' }] },
      };
      const left = await runPreStopHook(
        cri,
        'c1',
        hook,
        30,
        { warn: () => undefined },
        {
          podSandboxId: 'sb1',
          ports: [{ name: 'web', containerPort: port }],
        },
      );
      expect(left).toBeGreaterThanOrEqual(29);
      expect(sandboxes).toEqual(['sb1']);
      expect(seen).toEqual([{ url: '/hook/prestop', agent: 'kube-lifecycle/regatta', drain: 'yes' }]);
    } finally {
      server.close();
    }
  });

  it('logs a refused connection and an error status, and stops anyway; skips a runtime that cannot say the IP', async () => {
    const warned: string[] = [];
    const log = { warn: (_f: object, m: string) => warned.push(m) };
    const cri = { podSandboxIP: async () => '127.0.0.1' };
    // port 1: nothing listens
    expect(await runPreStopHook(cri, 'c1', { httpGet: { port: 1 } }, 5, log, { podSandboxId: 'sb' })).toBe(5);
    expect(warned).toEqual(['preStop httpGet hook failed; stopping the container anyway']);
    warned.length = 0;
    const server = createServer((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      await runPreStopHook(cri, 'c1', { httpGet: { port } }, 5, log, { podSandboxId: 'sb' });
      expect(warned).toEqual(['preStop httpGet hook answered an error']);
    } finally {
      server.close();
    }
    warned.length = 0;
    expect(await runPreStopHook({}, 'c1', { httpGet: { port: 80 } }, 7, log, { podSandboxId: 'sb' })).toBe(7);
    expect(await runPreStopHook(cri, 'c1', { tcpSocket: { port: 80 } }, 7, log)).toBe(7);
    expect(warned).toEqual([]);
  });
});
