import { describe, expect, it } from 'vitest';
import { checkHost, checkMutation, dashboardUrl, isLoopbackHost, listenAddress, listenPort } from './guard.js';

describe('listen address and port', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['127.0.0.256', false],
    ['localhost.evil.example', false],
    ['', false],
  ])('%s loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('takes loopback addresses only, with the reason', () => {
    expect(listenAddress(undefined)).toBe('127.0.0.1');
    expect(listenAddress('[::1]')).toBe('::1');
    expect(() => listenAddress('0.0.0.0')).toThrow(/--address must be a loopback address .* has no login/);
  });

  it('takes ports 0 to 65535 and writes the address as a browser does', () => {
    expect(listenPort(undefined)).toBe(3110);
    expect(listenPort('0')).toBe(0);
    expect(() => listenPort('70000')).toThrow('--port must be a whole number from 0 to 65535');
    expect(() => listenPort('80x')).toThrow('--port');
    expect(dashboardUrl('127.0.0.1', 3110)).toBe('http://127.0.0.1:3110/');
    expect(dashboardUrl('::1', 3110)).toBe('http://[::1]:3110/');
  });
});

describe('checkHost: no DNS rebinding', () => {
  it.each([
    ['127.0.0.1:3110', undefined],
    ['localhost:3110', undefined],
    ['[::1]:3110', undefined],
    ['127.0.0.1:3111', 403],
    ['127.0.0.1', 403],
    ['evil.example:3110', 403],
    ['', 403],
    [undefined, 403],
  ])('Host %s → %s', (host, status) => {
    expect(checkHost(host, 3110)?.status).toBe(status);
  });
});

describe('checkMutation: POST, own origin, the run token', () => {
  const token = 'a'.repeat(32);
  const ok = { method: 'POST', host: '127.0.0.1:3110', origin: 'http://127.0.0.1:3110', token };
  it.each([
    ['a POST from the page', ok, undefined],
    ['no Origin (not a browser) with the token', { ...ok, origin: undefined }, undefined],
    ['GET', { ...ok, method: 'GET' }, 405],
    ['another origin', { ...ok, origin: 'http://evil.example' }, 403],
    ['the same host over https', { ...ok, origin: 'https://127.0.0.1:3110' }, 403],
    ['origin null', { ...ok, origin: 'null' }, 403],
    ['no token', { ...ok, token: undefined }, 403],
    ['a wrong token', { ...ok, token: 'b'.repeat(32) }, 403],
    ['a short token', { ...ok, token: 'a' }, 403],
    ['another Host', { ...ok, host: 'evil.example:3110' }, 403],
  ])('%s', (_what, req, status) => {
    expect(checkMutation(req, token, 3110)?.status).toBe(status);
  });
});
