import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import { parseHostPort, parseNamespaceScope, readProcessConfig } from './process-config.js';

describe('process configuration', () => {
  it.each([
    ['127.0.0.1:8081', { host: '127.0.0.1', port: 8081 }],
    [':9000', { host: '0.0.0.0', port: 9000 }],
    ['9000', { host: '0.0.0.0', port: 9000 }],
  ])('%s', (v, want) => expect(parseHostPort('X', v)).toEqual(want));

  it('rejects a bad address with the variable name and an example', () => {
    expect(() => parseHostPort('REGATTA_HEALTH_ADDR', 'localhost:http')).toThrow(InvalidOptionsError);
    expect(() => parseHostPort('REGATTA_HEALTH_ADDR', 'localhost:http')).toThrow(
      /REGATTA_HEALTH_ADDR.*127\.0\.0\.1:8081/,
    );
  });

  it('uses the pod name as identity and kube-system for leases by default', () => {
    const c = readProcessConfig({ POD_NAME: 'watcher-0' });
    expect(c).toEqual({
      health: { host: '0.0.0.0', port: 8081 },
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
