import { describe, expect, it } from 'vitest';
import type { AdmissionInput } from '@regatta/runtime';
import type { AnySidecarSet, Pod } from '../injection/types.js';
import { podDefaulter } from './pod-webhook.js';

const sidecarSet: AnySidecarSet = {
  metadata: {
    name: 'mesh',
    annotations: { 'kruise.io/sidecarset-hash': 'h', 'kruise.io/sidecarset-hash-without-image': 'w' },
  },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    containers: [
      {
        name: 'envoy',
        image: 'envoy',
        podInjectPolicy: 'BeforeAppContainer',
        env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '1' }],
      },
    ],
  },
};
const input = (pod: Pod, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionInput<Pod> =>
  ({
    operation,
    object: pod,
    oldObject: null,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    userInfo: {},
    dryRun: false,
    uid: 'u',
  }) as AdmissionInput<Pod>;
const handler = podDefaulter({
  sidecarSets: () => [sidecarSet],
  namespaceLabels: () => ({}),
  revisions: () => [],
  now: () => new Date('2026-12-03T07:00:00.123Z'),
});

describe('podDefaulter (§5.2: injection, then launch priority)', () => {
  it('an injected sidecar with KRUISE_CONTAINER_PRIORITY gets its barrier, as every container', async () => {
    const pod: Pod = {
      metadata: { name: 'p', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'a' }] },
    };
    const out = (await handler(input(pod))) as Pod;
    expect(out.spec!.containers!.map((c) => c.name)).toEqual(['envoy', 'app']);
    expect(out.spec!.containers!.map((c) => JSON.stringify(c.env))).toEqual([
      expect.stringContaining('"key":"p_1"'),
      expect.stringContaining('"key":"p_0"'),
    ]);
    expect(out.metadata!.annotations!['kruise.io/sidecarset-hash']).toContain(
      '"updateTimestamp":"2026-12-03T07:00:00Z"',
    );
    expect(out.metadata!.namespace).toBeUndefined();
  });
  it('UPDATE and unselected pods are left alone', async () => {
    const pod: Pod = {
      metadata: { name: 'p', labels: { app: 'other' } },
      spec: { containers: [{ name: 'app', image: 'a' }] },
    };
    expect(await handler(input(pod))).toBeUndefined();
    expect(
      await handler(input({ ...pod, metadata: { name: 'p', labels: { app: 'web' } } }, 'UPDATE')),
    ).toBeUndefined();
  });
});
