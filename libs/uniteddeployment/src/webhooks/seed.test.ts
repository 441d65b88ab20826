/**
 * The seed article's UnitedDeployment (S1 §1.3.4, libs/api/src/uniteddeployment/fixtures) through admission and
 * allocation: it is admitted unchanged (with warnings), its zones become node selector terms, and 12 replicas split
 * 4/4/4 — the same as its OpenKruise form.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { UnitedDeployment } from '@regatta/api';
import { formatFieldError } from '@regatta/kube';
import { allocateReplicas } from '../allocation/allocate.js';
import { defaultUnitedDeploymentForAdmission } from './defaults.js';
import { validateUnitedDeployment } from './validation.js';

const FIXTURE = new URL(
  '../../../api/src/uniteddeployment/fixtures/s1-1.3.4-global-service.yaml',
  import.meta.url,
);
const CLONESET_SPEC = {
  selector: { matchLabels: { app: 'global-service' } },
  template: {
    metadata: { labels: { app: 'global-service' } },
    spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
  },
};

function seed(): UnitedDeployment {
  const obj = parse(readFileSync(FIXTURE, 'utf8')) as UnitedDeployment & {
    spec: { template: { cloneSetTemplate: { spec: unknown } } };
  };
  obj.spec.template.cloneSetTemplate.spec = structuredClone(CLONESET_SPEC); // the article's `{...}`
  (obj.metadata ??= {}).namespace = 'default';
  return obj;
}

describe('seed UnitedDeployment through admission', () => {
  const { object, warnings } = defaultUnitedDeploymentForAdmission({ operation: 'CREATE', object: seed() });

  it('is admitted, with a warning per shorthand', () => {
    expect(validateUnitedDeployment(object).map(formatFieldError)).toEqual([]);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toContain(
      'spec.topology.subsets[0].nodeSelectorTerm.matchExpressions (topology.kubernetes.io/zone In [east])',
    );
    expect(warnings[3]).toContain('spec.selector');
  });

  it('runs its subsets in the three zones, 4/4/4', () => {
    expect(object.spec.selector).toEqual(CLONESET_SPEC.selector);
    expect(
      object.spec.topology?.subsets?.map((s) => [
        s.name,
        s.nodeSelectorTerm?.matchExpressions,
        s.nodeSelector,
      ]),
    ).toEqual(
      ['east', 'west', 'central'].map((zone) => [
        `az-${zone}`,
        [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
        undefined,
      ]),
    );
    expect(allocateReplicas(object.spec)).toEqual({ 'az-east': 4, 'az-west': 4, 'az-central': 4 });
  });

  it('is then stable: admitting the stored object again changes nothing', () => {
    const again = defaultUnitedDeploymentForAdmission({ operation: 'UPDATE', object, oldObject: object });
    expect(again).toEqual({ object, warnings: [] });
  });
});
