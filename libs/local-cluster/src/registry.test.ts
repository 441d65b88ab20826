import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { imagePushArgs, registryPath, STAND_INS, standInCommands, TOOLBOX_COMMANDS } from './registry.js';

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
    expect(mutate).toContain('PATH=/bin:/usr/bin:/usr/local/bin');
    expect(mutate).toContain('/http');
    expect(new Set(STAND_INS.map((s) => s.image)).size).toBe(STAND_INS.length);
  });
  it('copies an alias stand-in (same digest under a second name), and has every image it names', () => {
    expect(
      standInCommands(
        { program: 'http', image: 'nginx:mainline-alpine', sameAs: 'nginx:alpine' },
        'r:1',
        '/l.tar',
      ),
    ).toEqual([['copy', '--insecure', 'r:1/library/nginx:alpine', 'r:1/library/nginx:mainline-alpine']]);
    const images = STAND_INS.map((s) => s.image);
    for (const s of STAND_INS)
      if (s.sameAs) expect(images.indexOf(s.sameAs)).toBeLessThan(images.indexOf(s.image));
    // OpenKruise's e2e specs' images (Kubernetes' test/utils/image manifest)
    expect(images).toEqual(
      expect.arrayContaining([
        'registry.k8s.io/e2e-test-images/nginx:1.14-4',
        'registry.k8s.io/e2e-test-images/nginx:1.15-4',
        'registry.k8s.io/e2e-test-images/busybox:1.36.1-1',
      ]),
    );
  });
  it('links every command of the toolbox (tools/images/toolbox) in the images', () => {
    const src = readFileSync(new URL('../../../tools/images/toolbox/main.go', import.meta.url), 'utf8');
    const table = /applets = map\[string\]applet\{([\s\S]*?)\n\t\}/.exec(src)?.[1] ?? '';
    const applets = [...table.matchAll(/"([^"]+)":/g)].map((m) => m[1]);
    expect([...TOOLBOX_COMMANDS].sort()).toEqual(applets.sort());
  });
  it('gives busybox the shell as entrypoint (no command: it exits at once, as busybox does)', () => {
    const busybox = STAND_INS.find((s) => s.image === 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1')!;
    const [, mutate] = standInCommands(busybox, 'r:1', '/l.tar');
    expect(mutate![mutate!.indexOf('--entrypoint') + 1]).toBe('/bin/sh');
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
