import { describe, expect, it } from 'vitest';
import { diffTargets } from './diff-command.js';
import { RolloutUsageError } from './errors.js';

const cs = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web' }, spec: { template: {} } };

describe('diffTargets', () => {
  it('keeps the workloads of a file, skipping empty documents', () => {
    const ads = { ...cs, apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'agent' } };
    expect(diffTargets([cs, null, ads], 'f.yaml').map((t) => [t.kind, t.title, t.name])).toEqual([
      ['CloneSet', 'CloneSet', 'web'],
      ['DaemonSet', 'Advanced DaemonSet', 'agent'],
    ]);
  });

  it.each<[string, unknown[], string]>([
    ['a Deployment', [{ ...cs, apiVersion: 'apps/v1', kind: 'Deployment' }], 'f.yaml, document 1: Deployment apps/v1 is not a workload diff can preview'],
    ['no name', [{ ...cs, metadata: {} }], 'f.yaml, document 1: CloneSet has no metadata.name'],
    ['no template', [{ ...cs, spec: {} }], 'f.yaml, document 1: CloneSet "web" has no spec.template'],
    ['a scalar', ['hello'], 'f.yaml, document 1: not an object'],
    ['nothing', [null], 'f.yaml holds no workload'],
  ])('refuses %s as a usage error', (_case, docs, message) => {
    expect(() => diffTargets(docs, 'f.yaml')).toThrow(RolloutUsageError);
    expect(() => diffTargets(docs, 'f.yaml')).toThrow(message);
  });
});
