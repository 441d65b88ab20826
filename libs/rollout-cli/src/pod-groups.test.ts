import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { groupPods, sidecarHashOf, type GroupInput } from './pod-groups.js';
import { formatPodView } from './pod-view.js';

const NOW = new Date('2026-12-04T10:10:00Z');
const WINDOW = { to: 'web-new', start: Date.parse('2026-12-04T10:00:00Z'), end: Number.POSITIVE_INFINITY };

function pod(name: string, o: { labels?: Record<string, string>; annotations?: Record<string, string>; ready?: boolean; node?: string; deleting?: boolean; created?: string; ns?: string } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: o.ns ?? 'ns',
      creationTimestamp: o.created ?? '2026-12-04T09:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-12-04T10:09:00Z' } : {}),
      labels: o.labels ?? {},
      annotations: o.annotations ?? {},
    },
    spec: { nodeName: o.node ?? 'node-1', containers: [{ name: 'c', image: 'x' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
      containerStatuses: [{ name: 'c', ready: o.ready !== false, restartCount: 0, image: 'x', imageID: '' }],
    },
  } as Pod;
}
const rev = (r: string, extra: Record<string, string> = {}) => ({ 'controller-revision-hash': r, ...extra });
const inPlace = (r: string) => ({ 'apps.kruise.io/inplace-update-state': JSON.stringify({ revision: r, updateTimestamp: '2026-12-04T10:01:00Z' }) });

const base = (o: Partial<GroupInput>): GroupInput => ({
  kind: 'CloneSet',
  pods: [],
  updateRevision: 'web-new',
  currentRevision: 'web-old',
  partition: 0,
  now: NOW,
  window: WINDOW,
  ...o,
});

describe('groupPods: revisions, update first, and the marks', () => {
  it('a CloneSet in an in-place rollout: the update revision first, the pods not yet updated marked', () => {
    const pods = [
      pod('web-c', { labels: rev('web-old') }),
      pod('web-a', { labels: rev('web-new', { 'lifecycle.apps.kruise.io/state': 'Normal' }), annotations: inPlace('web-new') }),
      pod('web-b', { labels: rev('web-new', { 'lifecycle.apps.kruise.io/state': 'Updating' }), annotations: inPlace('web-new'), ready: false }),
    ];
    expect(formatPodView(groupPods(base({ pods })), { limit: 20 })).toEqual([
      '    NAME   STATUS   READY  RESTARTS  UPDATE    LIFECYCLE  NODE    AGE',
      '  revision web-new (update): 2 pods',
      '    web-a  Running  1/1    0         in place  Normal     node-1  70m',
      '    web-b  Running  0/1    0         in place  Updating   node-1  70m',
      '  revision web-old (current): 1 pod',
      '    web-c  Running  1/1    0         -         -          node-1  70m  ◦ not updated',
    ]);
  });

  it.each([
    ['CloneSet, partition keeps all old pods', 'CloneSet', 2, ['partition', 'partition'], 'revision web-old (current): 2 pods'],
    ['CloneSet, partition keeps some: which is its choice', 'CloneSet', 1, ['not updated', 'not updated'], 'revision web-old (current): 2 pods, the partition keeps 1 of them'],
    ['Advanced StatefulSet keeps the ordinals below the partition', 'StatefulSet', 1, ['partition', 'not updated'], 'revision web-old (current): 2 pods'],
    ['no partition', 'CloneSet', 0, ['not updated', 'not updated'], 'revision web-old (current): 2 pods'],
  ] as const)('%s', (_name, kind, partition, marks, title) => {
    const pods = [pod('web-0', { labels: rev('web-old') }), pod('web-1', { labels: rev('web-old') }), pod('web-2', { labels: rev('web-new') })];
    const groups = groupPods(base({ kind, pods, partition }));
    expect(groups.map((g) => g.title)).toEqual(['revision web-new (update): 1 pod', title]);
    expect(groups[1]!.rows.map((r) => r.mark)).toEqual(marks);
  });

  it('shows the update revision before any pod has it, older revisions after the current one, terminating pods unmarked', () => {
    const pods = [
      pod('web-x', { labels: rev('web-older') }),
      pod('web-y', { labels: rev('web-old') }),
      pod('web-z', { labels: rev('web-old'), deleting: true }),
    ];
    const groups = groupPods(base({ pods }));
    expect(groups.map((g) => g.title)).toEqual([
      'revision web-new (update): 0 pods',
      'revision web-old (current): 2 pods',
      'revision web-older (old): 1 pod',
    ]);
    expect(groups[1]!.rows.map((r) => [r.name, r.status, r.mark])).toEqual([
      ['web-y', 'Running', 'not updated'],
      ['web-z', 'Terminating', ''],
    ]);
  });

  it('a recreated pod is marked so', () => {
    const groups = groupPods(base({ pods: [pod('web-n', { labels: rev('web-new'), created: '2026-12-04T10:05:00Z' })] }));
    expect(groups[0]!.rows[0]!.update).toBe('recreated');
  });
});

describe('groupPods: an Advanced DaemonSet, one row per node', () => {
  it('sorts by node and prints the node first', () => {
    const pods = [pod('agent-b', { labels: rev('new'), node: 'node-2' }), pod('agent-a', { labels: rev('new'), node: 'node-1' })];
    const groups = groupPods(base({ kind: 'DaemonSet', pods, updateRevision: 'new', currentRevision: undefined }));
    expect(formatPodView(groups, { limit: 20, nodeFirst: true, noAge: true })).toEqual([
      '    NODE    POD      STATUS   READY  RESTARTS  UPDATE  LIFECYCLE',
      '  revision new (update): 2 nodes',
      '    node-1  agent-a  Running  1/1    0         -       -',
      '    node-2  agent-b  Running  1/1    0         -       -',
    ]);
  });
});

describe('groupPods: a SidecarSet, by sidecar hash', () => {
  const hashes = (h: string) => ({ 'kruise.io/sidecarset-hash': JSON.stringify({ logging: { hash: h, sidecarSetName: 'logging' } }) });
  it('groups by the pod entry of the SidecarSet, latest first', () => {
    const pods = [
      pod('a', { annotations: hashes('h1'), ns: 'one' }),
      pod('b', { annotations: { ...hashes('h2'), 'kruise.io/sidecarset-inplace-update-state': '{"logging":{"revision":"r2","updateTimestamp":"2026-12-04T10:02:00Z"}}' }, ns: 'two' }),
    ];
    const groups = groupPods(
      base({ kind: 'SidecarSet', pods, updateRevision: undefined, currentRevision: undefined, sidecarSet: { name: 'logging', hash: 'h2', revision: 'logging-r2' } }),
    );
    expect(formatPodView(groups, { limit: 20, withNamespace: true, noAge: true })).toEqual([
      '    NAME   STATUS   READY  RESTARTS  UPDATE    LIFECYCLE  NODE',
      '  sidecar hash h2 (latest, revision logging-r2): 1 pod',
      '    two/b  Running  1/1    0         in place  -          node-1',
      '  sidecar hash h1 (old): 1 pod',
      '    one/a  Running  1/1    0         -         -          node-1  ◦ not updated',
    ]);
  });

  it.each([
    ['current format', hashes('h1'), 'h1'],
    ['old format name → hash', { 'kruise.io/sidecarset-hash': '{"logging":"h0"}' }, 'h0'],
    ['no entry', { 'kruise.io/sidecarset-hash': '{"other":"h0"}' }, ''],
    ['not JSON', { 'kruise.io/sidecarset-hash': '{' }, ''],
  ] as const)('sidecarHashOf: %s', (_name, annotations, expected) => {
    expect(sidecarHashOf(pod('a', { annotations }), 'logging')).toBe(expected);
  });
});

describe('groupPods: a UnitedDeployment, by subset', () => {
  it('lists the subsets in spec order with their replicas and partition, marking pods of the old UD revision', () => {
    const ud = (s: string, r: string) => ({ 'apps.kruise.io/subset-name': s, 'apps.kruise.io/controller-revision-hash': r });
    const pods = [pod('ud-b-1', { labels: ud('b', 'ud-old') }), pod('ud-a-1', { labels: ud('a', 'ud-new') }), pod('ud-b-2', { labels: ud('b', 'ud-new') })];
    const groups = groupPods(
      base({
        kind: 'UnitedDeployment',
        pods,
        updateRevision: 'ud-new',
        subsets: [
          { name: 'a', replicas: 1, ready: 1, partition: 0 },
          { name: 'b', replicas: 2, ready: 2, partition: 1 },
          { name: 'c', replicas: 0, partition: 0 },
        ],
      }),
    );
    expect(groups.map((g) => [g.title, g.rows.map((r) => `${r.name}:${r.mark}`)])).toEqual([
      ['subset a (1 replica, 1 ready, partition 0): 1 pod, 1 updated', ['ud-a-1:']],
      ['subset b (2 replicas, 2 ready, partition 1): 2 pods, 1 updated', ['ud-b-1:partition', 'ud-b-2:']],
      ['subset c (0 replicas, partition 0): 0 pods, 0 updated', []],
    ]);
  });
});

describe('formatPodView: bounded', () => {
  it.each([
    [5, 2, ['    … and 3 more (1 of them not ready)']],
    [2, 2, []],
    [3, 0, ['    … and 3 more (1 of them not ready)']],
  ] as const)('%i pods, %i rows per group', (n, limit, tail) => {
    const pods = Array.from({ length: n }, (_, i) => pod(`web-${i}`, { labels: rev('web-new'), ready: i !== n - 1 }));
    const lines = formatPodView(groupPods(base({ pods })), { limit, noAge: true });
    expect(lines.length).toBe(2 + Math.min(n, limit) + tail.length);
    expect(lines.slice(2 + Math.min(n, limit))).toEqual(tail);
  });
});
