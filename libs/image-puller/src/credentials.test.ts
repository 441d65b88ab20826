import { describe, expect, it } from 'vitest';
import { credentialsFor, registryOf } from './credentials.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const dockerconfig = (auths: Record<string, unknown>) => ({
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) },
});

describe('registryOf', () => {
  it.each([
    ['nginx', 'docker.io'],
    ['library/nginx', 'docker.io'],
    ['docker.io/library/nginx', 'docker.io'],
    ['registry.k8s.io/pause', 'registry.k8s.io'],
    ['localhost:5000/app', 'localhost:5000'],
  ])('%s → %s', (image, want) => expect(registryOf(image)).toBe(want));
});

describe('credentialsFor', () => {
  it('entries of the image registry, in secret order; auth decoded when no username/password', () => {
    const secrets = [
      dockerconfig({
        'https://index.docker.io/v1/': { username: 'u1', password: 'p1' },
        'quay.io': { username: 'q', password: 'q' },
      }),
      dockerconfig({ 'docker.io': { auth: b64('u2:p:2') } }),
      { type: 'Opaque', data: { other: 'eA==' } },
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('not json') } },
    ];
    expect(credentialsFor('nginx', secrets)).toEqual([
      { username: 'u1', password: 'p1', serverAddress: 'https://index.docker.io/v1/' },
      { username: 'u2', password: 'p:2', serverAddress: 'docker.io' },
    ]);
    expect(credentialsFor('quay.io/app', secrets)).toEqual([
      { username: 'q', password: 'q', serverAddress: 'quay.io' },
    ]);
    expect(credentialsFor('ghcr.io/x', secrets)).toEqual([]);
  });
});
