import { describe, expect, it } from 'vitest';
import type { UnitedDeployment } from '@regatta/api';
import {
  defaultUnitedDeployment,
  defaultUnitedDeploymentForAdmission,
  selectorFromTemplate,
} from './defaults.js';
import { convertSubsetNodeSelectors } from './node-selector-shorthand.js';
import { ud, udWith } from './test-objects.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('defaultUnitedDeployment (spec §6.1)', () => {
  it('defaults replicas, revisionHistoryLimit and the Manual strategy, and clears status', () => {
    const out = defaultUnitedDeployment({ spec: { selector: {} }, status: { replicas: 3 } }) as Any;
    expect(out).toEqual({
      spec: {
        selector: {},
        replicas: 1,
        revisionHistoryLimit: 10,
        updateStrategy: { type: 'Manual', manualUpdate: {} },
      },
    });
  });

  it('keeps what is set, and the input unchanged', () => {
    const input = {
      spec: {
        replicas: 0,
        revisionHistoryLimit: 2,
        updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 1 } } },
      },
    };
    const copy = structuredClone(input);
    expect(defaultUnitedDeployment(input)).toEqual(input);
    expect(input).toEqual(copy);
  });

  it('sets every unset minReplicas to 0 in capacity mode only', () => {
    const capacity = defaultUnitedDeployment({
      spec: { topology: { subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b' }] } },
    }) as Any;
    expect(capacity.spec.topology.subsets).toEqual([
      { name: 'a', maxReplicas: 2, minReplicas: 0 },
      { name: 'b', minReplicas: 0 },
    ]);
    const mixed = defaultUnitedDeployment({
      spec: {
        topology: {
          subsets: [
            { name: 'a', maxReplicas: 2 },
            { name: 'b', replicas: 1 },
          ],
        },
      },
    }) as Any;
    expect(mixed.spec.topology.subsets[1]).toEqual({ name: 'b', replicas: 1 });
    const replicaMode = defaultUnitedDeployment({
      spec: { topology: { subsets: [{ name: 'a', replicas: '50%' }, { name: 'b' }] } },
    }) as Any;
    expect(replicaMode.spec.topology.subsets[1]).toEqual({ name: 'b' });
  });

  it('injects pod defaults into a StatefulSet template only', () => {
    const sts = defaultUnitedDeployment(ud('statefulSetTemplate')) as Any;
    const podSpec = sts.spec.template.statefulSetTemplate.spec.template.spec;
    expect(podSpec.restartPolicy).toBe('Always');
    expect(podSpec.containers[0].terminationMessagePath).toBe('/dev/termination-log');
    for (const kind of ['cloneSetTemplate', 'advancedStatefulSetTemplate', 'deploymentTemplate'] as const) {
      const other = defaultUnitedDeployment(ud(kind)) as Any;
      expect(other.spec.template[kind].spec.template.spec.restartPolicy).toBeUndefined();
    }
    const noDefaults = defaultUnitedDeployment(ud('statefulSetTemplate'), {
      injectTemplateDefaults: false,
    }) as Any;
    expect(noDefaults.spec.template.statefulSetTemplate.spec.template.spec.restartPolicy).toBeUndefined();
  });

  it('defaults the claim templates of a StatefulSet template to phase Pending', () => {
    const u = udWith((x) => {
      (x.spec.template as Any)['statefulSetTemplate'].spec.volumeClaimTemplates = [
        { metadata: { name: 'data' }, spec: {} },
      ];
    }, 'statefulSetTemplate');
    const out = defaultUnitedDeployment(u) as Any;
    expect(out.spec.template.statefulSetTemplate.spec.volumeClaimTemplates[0].status).toEqual({
      phase: 'Pending',
    });
  });

  it('accepts any JSON', () => {
    for (const v of [
      null,
      1,
      'x',
      [],
      { spec: 3 },
      { spec: { updateStrategy: 'x', topology: { subsets: [null, 2] } } },
    ]) {
      expect(() => defaultUnitedDeployment(v)).not.toThrow();
    }
  });
});

describe('admission defaulting', () => {
  it('injects template defaults on UPDATE only when spec.template changed', () => {
    const old = ud('statefulSetTemplate');
    const same = defaultUnitedDeploymentForAdmission({
      operation: 'UPDATE',
      object: ud('statefulSetTemplate'),
      oldObject: old,
    }).object as Any;
    expect(same.spec.template.statefulSetTemplate.spec.template.spec.restartPolicy).toBeUndefined();
    const changed = udWith((x) => {
      (x.spec.template as Any)['statefulSetTemplate'].spec.template.spec.containers[0].image = 'nginx:1.26';
    }, 'statefulSetTemplate');
    const out = defaultUnitedDeploymentForAdmission({ operation: 'UPDATE', object: changed, oldObject: old })
      .object as Any;
    expect(out.spec.template.statefulSetTemplate.spec.template.spec.restartPolicy).toBe('Always');
    const gated = defaultUnitedDeploymentForAdmission(
      { operation: 'CREATE', object: ud('statefulSetTemplate') },
      { templateNoDefaults: true },
    ).object as Any;
    expect(gated.spec.template.statefulSetTemplate.spec.template.spec.restartPolicy).toBeUndefined();
  });

  it('has no warning for an OpenKruise object', () => {
    expect(defaultUnitedDeploymentForAdmission({ operation: 'CREATE', object: ud() }).warnings).toEqual([]);
  });
});

describe('the seed shorthands', () => {
  const seedLike = (): Any => ({
    spec: {
      replicas: 12,
      topology: {
        subsets: [
          { name: 'az-east', nodeSelector: { 'topology.kubernetes.io/zone': 'east' }, replicas: 4 },
          { name: 'az-west', nodeSelector: { 'topology.kubernetes.io/zone': 'west' }, replicas: 4 },
        ],
      },
      template: {
        cloneSetTemplate: {
          spec: { selector: { matchLabels: { app: 'g' } }, template: { metadata: { labels: { app: 'g' } } } },
        },
      },
    },
  });

  it('turns subsets[].nodeSelector into nodeSelectorTerm In expressions, with a warning naming the real field', () => {
    const { object, warnings } = convertSubsetNodeSelectors(seedLike());
    expect((object as Any).spec.topology.subsets[0]).toEqual({
      name: 'az-east',
      replicas: 4,
      nodeSelectorTerm: {
        matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['east'] }],
      },
    });
    expect(warnings).toEqual([
      'spec.topology.subsets[0].nodeSelector is not a UnitedDeployment field (OpenKruise ignores it); converted to spec.topology.subsets[0].nodeSelectorTerm.matchExpressions (topology.kubernetes.io/zone In [east]): write nodeSelectorTerm instead',
      'spec.topology.subsets[1].nodeSelector is not a UnitedDeployment field (OpenKruise ignores it); converted to spec.topology.subsets[1].nodeSelectorTerm.matchExpressions (topology.kubernetes.io/zone In [west]): write nodeSelectorTerm instead',
    ]);
  });

  it('adds to an existing term without duplicating a requirement (converting twice changes nothing)', () => {
    const u = seedLike();
    u.spec.topology.subsets[0].nodeSelectorTerm = {
      matchExpressions: [
        { key: 'disk', operator: 'In', values: ['ssd'] },
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['east'] },
      ],
    };
    const once = convertSubsetNodeSelectors(u).object as Any;
    expect(once.spec.topology.subsets[0].nodeSelectorTerm.matchExpressions).toHaveLength(2);
    expect(convertSubsetNodeSelectors(once)).toEqual({ object: once, warnings: [] });
  });

  it('leaves a nodeSelector that is not a string map to the validation', () => {
    const u = { spec: { topology: { subsets: [{ name: 'a', nodeSelector: { zone: 1 } }] } } };
    expect(convertSubsetNodeSelectors(u)).toEqual({ object: u, warnings: [] });
  });

  it('takes a missing spec.selector from the template, with a warning', () => {
    const { object, warnings } = defaultUnitedDeploymentForAdmission({
      operation: 'CREATE',
      object: seedLike(),
    });
    expect((object as Any).spec.selector).toEqual({ matchLabels: { app: 'g' } });
    expect(warnings[2]).toBe(
      'spec.selector is required by UnitedDeployment and was missing; defaulted from spec.template.cloneSetTemplate.spec.selector: write spec.selector instead',
    );
    const podLabelsOnly = {
      selector: undefined,
      template: { deploymentTemplate: { spec: { template: { metadata: { labels: { app: 'd' } } } } } },
    };
    expect(selectorFromTemplate(podLabelsOnly)?.selector).toEqual({ matchLabels: { app: 'd' } });
    expect(selectorFromTemplate((ud() as UnitedDeployment).spec)).toBeUndefined();
    expect(selectorFromTemplate({ template: {} })).toBeUndefined();
  });
});
