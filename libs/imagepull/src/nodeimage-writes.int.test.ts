// The coalesced NodeImage writes against the real API server (nodeimage-writes.ts, docs/reliability.md finding 25):
// changes asked for while a write is in flight go together in the next one.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { NodeImage } from '@regatta/api';
import { trimForMirror } from '@regatta/bus';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { KINDS } from '@regatta/api';
import { StoredSizes } from './nodeimage-room.js';
import { NodeImageWrites } from './nodeimage-writes.js';
import { nextImageEntry } from './sync.js';
import { job } from './testing/fixtures.js';

const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
const name = `writes-${randomBytes(3).toString('hex')}`;

afterAll(async () => {
  await client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
});

const jobFor = (i: number) =>
  job((x) => {
    x.spec.image = `regatta.test/coalesced-${i}:1`;
    x.metadata!.uid = `uid-${i}`;
    x.metadata!.name = `job-${i}`;
  });

describe('NodeImageWrites', () => {
  it(
    'ten jobs’ tags asked for at once: all written, in two writes (the first alone, the nine that waited together)',
    { timeout: 60_000 },
    async () => {
      const created = await client.create<NodeImage>({
        ...NODE_IMAGE,
        metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true' } },
        spec: {},
      } as KubeObject);
      const sizes = new StoredSizes();
      const writes = new NodeImageWrites(client, sizes);
      const now = new Date();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          writes.write(name, (ni) => nextImageEntry(ni, jobFor(i), [], now)),
        ),
      );
      expect(outcomes.map((o) => o.result)).toEqual(Array(10).fill('written'));
      const stored = await client.get<NodeImage>({ ...NODE_IMAGE, name });
      expect(Object.keys(stored.spec?.images ?? {})).toHaveLength(10);
      expect((stored.metadata?.generation ?? 0) - (created.metadata?.generation ?? 0)).toBe(2);
      const versions = new Set(
        outcomes.map((o) => (o.result === 'written' ? o.nodeImage.metadata?.resourceVersion : '')),
      );
      expect(versions.size).toBe(2);

      // the same tags again: nothing to write; a NodeImage that is gone: nothing written either
      const again = await writes.write(name, (ni) => nextImageEntry(ni, jobFor(3), [], now));
      expect(again).toEqual({ result: 'unchanged' });
      const gone = await writes.write(`${name}-gone`, (ni) => nextImageEntry(ni, jobFor(0), [], now));
      expect(gone).toEqual({ result: 'unchanged' });

      // what it read and wrote told the sizes what a cached copy lacks: one counts as stored (finding 27)
      const cachedCopy = trimForMirror(stored, KINDS.nodeimages);
      expect(cachedCopy.metadata?.managedFields).toBeUndefined();
      expect(sizes.of(cachedCopy)).toBe(Buffer.byteLength(JSON.stringify(stored)));
    },
  );
});
