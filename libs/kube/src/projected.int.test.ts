import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { KubeClient } from './client.js';
import { ConflictError } from './errors.js';
import type { KubeObject } from './meta.js';
import { ProjectedWriteError, markProjected, updatePatch } from './projected.js';

type Pod = KubeObject & {
  spec: { containers: { name: string; image: string; ports?: unknown[] }[] } & Record<string, unknown>;
};

describe('a guarded JSON patch against the real API server (docs/adr/0060-pod-projection.md)', () => {
  it(
    'applies on the version read, answers 409 Conflict on a stale one, and keeps what the projection left out',
    { timeout: 120_000 },
    async () => {
      const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
      const ns = `proj-${randomBytes(3).toString('hex')}`;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const created = await client.create<Pod>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: ns, labels: { app: 'web' } },
        spec: {
          containers: [{ name: 'c', image: 'registry.example/app:1', ports: [{ containerPort: 80 }] }],
          nodeName: 'nowhere',
        },
      });
      // the cache's view: the container without its ports, the spec without the server's defaults
      const projected = markProjected({
        ...created,
        spec: markProjected({ containers: [markProjected({ name: 'c', image: 'registry.example/app:1' })] }),
      }) as Pod;
      const ref = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'p' };
      const planned = {
        ...projected,
        metadata: { ...projected.metadata, labels: { app: 'web', v: '2' } },
        spec: {
          ...projected.spec,
          containers: [{ ...projected.spec.containers[0]!, image: 'registry.example/app:2' }],
        },
      };

      // a PUT of the projection is refused before it leaves the process
      await expect(client.replace(planned)).rejects.toBeInstanceOf(ProjectedWriteError);

      const written = await client.patch<Pod>(ref, updatePatch(projected, planned), { type: 'json' });
      expect(written.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
      expect(written.metadata?.labels).toEqual({ app: 'web', v: '2' });
      expect(written.spec.containers[0]).toMatchObject({
        image: 'registry.example/app:2',
        ports: [{ containerPort: 80 }],
      });
      // the server's defaults the projection never held are still there
      expect(written.spec['restartPolicy']).toBe('Always');
      expect(written.spec['nodeName']).toBe('nowhere');

      // the same patch on the version read before: refused as a PUT of it would be
      const stale = await client
        .patch(
          ref,
          updatePatch(projected, { ...planned, metadata: { ...planned.metadata, labels: { v: '3' } } }),
          {
            type: 'json',
          },
        )
        .catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(ConflictError);
      expect(stale).toMatchObject({ status: 409, reason: 'Conflict' });
      expect((stale as ConflictError).serverMessage).toMatch(/the object has been modified/);
      // even when it changes nothing
      await expect(
        client.patch(ref, updatePatch(projected, projected), { type: 'json' }),
      ).rejects.toBeInstanceOf(ConflictError);
      const now = await client.get<Pod>(ref);
      expect(now.metadata?.labels).toEqual({ app: 'web', v: '2' });
      expect(now.metadata?.resourceVersion).toBe(written.metadata?.resourceVersion);

      await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    },
  );
});
