import { describe, expect, it } from 'vitest';
import { replicasUpdate } from './bucket.js';
import { busReplicas, serverList } from './connection.js';
import { BusOptionsError } from './errors.js';

describe('the replicas of the buckets a program creates (docs/operations.md "A clustered bus")', () => {
  const one = ['nats://127.0.0.1:4222'];
  const three = ['nats://127.0.0.1:1', 'nats://127.0.0.1:2', 'nats://127.0.0.1:3'];
  it.each([
    ['one server, nothing configured: 1, as before a cluster existed', { servers: one }, 1],
    ['three servers given', { servers: three }, 3],
    ['one URL (a Service), the server announcing three', { servers: one, announced: three }, 3],
    ['five servers: at most 3', { servers: [...three, 'nats://x:4', 'nats://x:5'] }, 3],
    ['configured wins over the size', { servers: three, configured: '1' }, 1],
    ['configured as a number', { servers: one, configured: 5 }, 5],
    ['an empty setting is no setting', { servers: three, configured: '' }, 3],
  ])('%s', (_name, o, want) => {
    expect(busReplicas(o)).toBe(want);
  });

  it.each(['0', '6', '2.5', 'three'])('refuses REGATTA_BUS_REPLICAS=%s', (configured) => {
    expect(() => busReplicas({ servers: one, configured })).toThrow(BusOptionsError);
  });

  it('splits NATS_URL into its servers', () => {
    expect(serverList('nats://a:4222, nats://b:4222,,nats://c:4222')).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'nats://c:4222',
    ]);
  });

  it.each([
    [undefined, 3, { num_replicas: 3 }],
    [1, 3, { num_replicas: 3 }],
    [3, 3, {}],
    [3, 1, {}],
  ])('a bucket of %s replicas, %s wanted: %j', (current, wanted, update) => {
    expect(replicasUpdate(current, wanted)).toEqual(update);
  });
});
