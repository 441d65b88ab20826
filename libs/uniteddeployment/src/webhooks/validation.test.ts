import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import type { UnitedDeployment } from '@regatta/api';
import { defaultUnitedDeployment } from './defaults.js';
import { validateUnitedDeployment, validateUnitedDeploymentUpdate } from './validation.js';
import { type TemplateKind, ud, udWith } from './test-objects.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const messages = (u: unknown) => validateUnitedDeployment(u).map(formatFieldError);
const tmpl = (u: UnitedDeployment, kind: TemplateKind): Any => (u.spec.template as Any)[kind];

describe('validateUnitedDeployment (spec §6.1)', () => {
  it.each([
    'cloneSetTemplate',
    'statefulSetTemplate',
    'advancedStatefulSetTemplate',
    'deploymentTemplate',
  ] as const)('accepts a valid %s UD (after defaulting)', (kind) => {
    expect(messages(defaultUnitedDeployment(ud(kind)))).toEqual([]);
  });

  it.each<[string, (u: UnitedDeployment) => void, string[]]>([
    [
      'negative replicas (-1 also reads as "unset" in the subset rules, as upstream)',
      (u) => (u.spec.replicas = -1),
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.topology.subsets: Invalid value: 0: if UnitedDeployment replicas is not provided, replicas of all subsets should be provided',
      ],
    ],
    ['no selector', (u) => delete (u.spec as Any)['selector'], ['spec.selector: Required value']],
    [
      'empty selector',
      (u) => (u.spec.selector = {}),
      ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset'],
    ],
    [
      'no template',
      (u) => (u.spec.template = {}),
      [
        'spec.template: Required value: should provide one of statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate',
      ],
    ],
    [
      'subset name missing, duplicated, not a DNS label',
      (u) => (u.spec.topology = { subsets: [{ name: '' }, { name: 'a_b' }, { name: 'a_b' }] }),
      [
        'spec.topology.subsets[0].name: Required value',
        `spec.topology.subsets[0].name: Invalid value: "": invalid subset name ${DNS_LABEL}`,
        `spec.topology.subsets[1].name: Invalid value: "a_b": invalid subset name ${DNS_LABEL}`,
        'spec.topology.subsets[2].name: Invalid value: "a_b": duplicated subset name a_b',
        `spec.topology.subsets[2].name: Invalid value: "a_b": invalid subset name ${DNS_LABEL}`,
      ],
    ],
    [
      'bad node selector term',
      (u) =>
        (u.spec.topology = {
          subsets: [
            {
              name: 'a',
              nodeSelectorTerm: {
                matchExpressions: [{ key: 'zone', operator: 'In' }],
                matchFields: [{ key: 'x', operator: 'In', values: ['n'] }],
              },
            },
          ],
        }),
      [
        "spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.topology.subsets[0].nodeSelectorTerm.matchFields[0].key: Invalid value: "x": not a valid field selector key',
      ],
    ],
    [
      'bad tolerations',
      (u) =>
        (u.spec.topology = {
          subsets: [
            {
              name: 'a',
              tolerations: [
                { operator: 'Equal', value: 'v' },
                { key: 'k', operator: 'Maybe' },
              ],
            },
          ],
        }),
      [
        'spec.topology.subsets[0].tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'spec.topology.subsets[0].tolerations[1].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
      ],
    ],
    [
      'replicas with Adaptive',
      (u) =>
        (u.spec.topology = {
          scheduleStrategy: { type: 'Adaptive' },
          subsets: [{ name: 'a', replicas: 1 }, { name: 'b' }],
        }),
      [
        'spec.topology.subsets[0].replicas: Forbidden: specify replicas use minReplicas/maxReplicas to enable adaptive strategy',
      ],
    ],
    [
      'reservation with a StatefulSet template',
      (u) => {
        u.spec.template = {
          statefulSetTemplate: tmpl(ud('statefulSetTemplate'), 'statefulSetTemplate'),
        } as Any;
        u.spec.topology = {
          scheduleStrategy: { type: 'Adaptive', adaptive: { reserveUnschedulablePods: true } },
          subsets: [{ name: 'a' }],
        };
      },
      [
        'spec.topology.scheduleStrategy: Invalid value: {"type":"Adaptive","adaptive":{"reserveUnschedulablePods":true}}: only stateless workloads (Deployment and CloneSet) are supported by reserved rescheduling',
      ],
    ],
    [
      'unknown update strategy type',
      (u) => (u.spec.updateStrategy = { type: 'Auto' as 'Manual' }),
      ['spec.updateStrategy.type: Unsupported value: "Auto": supported values: "Manual", ""'],
    ],
    [
      'partition of a subset that does not exist',
      (u) => (u.spec.updateStrategy = { type: 'Manual', manualUpdate: { partitions: { a: 1, c: 2 } } }),
      ['spec.updateStrategy.manualUpdate.partitions: Invalid value: {"a":1,"c":2}: subset c does not exist'],
    ],
    [
      'replicas and min/max mixed',
      (u) =>
        (u.spec.topology = {
          subsets: [
            { name: 'a', replicas: 1 },
            { name: 'b', maxReplicas: 2 },
          ],
        }),
      [
        'spec.topology.subsets: Invalid value: [{"name":"a","replicas":1},{"name":"b","maxReplicas":2}]: subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment',
      ],
    ],
    [
      'capacity mode: every subset limited, min above max',
      (u) =>
        (u.spec.topology = {
          subsets: [
            { name: 'a', minReplicas: 3, maxReplicas: 2 },
            { name: 'b', maxReplicas: 0 },
          ],
        }),
      [
        'spec.topology.subsets[0].minReplicas: Invalid value: 3: subset[0].minReplicas must be less than or equal to maxReplicas',
        'spec.topology.subsets: Invalid value: 2: at least one subset.maxReplicas must be empty',
        'spec.topology.subsets: Invalid value: 3: sum of indicated subset.minReplicas should not be greater than sum of indicated subset.maxReplicas',
      ],
    ],
    [
      'capacity mode without spec.replicas',
      (u) => {
        delete u.spec.replicas;
        u.spec.topology = { subsets: [{ name: 'a', minReplicas: 1 }, { name: 'b' }] };
      },
      [
        'spec.topology.subsets: Invalid value: -1: spec.replicas must be not empty if you set subset.minReplicas/maxReplicas',
      ],
    ],
    [
      'replica mode: more than spec.replicas',
      (u) =>
        (u.spec.topology = {
          subsets: [
            { name: 'a', replicas: 3 },
            { name: 'b', replicas: '50%' },
          ],
        }),
      [
        'spec.topology.subsets: Invalid value: 5: sum of indicated subset replicas 5 should not be greater than UnitedDeployment replicas 4',
        'spec.topology.subsets: Invalid value: 5: if replicas of all subsets are provided, the sum of indicated subset replicas 5 should equal UnitedDeployment replicas 4',
      ],
    ],
    [
      'replica mode without spec.replicas: all subsets needed, no percentages',
      (u) => {
        delete u.spec.replicas;
        u.spec.topology = { subsets: [{ name: 'a', replicas: '50%' }, { name: 'b' }] };
      },
      [
        'spec.topology.subsets[0].replicas: Invalid value: "50%": subsetReplicas (50%) should not be string when unitedDeployment replicas is empty',
        'spec.topology.subsets: Invalid value: 0: if UnitedDeployment replicas is not provided, replicas of all subsets should be provided',
      ],
    ],
    [
      'bad percentage',
      (u) => (u.spec.topology = { subsets: [{ name: 'a', replicas: '120%' }, { name: 'b' }] }),
      [
        'spec.topology.subsets[0].replicas: Invalid value: "120%": subset replicas (120%) should be in range [0, 100]',
      ],
    ],
    [
      'wrong JSON types',
      (u) => ((u.spec as Any)['replicas'] = 'many'),
      ['spec.replicas: Invalid value: "many": must be an integer'],
    ],
  ])('%s', (_name, edit, expected) => {
    expect(messages(udWith(edit))).toEqual(expected);
  });

  it('the CloneSet template: only its pod spec is validated (labels and replicas are not, as upstream)', () => {
    const u = udWith((x) => {
      const t = tmpl(x, 'cloneSetTemplate');
      t.metadata.labels = { other: 'x' };
      t.spec.replicas = 3;
      t.spec.template.spec.containers = [];
    });
    expect(messages(u)).toEqual(['spec.template.cloneSetTemplate.spec.template.spec.containers: Required value']);
  });

  it.each(['statefulSetTemplate', 'advancedStatefulSetTemplate', 'deploymentTemplate'] as const)(
    '%s: labels must match, no replicas, no partition',
    (kind) => {
      const u = udWith((x) => {
        const t = tmpl(x, kind);
        t.metadata.labels = { other: 'x' };
        t.spec.replicas = 2;
        t.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
      }, kind);
      const out = messages(defaultUnitedDeployment(u));
      const labelsPath = kind === 'advancedStatefulSetTemplate' ? 'statefulSetTemplate' : kind; // upstream's path
      expect(out).toContain(
        `spec.template.${labelsPath}.metadata.labels: Invalid value: {"other":"x"}: \`selector\` does not match template \`labels\``,
      );
      expect(out).toContain(
        `spec.template.${kind}.spec.replicas: Invalid value: 2: replicas in ${kind} will not be used`,
      );
      if (kind !== 'deploymentTemplate') {
        expect(out).toContain(
          `spec.template.${kind}.spec.updateStrategy.rollingUpdate.partition: Invalid value: 1: partition in ${kind} will not be used`,
        );
      }
    },
  );

  it('StatefulSet and Deployment pod templates: labels must match the UD selector', () => {
    for (const kind of ['statefulSetTemplate', 'deploymentTemplate'] as const) {
      const u = udWith((x) => (tmpl(x, kind).spec.template.metadata.labels = { app: 'other' }), kind);
      expect(messages(defaultUnitedDeployment(u))).toContain(
        `spec.template.${kind}.spec.template.metadata.labels: Invalid value: {"app":"other"}: \`selector\` does not match template \`labels\``,
      );
    }
  });

  it('a Deployment pod template is fully checked', () => {
    const u = udWith(
      (x) => (tmpl(x, 'deploymentTemplate').spec.template.spec.containers = []),
      'deploymentTemplate',
    );
    expect(messages(u)).toEqual([
      'spec.template.deploymentTemplate.spec.template.spec.containers: Required value',
    ]);
  });

  it('more than one template', () => {
    const u = udWith(
      (x) =>
        ((x.spec.template as Any)['deploymentTemplate'] = tmpl(
          ud('deploymentTemplate'),
          'deploymentTemplate',
        )),
    );
    expect(messages(u)[0]).toMatch(
      /^spec\.template: Invalid value: .*should provide only one of statefulSetTemplate/,
    );
  });

  // docs/adr/0048: the pod spec of every subset template kind gets the core pod-spec rules (R2 of `npm run chaos`)
  it.each([
    'cloneSetTemplate',
    'statefulSetTemplate',
    'advancedStatefulSetTemplate',
    'deploymentTemplate',
  ] as const)('refuses a %s pod template Kubernetes refuses, at its path', (kind) => {
    const u = defaultUnitedDeployment(ud(kind));
    const podSpec = tmpl(u, kind).spec.template.spec as Any;
    podSpec.containers = [
      { ...podSpec.containers[0], resources: { limits: { cpu: 'lots' } } },
      { ...podSpec.containers[0] },
    ];
    podSpec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } };
    const at = `spec.template.${kind}.spec.template.spec`;
    expect(messages(u)).toEqual([
      `${at}.containers[0].resources.limits[cpu]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      `${at}.containers[1].name: Duplicate value: "main"`,
      `${at}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term`,
    ]);
  });

  it.each(['cloneSetTemplate', 'advancedStatefulSetTemplate'] as const)(
    'lets a %s pod template mount its volume claim templates',
    (kind) => {
      const u = defaultUnitedDeployment(ud(kind));
      const spec = tmpl(u, kind).spec as Any;
      spec.volumeClaimTemplates = [
        { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
      ];
      spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
      expect(messages(u)).toEqual([]);
    },
  );
});

describe('validateUnitedDeploymentUpdate (spec §6.1)', () => {
  const update = (edit: (u: UnitedDeployment) => void, kind: TemplateKind = 'cloneSetTemplate') =>
    validateUnitedDeploymentUpdate(
      defaultUnitedDeployment(udWith(edit, kind)),
      defaultUnitedDeployment(ud(kind)),
    ).map(formatFieldError);

  it('subset nodeSelectorTerm and tolerations of an existing subset are immutable', () => {
    expect(
      update((u) => {
        const [a, b] = u.spec.topology?.subsets ?? [];
        if (a) a.nodeSelectorTerm = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['c'] }] };
        if (b) b.tolerations = [{ key: 'k', operator: 'Exists' }];
      }),
    ).toEqual([
      'spec.topology.subsets[0].nodeSelectorTerm: Forbidden: may not be changed in an update',
      'spec.topology.subsets[1].tolerations: Forbidden: may not be changed in an update',
    ]);
  });

  it('new subsets, replicas, partitions and the CloneSet template may change', () => {
    expect(
      update((u) => {
        u.spec.replicas = 9;
        u.spec.topology?.subsets?.push({ name: 'c', tolerations: [{ key: 'k', operator: 'Exists' }] });
        u.spec.updateStrategy = { type: 'Manual', manualUpdate: { partitions: { a: 1 } } };
        tmpl(u, 'cloneSetTemplate').spec.scaleStrategy = { maxUnavailable: 1 };
      }),
    ).toEqual([]);
  });

  it('StatefulSet template: only template, updateStrategy, minReadySeconds, ordinals, PVC retention may change', () => {
    expect(
      update((u) => (tmpl(u, 'statefulSetTemplate').spec.minReadySeconds = 5), 'statefulSetTemplate'),
    ).toEqual([]);
    expect(
      update((u) => (tmpl(u, 'statefulSetTemplate').spec.serviceName = 'svc'), 'statefulSetTemplate'),
    ).toEqual([
      "spec.template.statefulSetTemplate.spec: Forbidden: updates to statefulsetTemplate spec for fields other than 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds' and 'ordinals' are forbidden",
    ]);
  });

  it('Advanced StatefulSet template: only template and updateStrategy may change', () => {
    expect(
      update(
        (u) => (tmpl(u, 'advancedStatefulSetTemplate').spec.updateStrategy = { type: 'OnDelete' }),
        'advancedStatefulSetTemplate',
      ),
    ).toEqual([]);
    expect(
      update(
        (u) => (tmpl(u, 'advancedStatefulSetTemplate').spec.minReadySeconds = 5),
        'advancedStatefulSetTemplate',
      ),
    ).toEqual([
      "spec.template.advancedStatefulSetTemplate.spec: Forbidden: updates to advancedStatefulsetTemplate spec for fields other than 'template', and 'updateStrategy' are forbidden",
    ]);
  });

  it('switching the template kind is allowed', () => {
    const next = defaultUnitedDeployment(ud('advancedStatefulSetTemplate'));
    expect(validateUnitedDeploymentUpdate(next, defaultUnitedDeployment(ud('statefulSetTemplate')))).toEqual(
      [],
    );
  });
});
