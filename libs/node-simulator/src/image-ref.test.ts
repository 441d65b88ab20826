import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imageIdOf, imageMatches, nodeImageNames, normalizeImage, parseImageRef } from './image-ref.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('normalizeImage', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:alpine', 'docker.io/library/nginx:alpine'],
    ['library/nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['index.docker.io/library/busybox', 'docker.io/library/busybox:latest'],
    ['docker.io/nginx:1', 'docker.io/library/nginx:1'],
    ['quay.io/coreos/etcd:v3.5', 'quay.io/coreos/etcd:v3.5'],
    ['localhost/app', 'localhost/app:latest'],
    ['localhost:5000/team/app:v2', 'localhost:5000/team/app:v2'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    [`nginx@sha256:${'a'.repeat(64)}`, `docker.io/library/nginx@sha256:${'a'.repeat(64)}`],
    [`nginx:1.2@sha256:${'b'.repeat(64)}`, `docker.io/library/nginx:1.2@sha256:${'b'.repeat(64)}`],
    ['Upper/thing:1', 'Upper/thing:1'],
  ])('%s → %s', (input, want) => {
    expect(normalizeImage(input)).toBe(want);
  });

  it('never throws on odd input', () => {
    expect(() => normalizeImage('')).not.toThrow();
    expect(() => normalizeImage(' :: @ / ')).not.toThrow();
    expect(parseImageRef('').normalized).toBe('docker.io/library/:latest');
  });
});

describe('imageIdOf', () => {
  it('is the repository digest reference of the sha256 of the normalized reference', () => {
    expect(imageIdOf('nginx:1.25')).toBe(
      `docker.io/library/nginx@sha256:${sha('docker.io/library/nginx:1.25')}`,
    );
  });

  it('is one for tags the image catalogue knows to be one image', () => {
    const id = `docker.io/library/nginx@sha256:${sha('docker.io/library/nginx:mainline-alpine')}`;
    expect(imageIdOf('nginx:alpine')).toBe(id);
    expect(imageIdOf('docker.io/library/nginx:mainline-alpine')).toBe(id);
    expect(imageIdOf('nginx:mainline')).not.toBe(id);
  });

  it('is stable for equivalent references and differs per tag', () => {
    expect(imageIdOf('nginx:alpine')).toBe(imageIdOf('docker.io/library/nginx:alpine'));
    expect(imageIdOf('nginx')).toBe(imageIdOf('nginx:latest'));
    expect(imageIdOf('nginx:1.25')).not.toBe(imageIdOf('nginx:1.26'));
  });

  it('keeps a digest the reference already names', () => {
    const d = `sha256:${'c'.repeat(64)}`;
    expect(imageIdOf(`nginx@${d}`)).toBe(`docker.io/library/nginx@${d}`);
    expect(imageIdOf(`nginx:1@${d}`)).toBe(`docker.io/library/nginx@${d}`);
  });
});

describe('nodeImageNames', () => {
  it('lists the digest reference then the tag, as kubelet reports node images', () => {
    expect(nodeImageNames('nginx:alpine')).toEqual([
      imageIdOf('nginx:alpine'),
      'docker.io/library/nginx:alpine',
    ]);
    const d = `sha256:${'d'.repeat(64)}`;
    expect(nodeImageNames(`nginx@${d}`)).toEqual([`docker.io/library/nginx@${d}`]);
  });
});

describe('imageMatches', () => {
  it('matches exact references, raw or normalized', () => {
    expect(imageMatches('nginx:broken', 'nginx:broken')).toBe(true);
    expect(imageMatches('docker.io/library/nginx:broken', 'nginx:broken')).toBe(true);
    expect(imageMatches('nginx:broken', 'nginx:brokenx')).toBe(false);
  });

  it('supports * globs and treats other characters literally', () => {
    expect(imageMatches('nginx:broken*', 'nginx:broken-2')).toBe(true);
    expect(imageMatches('*/crash:*', 'example.com/crash:1')).toBe(true);
    expect(imageMatches('*crash*', 'crash')).toBe(true);
    expect(imageMatches('a.b', 'axb')).toBe(false);
    expect(imageMatches('(x)+', '(x)+')).toBe(true);
  });
});
