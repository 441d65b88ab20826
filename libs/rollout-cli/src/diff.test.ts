import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/lifecycle';
import { templateRevisionData, type PodTemplate } from '@regatta/revision';
import { fieldPath, planDiff, recreateFields, type DiffKind, type PodAction } from './diff.js';
import { formatDiff } from './diff-format.js';
import type { ControllerRevision } from './history.js';

const template = (image: string, extra: Record<string, unknown> = {}): PodTemplate => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image, ...extra }] },
});
const V1 = template('nginx:1');
const V2 = template('nginx:2');
const rev = (name: string, revision: number, t: PodTemplate): ControllerRevision =>
  ({ metadata: { name }, revision, data: templateRevisionData(t) }) as ControllerRevision;
const pod = (name: string, revision: string, node = `node-${name.slice(-1)}`, gate = false): Pod =>
  ({
    metadata: { name, labels: { 'controller-revision-hash': revision }, creationTimestamp: '2026-12-03T10:00:00Z' },
    spec: { nodeName: node, containers: [], ...(gate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}) },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  }) as Pod;

const revisions = [rev('web-aaa', 1, V1)];
const live = (spec: Record<string, unknown> = {}) => ({ spec: { replicas: 3, template: V1, ...spec }, status: { desiredNumberScheduled: 3 } });
const desired = (t: PodTemplate, spec: Record<string, unknown> = {}) => ({ spec: { replicas: 3, template: t, ...spec } });
const pods = (gate = false) => ['web-0', 'web-1', 'web-2'].map((n) => pod(n, 'web-aaa', undefined, gate));

const actions = (kind: DiffKind, t: PodTemplate, spec: Record<string, unknown>, gate = false): PodAction[] =>
  planDiff({ kind, desired: desired(t, spec), live: live(spec), pods: pods(gate), revisions }).pods.map((p) => p.action);

describe('planDiff', () => {
  it.each<[string, DiffKind, PodTemplate, Record<string, unknown>, boolean, PodAction[]]>([
    ['CloneSet image-only, InPlaceIfPossible', 'CloneSet', V2, { updateStrategy: { type: 'InPlaceIfPossible' } }, false, ['in place', 'in place', 'in place']],
    ['CloneSet image-only, ReCreate (default)', 'CloneSet', V2, {}, false, ['recreate', 'recreate', 'recreate']],
    ['CloneSet env change, InPlaceIfPossible', 'CloneSet', template('nginx:1', { env: [{ name: 'A', value: 'b' }] }), { updateStrategy: { type: 'InPlaceIfPossible' } }, false, ['recreate', 'recreate', 'recreate']],
    ['CloneSet env change, InPlaceOnly', 'CloneSet', template('nginx:1', { env: [{ name: 'A', value: 'b' }] }), { updateStrategy: { type: 'InPlaceOnly' } }, false, ['blocked', 'blocked', 'blocked']],
    ['CloneSet partition 2 of 3', 'CloneSet', V2, { updateStrategy: { type: 'InPlaceIfPossible', partition: 2 } }, false, ['in place', 'kept', 'kept']],
    ['CloneSet no change', 'CloneSet', V1, { updateStrategy: { type: 'InPlaceIfPossible' } }, false, ['unchanged', 'unchanged', 'unchanged']],
    ['ASTS InPlaceIfPossible, partition 1', 'StatefulSet', V2, { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1 } } }, false, ['kept', 'in place', 'in place']],
    ['ASTS ReCreate (default)', 'StatefulSet', V2, { updateStrategy: { type: 'RollingUpdate' } }, false, ['recreate', 'recreate', 'recreate']],
    ['ASTS OnDelete', 'StatefulSet', V2, { updateStrategy: { type: 'OnDelete' } }, false, ['on delete', 'on delete', 'on delete']],
    ['ADS InPlaceIfPossible with the gate', 'DaemonSet', V2, { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } } }, true, ['in place', 'in place', 'in place']],
    ['ADS InPlaceIfPossible without the gate', 'DaemonSet', V2, { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } } }, false, ['recreate', 'recreate', 'recreate']],
    ['ADS InPlaceIfPossible, maxSurge 1', 'DaemonSet', V2, { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1 } } }, true, ['recreate', 'recreate', 'recreate']],
    ['ADS Standard', 'DaemonSet', V2, {}, true, ['recreate', 'recreate', 'recreate']],
    ['ADS partition 1 keeps the first node by name', 'DaemonSet', V2, { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', partition: 1 } } }, true, ['kept', 'in place', 'in place']],
  ])('%s', (_case, kind, t, spec, gate, expected) => {
    expect(actions(kind, t, spec, gate)).toEqual(expected);
  });

  it('names the images of an in-place update', () => {
    const plan = planDiff({ kind: 'CloneSet', desired: desired(V2, { updateStrategy: { type: 'InPlaceIfPossible' } }), live: live(), pods: pods(), revisions });
    expect(plan.pods[0]).toMatchObject({ name: 'web-0', node: 'node-0', revision: 'web-aaa', action: 'in place', fields: [] });
    expect(plan.pods[0]!.images).toEqual([{ container: 'main', from: 'nginx:1', to: 'nginx:2' }]);
    expect(plan).toMatchObject({ strategy: 'InPlaceIfPossible', partition: 0, templateChanged: true, targetRevision: undefined, recreateFields: [] });
  });

  it('names the fields that force a recreate, once, with the image change alongside', () => {
    const t = template('nginx:2', { ports: [{ containerPort: 80 }] });
    const plan = planDiff({ kind: 'CloneSet', desired: desired(t, { updateStrategy: { type: 'InPlaceIfPossible' } }), live: live(), pods: pods(), revisions });
    expect(plan.recreateFields).toEqual(['spec.template.spec.containers[0].ports']);
    expect(plan.pods[1]).toMatchObject({ action: 'recreate', fields: ['spec.template.spec.containers[0].ports'] });
    expect(plan.pods[1]!.reason).toContain('/spec/containers/0/ports');
  });

  it('counts pods already at an existing revision equal to the new template against the partition', () => {
    const revs = [rev('web-aaa', 1, V1), rev('web-bbb', 2, V2)];
    const ps = [pod('web-0', 'web-aaa'), pod('web-1', 'web-bbb'), pod('web-2', 'web-aaa')];
    const spec = { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } };
    const plan = planDiff({ kind: 'CloneSet', desired: desired(V2, spec), live: live(spec), pods: ps, revisions: revs });
    expect(plan.targetRevision).toBe('web-bbb');
    expect(plan.pods.map((p) => p.action).sort()).toEqual(['in place', 'kept', 'unchanged']);
  });

  it('recreates a pod whose revision is gone', () => {
    const plan = planDiff({
      kind: 'CloneSet',
      desired: desired(V2, { updateStrategy: { type: 'InPlaceIfPossible' } }),
      live: live(),
      pods: [pod('web-0', 'web-zzz')],
      revisions,
    });
    expect(plan.pods[0]).toMatchObject({ action: 'recreate', reason: expect.stringContaining('no stored revision') });
  });

  it('says "resize in place" for a cpu/memory change that keeps the QoS class, and recreate when it would not', () => {
    const res = (cpu: string, memory = '1Gi') => ({ resources: { requests: { cpu: '100m', memory }, limits: { cpu, memory: '2Gi' } } });
    const from = template('nginx:1', res('1'));
    const revs = [rev('web-aaa', 1, from)];
    const spec = { updateStrategy: { type: 'InPlaceIfPossible' } };
    const resized = planDiff({ kind: 'CloneSet', desired: desired(template('nginx:1', res('2')), spec), live: live(spec), pods: pods(), revisions: revs });
    expect(resized.pods[0]).toMatchObject({ action: 'in place', fields: [], resize: [{ container: 'main', resource: 'limits.cpu', from: '1', to: '2' }] });
    expect(formatDiff('CloneSet', 'web', resized)).toContain('resize in place: main limits.cpu 1 → 2');
    const guaranteed = { resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } } };
    const qos = planDiff({ kind: 'CloneSet', desired: desired(template('nginx:1', guaranteed), spec), live: live(spec), pods: pods(), revisions: revs });
    expect(qos.pods[0]).toMatchObject({ action: 'recreate', reason: expect.stringContaining('QoS class') });
    expect(qos.recreateFields).toEqual(['spec.template.spec.containers[0].resources.requests.cpu', 'spec.template.spec.containers[0].resources.requests.memory']);
  });

  it('marks a metadata-only change as in place', () => {
    const t: PodTemplate = { ...V1, metadata: { labels: { app: 'web', tier: 'front' } } };
    const plan = planDiff({ kind: 'StatefulSet', desired: desired(t, { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } } }), live: live(), pods: pods(), revisions });
    expect(plan.pods[0]).toMatchObject({ action: 'in place', metadata: true, images: [] });
  });
});

describe('recreateFields', () => {
  it.each<[string, PodTemplate, string[]]>([
    ['image only', V2, []],
    ['label only', { ...V1, metadata: { labels: { app: 'x' } } }, []],
    ['an env var added', template('nginx:1', { env: [{ name: 'A', value: '1' }] }), ['spec.template.spec.containers[0].env']],
    ['a new container', { ...V1, spec: { containers: [{ name: 'main', image: 'nginx:1' }, { name: 'side', image: 'busybox' }] } }, ['spec.template.spec.containers[1]']],
    ['a pod field', { ...V1, spec: { ...V1.spec, hostNetwork: true } }, ['spec.template.spec.hostNetwork']],
  ])('%s', (_case, to, fields) => {
    expect(recreateFields(V1, to)).toEqual(fields);
  });

  it('prints JSON pointers as field paths', () => {
    expect(fieldPath('/spec/containers/0/resources/limits/cpu')).toBe('spec.template.spec.containers[0].resources.limits.cpu');
    expect(fieldPath('/metadata/annotations/example.com~1key')).toBe('spec.template.metadata.annotations["example.com/key"]');
  });
});

describe('formatDiff', () => {
  it('prints a row per pod, the totals and the fields', () => {
    const t = template('nginx:2', { ports: [{ containerPort: 80 }] });
    const spec = { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } };
    const plan = planDiff({ kind: 'CloneSet', desired: desired(t, spec), live: live(spec), pods: pods(), revisions });
    expect(formatDiff('CloneSet', 'web', plan)).toBe(
      [
        'CloneSet "web": template changes (a new revision); strategy InPlaceIfPossible, partition 1 pods',
        'POD    NODE    REVISION  ACTION    DETAIL',
        'web-0  node-0  web-aaa   recreate  changes spec.template.spec.containers[0].ports',
        'web-1  node-1  web-aaa   recreate  changes spec.template.spec.containers[0].ports',
        'web-2  node-2  web-aaa   kept      partition 1',
        '0 in place, 2 recreated, 1 kept by the partition, 0 unchanged',
        'fields that force a recreate: spec.template.spec.containers[0].ports',
      ].join('\n'),
    );
  });

  it('shows the images of an in-place update', () => {
    const plan = planDiff({ kind: 'CloneSet', desired: desired(V2, { updateStrategy: { type: 'InPlaceIfPossible' } }), live: live(), pods: [pod('web-0', 'web-aaa')], revisions });
    expect(formatDiff('CloneSet', 'web', plan).split('\n')[2]).toBe('web-0  node-0  web-aaa   in place  main: nginx:1 → nginx:2');
  });

  it('says why an image-only change recreates under ReCreate', () => {
    const plan = planDiff({ kind: 'CloneSet', desired: desired(V2), live: live(), pods: [pod('web-0', 'web-aaa')], revisions });
    expect(formatDiff('CloneSet', 'web', plan).split('\n')[2]).toBe(
      'web-0  node-0  web-aaa   recreate  main: nginx:1 → nginx:2; updateStrategy.type is ReCreate',
    );
  });
});
