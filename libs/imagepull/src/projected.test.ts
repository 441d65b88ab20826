// The ImagePullJob controller's pod reading over pods as its program's cache holds them (docs/adr/0060-pod-projection.md):
// the cache keeps only IMAGEPULL_POD_FIELDS, so the target NodeImages of a podSelector job and the jobs a pod or
// NodeImage change concerns must be the same over projected pods as over whole ones.
import { IMAGEPULL_POD_FIELDS, projection } from '@regatta/bus';
import { type Change, type KubeObject, isProjected } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { jobsForNodeImageChange, jobsForPodChange } from './handlers.js';
import type { Reader } from './job-reconciler.js';
import { targetNodeImages } from './targets.js';
import { job, nodeImage } from './testing/fixtures.js';

interface PodOpts {
  node: string;
  app?: string;
  namespace?: string;
  phase?: string;
  deleting?: boolean;
  image?: string;
}

/** A whole pod, as the API server stores it: every field the projection drops is there too. */
function wholePod(name: string, o: PodOpts): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      resourceVersion: '7',
      labels: { app: o.app ?? 'web' },
      annotations: { a: 'b' },
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
    },
    spec: {
      nodeName: o.node,
      containers: [{ name: 'main', image: o.image ?? 'nginx:1', ports: [{ containerPort: 80 }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
      restartPolicy: 'Always',
    },
    status: {
      phase: o.phase ?? 'Running',
      podIP: '10.0.0.2',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'main', ready: true, restartCount: 0, image: o.image ?? 'nginx:1' }],
    },
  } as KubeObject;
}

const project = projection(IMAGEPULL_POD_FIELDS);
const names = (xs: { metadata?: { name?: string }; name?: string }[]) =>
  xs.map((x) => x.metadata?.name ?? x.name).sort();
function reader(objects: KubeObject[]): Reader<KubeObject> {
  return {
    get: (ns, name) => objects.find((o) => o.metadata?.namespace === ns && o.metadata?.name === name),
    list: (opts = {}) =>
      objects.filter((o) => opts.namespace === undefined || o.metadata?.namespace === opts.namespace),
  };
}

const web = job((j) => {
  j.metadata!.name = 'web';
  j.spec.podSelector = { matchLabels: { app: 'web' } };
});
const nodeImages = ['node1', 'node2', 'node3', 'node4', 'node5'].map((n) => nodeImage(n));
const pods = [
  wholePod('a', { node: 'node1' }),
  wholePod('b', { node: 'node2', app: 'db' }),
  wholePod('c', { node: 'node3', phase: 'Succeeded' }),
  wholePod('d', { node: 'node4', deleting: true }),
  wholePod('e', { node: 'node5', namespace: 'other' }),
  wholePod('f', { node: 'node5', phase: 'Pending' }),
];

describe('the ImagePullJob controller over pods projected to IMAGEPULL_POD_FIELDS', () => {
  it('the pods are projected (the test reads what the cache holds)', () => {
    expect(pods.map(project).every(isProjected)).toBe(true);
  });

  it("a podSelector job's target NodeImages: the same", () => {
    const whole = names(targetNodeImages(web, nodeImages, pods));
    expect(whole).toEqual(['node1', 'node5']); // the table means something: active, matching, of the namespace
    expect(names(targetNodeImages(web, nodeImages, pods.map(project)))).toEqual(whole);
  });

  const before = wholePod('p', { node: 'node1' });
  // what the whole pods give, so the table means something: `web` when the pod's placement for it moved
  const changes: [string, Change, string[]][] = [
    ['scheduled', { type: 'add', object: before }, ['web']],
    ['moved', { type: 'update', old: before, object: wholePod('p', { node: 'node2' }) }, ['web']],
    [
      'relabelled',
      { type: 'update', old: before, object: wholePod('p', { node: 'node1', app: 'db' }) },
      ['web'],
    ],
    [
      'finished',
      { type: 'update', old: before, object: wholePod('p', { node: 'node1', phase: 'Failed' }) },
      ['web'],
    ],
    [
      'deleting',
      { type: 'update', old: before, object: wholePod('p', { node: 'node1', deleting: true }) },
      ['web'],
    ],
    [
      'changed in a dropped field',
      { type: 'update', old: before, object: wholePod('p', { node: 'node1', image: 'nginx:2' }) },
      [],
    ],
    ['not selected', { type: 'add', object: wholePod('p', { node: 'node1', app: 'db' }) }, []],
    ['deleted', { type: 'delete', object: before }, ['web']],
  ];
  it.each(changes)('a pod %s: the same jobs', (_what, change, jobs) => {
    const r = { imagepulljobs: reader([web]) };
    expect(names(jobsForPodChange(change, r))).toEqual(jobs);
    const projected: Change = {
      ...change,
      object: project(change.object),
      ...(change.old ? { old: project(change.old) } : {}),
    };
    expect(names(jobsForPodChange(projected, r))).toEqual(jobs);
  });

  it('a NodeImage added: the same jobs, with the pods read from the cache', () => {
    const concerned = (podList: KubeObject[]) =>
      nodeImages
        .filter((object) => {
          const r = { imagepulljobs: reader([web]), pods: reader(podList) };
          return jobsForNodeImageChange({ type: 'add', object }, r).length > 0;
        })
        .map((ni) => ni.metadata?.name);
    expect(concerned(pods)).toEqual(['node1', 'node5']);
    expect(concerned(pods.map(project))).toEqual(['node1', 'node5']);
  });
});
