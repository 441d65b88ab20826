import { describe, expect, it } from 'vitest';
import { ROLLOUT_KINDS } from './kinds.js';
import { formatList, listRow, sortRows } from './list.js';

const now = new Date('2026-12-07T12:00:00Z');
const cloneSet = ROLLOUT_KINDS.find((k) => k.kind === 'CloneSet')!;
const sidecarSet = ROLLOUT_KINDS.find((k) => k.kind === 'SidecarSet')!;

const web = {
  metadata: { name: 'web', namespace: 'shop', generation: 2, creationTimestamp: '2026-12-07T11:00:00Z' },
  spec: { replicas: 3, updateStrategy: { paused: true } },
  status: { observedGeneration: 2, replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 },
};

describe('regatta list rows', () => {
  it("takes a workload's counts and rollout phase as the controllers' metrics do", () => {
    expect(listRow(cloneSet, web, now)).toEqual({
      kind: 'cloneset',
      apiVersion: 'apps.kruise.io/v1alpha1',
      namespace: 'shop',
      name: 'web',
      phase: 'Paused',
      desired: 3,
      updated: 1,
      ready: 3,
      available: 3,
      ageSeconds: 3600,
    });
  });

  it('sorts by kind, then namespace and name, and prints NAMESPACE only with -A', () => {
    const rows = sortRows(
      [
        listRow(sidecarSet, { metadata: { name: 'log' }, spec: {}, status: {} }, now),
        listRow(cloneSet, { ...web, metadata: { ...web.metadata, namespace: 'z' } }, now),
        listRow(cloneSet, web, now),
      ],
      ROLLOUT_KINDS.map((k) => k.names[0]!),
    );
    expect(rows.map((r) => `${r.namespace ?? ''}/${r.kind}/${r.name}`)).toEqual([
      'shop/cloneset/web',
      'z/cloneset/web',
      '/sidecarset/log',
    ]);
    expect(formatList(rows.slice(0, 1), false).split('\n')).toEqual([
      'NAME          DESIRED  UPDATED  READY  AVAILABLE  ROLLOUT  AGE',
      'cloneset/web  3        1        3      3          Paused   60m',
    ]);
    expect(formatList(rows, true).split('\n')[0]).toMatch(/^NAMESPACE +NAME +DESIRED/);
    expect(formatList([], true)).toBe('No Regatta workloads found.');
  });
});
