import { describe, expect, it } from 'vitest';
import { targetNodeImages } from './targets.js';
import { job, nodeImage } from './testing/fixtures.js';

const nis = [
  nodeImage('node2', { labels: { zone: 'b' } }),
  nodeImage('node1', { labels: { zone: 'a' } }),
  nodeImage('node3', { labels: { zone: 'a', gpu: 'yes' } }),
];
const names = (j: ReturnType<typeof job>, pods: never[] = []) => targetNodeImages(j, nis, pods).map((n) => n.metadata?.name);
const pod = (name: string, node: string, labels: Record<string, string>, extra: Record<string, unknown> = {}) =>
  ({ metadata: { name, namespace: 'default', labels, ...extra }, spec: { nodeName: node } }) as never;

describe('target NodeImages', () => {
  it('no selector: all, by name', () => expect(names(job())).toEqual(['node1', 'node2', 'node3']));
  it('names: those that exist', () => expect(names(job((j) => (j.spec.selector = { names: ['node3', 'nodeX'] })))).toEqual(['node3']));
  it('labels', () => {
    expect(names(job((j) => (j.spec.selector = { matchLabels: { zone: 'a' } })))).toEqual(['node1', 'node3']);
    expect(names(job((j) => (j.spec.selector = { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] })))).toEqual(['node3']);
    expect(names(job((j) => (j.spec.selector = {})))).toEqual(['node1', 'node2', 'node3']);
  });
  it('podSelector: the nodes of active scheduled matching pods of the namespace', () => {
    const j = job((x) => (x.spec.podSelector = { matchLabels: { app: 'web' } }));
    expect(
      names(j, [
        pod('a', 'node2', { app: 'web' }),
        pod('b', 'node2', { app: 'web' }),
        pod('c', 'node3', { app: 'db' }),
        pod('d', 'node1', { app: 'web' }, { deletionTimestamp: '2025-01-01T00:00:00Z' }),
        { metadata: { name: 'e', namespace: 'other', labels: { app: 'web' } }, spec: { nodeName: 'node3' } } as never,
      ]),
    ).toEqual(['node2']);
  });
});
