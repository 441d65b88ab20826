import { describe, expect, it } from 'vitest';
import {
  isPodAtRevision,
  podRevision,
  podTemplateHashPatch,
  revisionLabels,
  shortHash,
  withRevisionLabels,
} from './pod-revision.js';

const pod = (label?: string) => {
  const labels: Record<string, string> = label === undefined ? {} : { 'controller-revision-hash': label };
  return { metadata: { labels } };
};

describe('shortHash', () => {
  it.each([
    ['web-5d4b9c8f7', '5d4b9c8f7'],
    ['my-web-app-5d4b9c8f7', '5d4b9c8f7'],
    ['5d4b9c8f7', '5d4b9c8f7'],
    ['', ''],
  ])('%j → %j', (name, hash) => expect(shortHash(name)).toBe(hash));
});

describe('isPodAtRevision', () => {
  it.each([
    ['web-abc', 'web-abc', true],
    ['abc', 'web-abc', true],
    ['web-abc', 'abc', true],
    ['other-abc', 'web-abc', true],
    ['web-abd', 'web-abc', false],
    [undefined, 'web-abc', false],
  ])('label %j at %j → %s', (label, revision, expected) => {
    expect(isPodAtRevision(pod(label), revision)).toBe(expected);
  });
  it('reads the label', () => expect(podRevision(pod('x'))).toBe('x'));
});

describe('revisionLabels', () => {
  it('writes the full name and the short pod-template-hash', () => {
    expect(revisionLabels('web-abc')).toEqual({
      'controller-revision-hash': 'web-abc',
      'pod-template-hash': 'abc',
    });
  });
  it('writes only the hash with CloneSetShortHash', () => {
    expect(revisionLabels('web-abc', { shortHash: true })).toEqual({
      'controller-revision-hash': 'abc',
      'pod-template-hash': 'abc',
    });
  });
  it('sets them on a copy', () => {
    const p = { metadata: { name: 'p', labels: { app: 'x' } } };
    expect(withRevisionLabels(p, 'web-abc').metadata.labels).toEqual({
      app: 'x',
      'controller-revision-hash': 'web-abc',
      'pod-template-hash': 'abc',
    });
    expect(p.metadata.labels).toEqual({ app: 'x' });
  });
});

describe('podTemplateHashPatch (TestUpdate "do nothing": only pod-template-hash is added)', () => {
  it('adds the short hash when the label is missing', () => {
    expect(podTemplateHashPatch(pod('web-abc'))).toEqual({
      metadata: { labels: { 'pod-template-hash': 'abc' } },
    });
    expect(
      podTemplateHashPatch({
        metadata: { labels: { 'controller-revision-hash': 'web-abc', 'pod-template-hash': 'abc' } },
      }),
    ).toBeUndefined();
  });
});
