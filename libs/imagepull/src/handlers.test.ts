import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { jobsForNodeImageChange, jobsForPodChange, nodeImageForNodeChange, nodeImagesForJobDelete } from './handlers.js';
import type { Reader } from './job-reconciler.js';
import { imagePullSettings } from './settings.js';
import { job, nodeImage, owner } from './testing/fixtures.js';

function reader(objects: KubeObject[]): Reader<KubeObject> {
  return {
    get: (ns, name) => objects.find((o) => (o.metadata?.namespace ?? undefined) === ns && o.metadata?.name === name),
    list: (opts = {}) => objects.filter((o) => opts.namespace === undefined || o.metadata?.namespace === opts.namespace),
  };
}

const zoneA = job((j) => {
  j.metadata!.name = 'zone-a';
  j.spec.selector = { matchLabels: { zone: 'a' } };
});
const all = job((j) => (j.metadata!.name = 'all'));
const done = job((j) => {
  j.metadata!.name = 'done';
  j.status = { desired: 0, completionTime: '2025-01-01T00:00:00Z' };
});
const web = job((j) => {
  j.metadata!.name = 'web';
  j.spec.podSelector = { matchLabels: { app: 'web' } };
});
const readers = { imagepulljobs: reader([zoneA, all, done, web]), pods: reader([]) };
const names = (reqs: { name: string }[]) => reqs.map((r) => r.name).sort();

describe('event mappings', () => {
  it('a new NodeImage → the active jobs selecting it', () => {
    expect(names(jobsForNodeImageChange({ type: 'add', object: nodeImage('n', { labels: { zone: 'a' } }) }, readers))).toEqual(['all', 'zone-a']);
    expect(names(jobsForNodeImageChange({ type: 'add', object: nodeImage('n', { labels: { zone: 'b' } }) }, readers))).toEqual(['all']);
  });
  it('relabelled into a selection → that job; a tag change → its owner only', () => {
    const old = nodeImage('n', { labels: { zone: 'b' } });
    expect(names(jobsForNodeImageChange({ type: 'update', old, object: nodeImage('n', { labels: { zone: 'a' } }) }, readers))).toEqual(['zone-a']);
    const before = nodeImage('n', { tag: '1.20', owners: [owner('u', 'all')] });
    const after = nodeImage('n', { tag: '1.20', owners: [owner('u', 'all')], status: { phase: 'Succeeded' } });
    expect(names(jobsForNodeImageChange({ type: 'update', old: before, object: after }, readers))).toEqual(['all']);
  });
  it('a pod scheduled or moved → the podSelector jobs of its namespace that select it', () => {
    const pod = (node: string, app = 'web') => ({ metadata: { name: 'p', namespace: 'default', labels: { app } }, spec: { nodeName: node } });
    expect(names(jobsForPodChange({ type: 'add', object: pod('node1') }, readers))).toEqual(['web']);
    expect(jobsForPodChange({ type: 'add', object: pod('node1', 'db') }, readers)).toEqual([]);
    expect(jobsForPodChange({ type: 'update', old: pod('node1'), object: pod('node1') }, readers)).toEqual([]);
    expect(names(jobsForPodChange({ type: 'update', old: pod('node1'), object: pod('node1', 'db') }, readers))).toEqual(['web']);
  });
  it('a node → its NodeImage when missing, relabelled or gone; virtual-kubelet nodes never', () => {
    const nis = { nodeimages: reader([nodeImage('node1', { labels: { a: 'b' } })]) };
    const node = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels } });
    expect(nodeImageForNodeChange({ type: 'add', object: node('node2', {}) }, nis)).toEqual([{ name: 'node2' }]);
    expect(nodeImageForNodeChange({ type: 'update', object: node('node1', { a: 'b' }) }, nis)).toEqual([]);
    expect(nodeImageForNodeChange({ type: 'update', object: node('node1', { a: 'c' }) }, nis)).toEqual([{ name: 'node1' }]);
    expect(nodeImageForNodeChange({ type: 'delete', object: node('node1', {}) }, nis)).toEqual([{ name: 'node1' }]);
    expect(nodeImageForNodeChange({ type: 'add', object: node('vk', { type: 'virtual-kubelet' }) }, nis)).toEqual([]);
  });
  it('a job deleted → the NodeImages holding its tags', () => {
    const nis = { nodeimages: reader([nodeImage('node1', { tag: '1.20' }), nodeImage('node2', { tag: '1.20', owners: [owner('x')] })]) };
    expect(nodeImagesForJobDelete({ type: 'delete', object: job() }, nis)).toEqual([{ name: 'node1' }]);
    expect(nodeImagesForJobDelete({ type: 'add', object: job() }, nis)).toEqual([]);
  });
});

describe('settings', () => {
  it('defaults and overrides; a bad value is refused', () => {
    expect(imagePullSettings({})).toEqual({
      daemonConfigNamespace: 'kruise-daemon-config',
      creationDelayMs: 30_000,
      defaultTtlSecondsForAlways: 300,
      responseTimeoutMs: 600_000,
    });
    expect(imagePullSettings({ KRUISE_DAEMON_CONFIG_NS: 'x', REGATTA_IMAGEPULL_NEVER_TTL_SECONDS: '8' })).toMatchObject({
      daemonConfigNamespace: 'x',
      ttlSecondsForNever: 8,
    });
    expect(() => imagePullSettings({ REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '-1' })).toThrow(/whole number/);
  });
});
