import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Faults } from './faults.js';
import { imageIdOf } from './image-ref.js';
import { ImagePullError, ImageService } from './images.js';

describe('ImageService', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pulls in imagePullMs, records the image and reports it for the node status', async () => {
    const faults = new Faults();
    const images = new ImageService(['n1', 'n2'], faults, () => 300);
    const changed: string[] = [];
    images.onChange((n) => changed.push(n));
    const p = images.pullImage('n1', 'nginx:alpine', { secrets: [{ name: 'x' }] });
    expect(images.hasImage('n1', 'nginx:alpine')).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    await expect(p).resolves.toEqual({ imageRef: imageIdOf('nginx:alpine') });
    expect(images.hasImage('n1', 'docker.io/library/nginx:alpine')).toBe(true);
    expect(images.hasImage('n2', 'nginx:alpine')).toBe(false);
    expect(changed).toEqual(['n1']);
    expect(images.listImages('n1')).toMatchObject([
      { ref: 'docker.io/library/nginx:alpine', imageRef: imageIdOf('nginx:alpine') },
    ]);
    expect(images.nodeStatusImages('n1')[0]?.names).toEqual([
      imageIdOf('nginx:alpine'),
      'docker.io/library/nginx:alpine',
    ]);
    expect(images.removeImage('n1', 'nginx:alpine')).toBe(true);
    expect(images.removeImage('n1', 'nginx:alpine')).toBe(false);
    expect(images.listImages('n1')).toEqual([]);
  });

  it('fails pulls of failPullImages (switchable live) and of unknown nodes', async () => {
    const faults = new Faults({ failPullImages: ['bad:*'] });
    const images = new ImageService(['n1'], faults, () => 10);
    const bad = images.pullImage('n1', 'bad:1');
    const caught = bad.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(await caught).toBeInstanceOf(ImagePullError);
    await expect(images.pullImage('nope', 'x')).rejects.toMatchObject({ reason: 'NodeNotFound' });
    faults.set({ failPullImages: [] });
    const ok = images.pullImage('n1', 'bad:1');
    await vi.advanceTimersByTimeAsync(10);
    await expect(ok).resolves.toBeDefined();
  });

  it('shares one pull between concurrent callers and can be aborted', async () => {
    const images = new ImageService(['n1'], new Faults(), () => 100);
    const a = images.pullImage('n1', 'x:1');
    expect(images.pullImage('n1', 'docker.io/library/x:1')).toBe(a);
    await vi.advanceTimersByTimeAsync(100);
    await a;
    const ac = new AbortController();
    const b = images.pullImage('n1', 'y:1', { signal: ac.signal });
    ac.abort();
    await expect(b).rejects.toMatchObject({ reason: 'Aborted' });
  });
});
