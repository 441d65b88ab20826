import { describe, expect, it } from 'vitest';
import { SUBSET_KINDS, type SubsetKind } from './kinds.js';
import { buildSubsetWorkload, subsetPrefix } from './build.js';
import type { UnitedDeployment } from '../types.js';

const kind = (template: string): SubsetKind => SUBSET_KINDS.find((k) => k.template === template) as SubsetKind;

function ud(template: string, spec: Record<string, unknown> = {}): UnitedDeployment {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'demo', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: 'demo' } },
      template: {
        [template]: {
          metadata: { labels: { app: 'demo', tier: 'web' }, annotations: { note: 'x' } },
          spec: {
            selector: { matchLabels: { app: 'demo' } },
            template: {
              metadata: { labels: { app: 'demo' } },
              spec: {
                containers: [{ name: 'main', image: 'nginx:1', env: [{ name: 'A', value: '1' }] }],
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: [
                        { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] },
                        { matchExpressions: [{ key: 'disk', operator: 'In', values: ['nvme'] }] },
                      ],
                    },
                  },
                },
              },
            },
            ...spec,
          },
        },
      },
      topology: {
        subsets: [
          {
            name: 'subset-a',
            nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['east'] }] },
            tolerations: [{ key: 'dedicated', operator: 'Exists' }],
            patch: { metadata: { labels: { patched: 'yes' } }, spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }] }] } },
          },
        ],
      },
    },
  };
}

const build = (template: string, spec: Record<string, unknown> = {}, partition = 2) => {
  const u = ud(template, spec);
  return buildSubsetWorkload({
    ud: u,
    kind: kind(template),
    subset: u.spec.topology!.subsets![0]!,
    revision: 'demo-abc',
    replicas: 3,
    partition,
  });
};

describe('buildSubsetWorkload', () => {
  it('names, labels, annotations, owner, selector and replicas', () => {
    const w = build('cloneSetTemplate');
    expect(w.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(w.kind).toBe('CloneSet');
    expect(w.metadata?.generateName).toBe('demo-subset-a-');
    expect(w.metadata?.labels).toEqual({
      app: 'demo',
      tier: 'web',
      'apps.kruise.io/controller-revision-hash': 'demo-abc',
      'apps.kruise.io/subset-name': 'subset-a',
    });
    expect(w.metadata?.annotations?.['note']).toBe('x');
    expect(JSON.parse(w.metadata?.annotations?.['apps.kruise.io/subset-patch'] ?? '')).toHaveProperty('metadata');
    expect(w.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'UnitedDeployment', name: 'demo', uid: 'u1', controller: true }),
    ]);
    expect(w.spec.selector).toEqual({ matchLabels: { app: 'demo', 'apps.kruise.io/subset-name': 'subset-a' } });
    expect(w.spec.replicas).toBe(3);
    expect(w.spec['updateStrategy']).toEqual({ partition: 2 });
  });

  it('the pod template: subset labels, the term ANDed into every required term, tolerations, then the patch', () => {
    const t = build('deploymentTemplate').spec.template as {
      metadata: { labels: Record<string, string> };
      spec: {
        containers: { name: string; env: { name: string }[] }[];
        tolerations: unknown[];
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchExpressions: { key: string }[] }[] } } };
      };
    };
    expect(t.metadata.labels).toEqual({
      app: 'demo',
      patched: 'yes',
      'apps.kruise.io/subset-name': 'subset-a',
      'apps.kruise.io/controller-revision-hash': 'demo-abc',
    });
    const terms = t.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    expect(terms.map((x) => x.matchExpressions.map((e) => e.key))).toEqual([
      ['disk', 'zone'],
      ['disk', 'zone'],
    ]);
    expect(t.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
    expect(t.spec.containers[0]?.env.map((e) => e.name)).toEqual(['A', 'B']);
  });

  it('partitions: StatefulSet forces RollingUpdate, ASTS keeps its type, OnDelete gets none, Deployment never', () => {
    expect(build('statefulSetTemplate').spec['updateStrategy']).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 2 } });
    expect(build('advancedStatefulSetTemplate').spec['updateStrategy']).toEqual({ rollingUpdate: { partition: 2 } });
    expect(build('statefulSetTemplate', { updateStrategy: { type: 'OnDelete' } }).spec['updateStrategy']).toEqual({ type: 'OnDelete' });
    expect(build('deploymentTemplate').spec['updateStrategy']).toBeUndefined();
  });

  it('reservation mode: maxUnavailable of the rolling update per kind', () => {
    const u = ud('cloneSetTemplate');
    const input = (template: string) => ({ ud: ud(template), kind: kind(template), subset: u.spec.topology!.subsets![0]!, revision: 'r', replicas: 4, partition: 0, maxUnavailable: 3 });
    expect(buildSubsetWorkload(input('cloneSetTemplate')).spec['updateStrategy']).toEqual({ partition: 0, maxUnavailable: 3 });
    expect(buildSubsetWorkload(input('deploymentTemplate')).spec['strategy']).toEqual({ rollingUpdate: { maxUnavailable: 3 } });
    expect(buildSubsetWorkload(input('advancedStatefulSetTemplate')).spec['updateStrategy']).toEqual({ rollingUpdate: { partition: 0, maxUnavailable: 3 } });
  });

  it('re-applying onto an existing workload keeps its name, resourceVersion and other labels', () => {
    const first = { ...build('cloneSetTemplate'), metadata: { ...build('cloneSetTemplate').metadata, name: 'demo-subset-a-xyz', resourceVersion: '7' } };
    first.metadata.labels = { ...first.metadata.labels, extra: 'kept' };
    const u = ud('cloneSetTemplate');
    const again = buildSubsetWorkload(
      { ud: u, kind: kind('cloneSetTemplate'), subset: u.spec.topology!.subsets![0]!, revision: 'demo-def', replicas: 5, partition: 0 },
      first,
    );
    expect(again.metadata?.name).toBe('demo-subset-a-xyz');
    expect(again.metadata?.resourceVersion).toBe('7');
    expect(again.metadata?.labels?.['extra']).toBe('kept');
    expect(again.metadata?.labels?.['apps.kruise.io/controller-revision-hash']).toBe('demo-def');
    expect(again.spec.replicas).toBe(5);
  });

  it('no node affinity is added for a subset without match expressions', () => {
    const u = ud('cloneSetTemplate');
    (u.spec.template!.cloneSetTemplate!.spec['template'] as { spec: Record<string, unknown> }).spec['affinity'] = undefined;
    const w = buildSubsetWorkload({ ud: u, kind: kind('cloneSetTemplate'), subset: { name: 'plain' }, revision: 'r', replicas: 1, partition: 0 });
    expect((w.spec.template as { spec: Record<string, unknown> }).spec['affinity']).toBeUndefined();
  });

  it('the name prefix falls back to <ud>- when <ud>-<subset>- is no valid prefix', () => {
    expect(subsetPrefix('demo', 'subset-a')).toBe('demo-subset-a-');
    expect(subsetPrefix('demo', 'x'.repeat(260))).toBe('demo-');
  });
});
