import { describe, expect, it } from 'vitest';
import { imagePushArgs, registryPath, STAND_INS, standInCommands } from './registry.js';

describe('stand-in images', () => {
  it.each([
    ['nginx:1.28', 'library/nginx:1.28'],
    ['regatta/http:v1', 'regatta/http:v1'],
    ['registry.k8s.io/pause:3.10', 'pause:3.10'],
    ['127.0.0.1:5000/x/y:z', 'x/y:z'],
    ['localhost/a:b', 'a:b'],
  ])('%s lives at %s in the registry (as containerd asks a mirror for it)', (image, path) => {
    expect(registryPath(image)).toBe(path);
  });
  it('names each image in its configuration, so every tag is a distinct digest', () => {
    const [append, mutate] = standInCommands(
      { program: 'http', image: 'nginx:1.28' },
      '127.0.0.1:5000',
      '/l.tar',
    );
    expect(append).toEqual([
      'append',
      '--insecure',
      '-f',
      '/l.tar',
      '-t',
      '127.0.0.1:5000/library/nginx:1.28',
    ]);
    expect(mutate).toContain('IMAGE=nginx:1.28');
    expect(mutate).toContain('/http');
    expect(new Set(STAND_INS.map((s) => s.image)).size).toBe(STAND_INS.length);
  });
  it('has the pause image the containerd configuration pins', () => {
    expect(STAND_INS).toContainEqual({ program: 'pause', image: 'registry.k8s.io/pause:3.10' });
  });
  it('pushes a user image where a pod naming it pulls from', () => {
    expect(imagePushArgs('/x/app.tar', 'myapp:v1', '127.0.0.1:5000')).toEqual([
      'push',
      '--insecure',
      '/x/app.tar',
      '127.0.0.1:5000/library/myapp:v1',
    ]);
  });
});
