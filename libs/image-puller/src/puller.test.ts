import { describe, expect, it } from 'vitest';
import { ImagePuller } from './puller.js';
import { MemoryRuntime } from './testing/memory-runtime.js';
import type { NodeImage } from './types.js';

const ni = (
  images: Record<string, { tag: string; version?: number }[]>,
  status?: NodeImage['status'],
): NodeImage => ({
  metadata: { name: 'n1' },
  spec: { images: Object.fromEntries(Object.entries(images).map(([k, tags]) => [k, { tags }])) },
  ...(status ? { status } : {}),
});

async function settle(p: ImagePuller): Promise<void> {
  await expect.poll(() => p.activeWorkers, { timeout: 5000 }).toBe(0);
}

describe('ImagePuller (TestRealPullerSync)', () => {
  it('adding an image starts its tags; the status counts them; removing the image stops and drops it', async () => {
    const rt = new MemoryRuntime();
    const p = new ImagePuller({ runtime: rt, events: () => undefined, credentials: async () => [] });
    const one = ni({ nginx: [{ tag: '1.20' }, { tag: '1.21' }] });
    await p.sync(one);
    await settle(p);
    expect(p.status(one)).toMatchObject({ desired: 2, succeeded: 2, waiting: 0, pulling: 0 });
    const two = ni({ redis: [{ tag: '7' }] });
    await p.sync(two);
    await settle(p);
    expect(p.status(two)).toMatchObject({
      desired: 1,
      succeeded: 1,
      imageStatuses: { redis: { tags: [expect.objectContaining({ tag: '7' })] } },
    });
    expect(p.status(two).imageStatuses?.['nginx']).toBeUndefined();
    expect(rt.pulls).toEqual(['nginx:1.20', 'nginx:1.21', 'redis:7']);
    p.stop();
  });

  it('a tag finished in the observed status for its version is not pulled again; a version bump pulls again', async () => {
    const rt = new MemoryRuntime();
    const p = new ImagePuller({ runtime: rt, events: () => undefined, credentials: async () => [] });
    const done = {
      imageStatuses: {
        nginx: { tags: [{ tag: '1.20', phase: 'Succeeded' as const, version: 1, completionTime: 't' }] },
      },
      desired: 1,
    };
    await p.sync(ni({ nginx: [{ tag: '1.20', version: 1 }] }, done));
    expect(rt.pulls).toEqual([]);
    expect(p.status(ni({ nginx: [{ tag: '1.20', version: 1 }] }))).toMatchObject({ succeeded: 1 });
    await p.sync(ni({ nginx: [{ tag: '1.20', version: 2 }] }, done));
    await settle(p);
    expect(rt.pulls).toEqual(['nginx:1.20']);
    expect(
      p.status(ni({ nginx: [{ tag: '1.20', version: 2 }] })).imageStatuses?.['nginx']?.tags[0],
    ).toMatchObject({ version: 2, phase: 'Succeeded' });
    p.stop();
  });

  it('pull secrets are read only when a pull starts, with the image name', async () => {
    const asked: string[] = [];
    const p = new ImagePuller({
      runtime: new MemoryRuntime(),
      events: () => undefined,
      credentials: async (image, secrets) => {
        asked.push(`${image}:${secrets.map((s) => s.name).join(',')}`);
        return [];
      },
    });
    const obj: NodeImage = {
      metadata: { name: 'n1' },
      spec: {
        images: {
          nginx: {
            tags: [{ tag: '1' }],
            pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's-abc' }],
          },
        },
      },
    };
    await p.sync(obj);
    await settle(p);
    await p.sync(obj);
    expect(asked).toEqual(['nginx:s-abc']);
    p.stop();
  });
});
