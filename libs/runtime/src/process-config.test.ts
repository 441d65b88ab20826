import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import {
  defaultListenHost,
  parseHostPort,
  parseNamespaceScope,
  readProcessConfig,
} from './process-config.js';

describe('process configuration', () => {
  it.each([
    ['127.0.0.1:8081', '0.0.0.0', { host: '127.0.0.1', port: 8081 }],
    ['0.0.0.0:8081', '127.0.0.1', { host: '0.0.0.0', port: 8081 }],
    [':9000', '0.0.0.0', { host: '0.0.0.0', port: 9000 }],
    [':9000', '127.0.0.1', { host: '127.0.0.1', port: 9000 }],
    ['9000', '127.0.0.1', { host: '127.0.0.1', port: 9000 }],
    ['[::1]:9443', '127.0.0.1', { host: '::1', port: 9443 }],
    ['localhost:0', '127.0.0.1', { host: 'localhost', port: 0 }],
  ])('%s with default host %s', (v, defaultHost, want) =>
    expect(parseHostPort('X', v, defaultHost)).toEqual(want),
  );

  it.each(['localhost:http', 'localhost:', 'host:70000', ''])(
    'rejects %j naming the variable and an example',
    (v) => {
      expect(() => parseHostPort('REGATTA_HEALTH_ADDR', v)).toThrow(InvalidOptionsError);
      expect(() => parseHostPort('REGATTA_HEALTH_ADDR', v)).toThrow(/REGATTA_HEALTH_ADDR.*127\.0\.0\.1:8081/);
    },
  );

  // in a pod probes and webhook calls arrive on the pod IP; outside a cluster only loopback is served
  it.each([
    [{}, '127.0.0.1'],
    [{ KUBERNETES_SERVICE_HOST: '' }, '127.0.0.1'],
    [{ KUBERNETES_SERVICE_HOST: '10.96.0.1' }, '0.0.0.0'],
  ])('default listen host for %j is %s', (env, want) => expect(defaultListenHost(env)).toBe(want));

  it.each([
    ['outside a cluster', {}, { health: { host: '127.0.0.1', port: 8081 }, webhook: undefined }],
    [
      'in a pod',
      { KUBERNETES_SERVICE_HOST: '10.96.0.1' },
      { health: { host: '0.0.0.0', port: 8081 }, webhook: undefined },
    ],
    [
      'in a pod, webhook port only',
      { KUBERNETES_SERVICE_HOST: '10.96.0.1', REGATTA_WEBHOOK_ADDR: ':9443' },
      { health: { host: '0.0.0.0', port: 8081 }, webhook: { host: '0.0.0.0', port: 9443 } },
    ],
    [
      'outside, webhook port only',
      { REGATTA_WEBHOOK_ADDR: '9443', REGATTA_HEALTH_ADDR: ':18081' },
      { health: { host: '127.0.0.1', port: 18081 }, webhook: { host: '127.0.0.1', port: 9443 } },
    ],
    [
      'explicit addresses win',
      {
        KUBERNETES_SERVICE_HOST: '10.96.0.1',
        REGATTA_HEALTH_ADDR: '127.0.0.1:1',
        REGATTA_WEBHOOK_ADDR: '127.0.0.1:2',
      },
      { health: { host: '127.0.0.1', port: 1 }, webhook: { host: '127.0.0.1', port: 2 } },
    ],
  ])('listen addresses %s', (_, env, want) => {
    expect(readProcessConfig(env)).toMatchObject(want);
  });

  it('uses the pod name as identity and kube-system for leases by default', () => {
    const c = readProcessConfig({ POD_NAME: 'watcher-0', KUBERNETES_SERVICE_HOST: '10.96.0.1' });
    expect(c).toEqual({
      health: { host: '0.0.0.0', port: 8081 },
      webhook: undefined,
      identity: 'watcher-0',
      leaseNamespace: 'kube-system',
    });
  });
});

describe('parseNamespaceScope', () => {
  it.each([
    [undefined, undefined],
    ['  ', undefined],
    ['team=payments', { matchLabels: { team: 'payments' } }],
    ['a=1, b = 2', { matchLabels: { a: '1', b: '2' } }],
    ['opted-in=', { matchLabels: { 'opted-in': '' } }],
  ])('%j', (value, want) => {
    expect(parseNamespaceScope('REGATTA_NAMESPACE_SELECTOR', value)).toEqual(want);
  });
  it('rejects what is not key=value, naming the variable', () => {
    expect(() => parseNamespaceScope('REGATTA_NAMESPACE_SELECTOR', 'team')).toThrow(
      /invalid REGATTA_NAMESPACE_SELECTOR: 'team' is not key=value/,
    );
  });
});
