import { describe, expect, it } from 'vitest';
import { defaultPullPolicyForImage, parseImageReference } from './image-name.js';

describe('parseImageReference', () => {
  it.each([
    ['nginx', { name: 'nginx', tag: 'latest', digest: '' }],
    ['nginx:1.25', { name: 'nginx', tag: '1.25', digest: '' }],
    ['harbor.test.com/cicd/nginx:1.28.0', { name: 'harbor.test.com/cicd/nginx', tag: '1.28.0', digest: '' }],
    ['localhost:5000/app', { name: 'localhost:5000/app', tag: 'latest', digest: '' }],
    ['localhost:5000/app:v2', { name: 'localhost:5000/app', tag: 'v2', digest: '' }],
    [`busybox@sha256:${'a'.repeat(64)}`, { name: 'busybox', tag: '', digest: `sha256:${'a'.repeat(64)}` }],
    [`busybox:1.36@sha256:${'b'.repeat(64)}`, { name: 'busybox', tag: '1.36', digest: `sha256:${'b'.repeat(64)}` }],
    ['openkruise/hotupgrade-sample:busybox', { name: 'openkruise/hotupgrade-sample', tag: 'busybox', digest: '' }],
  ])('%s', (image, want) => {
    expect(parseImageReference(image)).toEqual(want);
  });

  it.each(['', 'Nginx', 'nginx:', 'a'.repeat(64), 'nginx:tag with space', 'lower/UPPER:1'])('rejects %j', (image) => {
    expect(parseImageReference(image)).toBeUndefined();
  });
});

describe('defaultPullPolicyForImage (core/v1 SetDefaults_Container)', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:alpine', 'IfNotPresent'],
    ['registry:5000/nginx', 'Always'],
    [`nginx@sha256:${'c'.repeat(64)}`, 'IfNotPresent'],
    [`nginx:latest@sha256:${'c'.repeat(64)}`, 'Always'],
    ['Invalid:Ref', 'IfNotPresent'],
    [undefined, 'IfNotPresent'],
  ])('%s → %s', (image, want) => {
    expect(defaultPullPolicyForImage(image)).toBe(want);
  });
});
