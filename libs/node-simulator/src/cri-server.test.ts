// The simulated runtime over the real CRI protocol: a gRPC client on each node's unix socket, as kruise-daemon or
// crictl would use containerd's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriCallError, CriImageClient, GrpcStatus } from '@regatta/cri';
import { CriServers, criSocketPath } from './cri-server.js';
import { Faults } from './faults.js';
import { ImageService } from './images.js';

let dir: string;
let images: ImageService;
let servers: CriServers;
const faults = new Faults({ failPullImages: ['nginx:broken*'] });
let pullMs = 50;
const clients: CriImageClient[] = [];
const client = (node: string) => {
  const c = new CriImageClient(criSocketPath(dir, node));
  clients.push(c);
  return c;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regatta-cri-test-'));
  images = new ImageService(['n1', 'n2'], faults, () => pullMs);
  servers = new CriServers(dir, images, () => undefined);
  await servers.start();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await servers.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CRI ImageService of a simulated node', () => {
  it('PullImage stores the image on that node only; ImageStatus, ListImages and node.status.images show it', async () => {
    const c = client('n1');
    expect(await c.imageStatus('nginx:1.20')).toBeUndefined();
    const { imageRef } = await c.pullImage('nginx:1.20', {
      auth: { username: 'u', password: 'p' },
      sandboxConfig: { labels: { a: 'b' } },
    });
    expect(imageRef).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const img = await c.imageStatus('docker.io/library/nginx:1.20');
    expect(img).toMatchObject({
      id: imageRef.slice(imageRef.indexOf('@') + 1),
      repoTags: ['docker.io/library/nginx:1.20'],
      repoDigests: [imageRef],
    });
    expect(img!.size).toBeGreaterThan(0);
    expect((await c.listImages()).map((i) => i.repoTags)).toEqual([['docker.io/library/nginx:1.20']]);
    expect(await c.listImages({ filter: 'nginx:1.21' })).toEqual([]);
    expect(images.nodeStatusImages('n1').flatMap((i) => i.names)).toContain('docker.io/library/nginx:1.20');
    expect(await client('n2').listImages()).toEqual([]);
    const fs = await c.imageFsInfo();
    expect(fs.imageFilesystems[0]!.usedBytes!.value).toBe(img!.size);
  });

  it('a failing image answers NotFound; a deadline shorter than the pull answers DeadlineExceeded', async () => {
    const c = client('n2');
    const err = await c.pullImage('nginx:broken-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CriCallError);
    expect((err as CriCallError).grpcCode).toBe(GrpcStatus.NOT_FOUND);
    expect((err as Error).message).toMatch(/^rpc error: code = NotFound desc = .*not found/);
    pullMs = 2000;
    const slow = await c.pullImage('redis:7', { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((slow as CriCallError).grpcCode).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    const ac = new AbortController();
    const cancelled = c.pullImage('redis:8', { signal: ac.signal }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 50);
    expect(((await cancelled) as CriCallError).grpcCode).toBe(GrpcStatus.CANCELLED);
    pullMs = 50;
  });

  it('RemoveImage is idempotent; nodes added and removed get and lose their socket', async () => {
    const c = client('n1');
    await c.removeImage('nginx:1.20');
    await c.removeImage('nginx:1.20');
    expect(await c.listImages()).toEqual([]);
    images.addNode('n3');
    await expect
      .poll(
        () =>
          client('n3')
            .listImages()
            .then(
              () => 'up',
              () => 'down',
            ),
        { timeout: 5000 },
      )
      .toBe('up');
    images.removeNode('n3');
    await expect
      .poll(
        () =>
          client('n3')
            .listImages({ timeoutMs: 500 })
            .then(
              () => 'up',
              () => 'down',
            ),
        { timeout: 5000 },
      )
      .toBe('down');
  });
});
