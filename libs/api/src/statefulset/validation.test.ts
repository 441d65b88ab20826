// Every validation rule of the Advanced StatefulSet webhook (OpenKruise v1.9
// `pkg/webhook/statefulset/validating/statefulset_validation.go`) as a table: the input change and the exact errors.
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultStatefulSet } from './defaults.js';
import { type Editable, type Json, rawSts, rollingUpdate } from './test-objects.js';
import { STATEFULSET_NAME_MAX_LENGTH, validateStatefulSet } from './validation.js';

const errorsOf = (edit: (sts: Editable) => void): string[] => validateStatefulSet(defaultStatefulSet(rawSts(edit))).map(formatFieldError);
const parallel = (sts: Editable): void => {
  sts.spec['podManagementPolicy'] = 'Parallel';
};
const inPlaceGate = (sts: Editable): void => {
  sts.spec.template.spec['readinessGates'] = [{ conditionType: 'InPlaceUpdateReady' }];
};
const PARALLEL_ONLY = 'can only work with Parallel PodManagementPolicyType';
const MU = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
const SMU = 'spec.scaleStrategy.maxUnavailable';
const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

describe('validateStatefulSet (CREATE)', () => {
  it('accepts the base object, raw and defaulted', () => {
    expect(validateStatefulSet(rawSts()).map(formatFieldError)).toEqual([]);
    expect(errorsOf(() => undefined)).toEqual([]);
  });

  it.each<[string, (sts: Editable) => void, string[]]>([
    // replicas
    ['replicas 0', (s) => (s.spec['replicas'] = 0), []],
    ['replicas -1', (s) => (s.spec['replicas'] = -1), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    // selector
    ['no selector', (s) => delete s.spec['selector'], ['spec.selector: Required value']],
    [
      'an empty selector',
      (s) => (s.spec['selector'] = {}),
      ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset'],
    ],
    [
      'a selector the template does not match',
      (s) => (s.spec['selector'] = { matchLabels: { app: 'other' } }),
      ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'an unparsable selector',
      (s) => (s.spec['selector'] = { matchExpressions: [{ key: 'app', operator: 'Bogus' }] }),
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Bogus"}]}',
      ],
    ],
    // template
    [
      'restartPolicy Never',
      (s) => (s.spec.template.spec['restartPolicy'] = 'Never'),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'activeDeadlineSeconds',
      (s) => (s.spec.template.spec['activeDeadlineSeconds'] = 10),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported'],
    ],
    ['no containers', (s) => (s.spec.template.spec['containers'] = []), ['spec.template.spec.containers: Required value']],
    [
      'a mount of a claim template is fine',
      (s) => {
        s.spec['volumeClaimTemplates'] = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }];
        ((s.spec.template.spec['containers'] as Json[])[0] as Json)['volumeMounts'] = [{ name: 'data', mountPath: '/data' }];
      },
      [],
    ],
    [
      'a claim template without a name',
      (s) => (s.spec['volumeClaimTemplates'] = [{ spec: {} }]),
      ['spec.volumeClaimTemplates[0].metadata.name: Required value'],
    ],
    [
      'two claim templates of one name',
      (s) => (s.spec['volumeClaimTemplates'] = [{ metadata: { name: 'd' } }, { metadata: { name: 'd' } }]),
      ['spec.volumeClaimTemplates[1].metadata.name: Duplicate value: "d"'],
    ],
    // podManagementPolicy
    ['Parallel', parallel, []],
    [
      'an unknown podManagementPolicy',
      (s) => (s.spec['podManagementPolicy'] = 'Burst'),
      ["spec.podManagementPolicy: Invalid value: \"Burst\": must be 'OrderedReady' or 'Parallel'"],
    ],
    // updateStrategy
    ['OnDelete', (s) => (s.spec['updateStrategy'] = { type: 'OnDelete' }), []],
    [
      'OnDelete with rollingUpdate',
      (s) => (s.spec['updateStrategy'] = { type: 'OnDelete', rollingUpdate: { partition: 1 } }),
      ["spec.updateStrategy.rollingUpdate: Invalid value: {\"partition\":1}: only allowed for updateStrategy 'RollingUpdate'"],
    ],
    [
      'an unknown updateStrategy type',
      (s) => (s.spec['updateStrategy'] = { type: 'Recreate' }),
      ["spec.updateStrategy.type: Invalid value: \"Recreate\": must be 'RollingUpdate' or 'OnDelete'"],
    ],
    // partition
    ['partition 2', (s) => (rollingUpdate(s)['partition'] = 2), []],
    [
      'partition -1',
      (s) => (rollingUpdate(s)['partition'] = -1),
      ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ],
    // minReadySeconds
    ['minReadySeconds 300', (s) => (rollingUpdate(s)['minReadySeconds'] = 300), []],
    [
      'minReadySeconds 301',
      (s) => (rollingUpdate(s)['minReadySeconds'] = 301),
      ['spec.updateStrategy.rollingUpdate.minReadySeconds: Invalid value: 301: must be no more than 300 seconds'],
    ],
    [
      'minReadySeconds -1',
      (s) => (rollingUpdate(s)['minReadySeconds'] = -1),
      ['spec.updateStrategy.rollingUpdate.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    // rollingUpdate.maxUnavailable
    ['maxUnavailable 1 with OrderedReady', (s) => (rollingUpdate(s)['maxUnavailable'] = 1), []],
    ['maxUnavailable 3 with Parallel', (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = 3)), []],
    ['maxUnavailable "40%" with Parallel', (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = '40%')), []],
    ['maxUnavailable "1%" with Parallel (ceil of 1 %)', (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = '1%')), []],
    ['maxUnavailable 2 with OrderedReady', (s) => (rollingUpdate(s)['maxUnavailable'] = 2), [`${MU}: Invalid value: 2: ${PARALLEL_ONLY}`]],
    [
      'maxUnavailable "100%" with OrderedReady (only the int 1 is allowed)',
      (s) => (rollingUpdate(s)['maxUnavailable'] = '100%'),
      [`${MU}: Invalid value: "100%": ${PARALLEL_ONLY}`],
    ],
    [
      'maxUnavailable 0',
      (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = 0)),
      [`${MU}: Invalid value: 0: should not be less than 1`],
    ],
    [
      'maxUnavailable "0%"',
      (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = '0%')),
      [`${MU}: Invalid value: 0: should not be less than 1`],
    ],
    [
      'maxUnavailable -1',
      (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = -1)),
      [`${MU}: Invalid value: -1: must be greater than or equal to 0`, `${MU}: Invalid value: -1: should not be less than 1`],
    ],
    [
      'maxUnavailable "5" (a bare numeric string)',
      (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = '5')),
      [
        `${MU}: Invalid value: "5": ${PERCENT_MSG}`,
        `${MU}: Invalid value: 0: getValueFromIntOrPercent error: invalid value for IntOrString: invalid type: string is not a percentage`,
      ],
    ],
    [
      'maxUnavailable "1.5%"',
      (s) => (parallel(s), (rollingUpdate(s)['maxUnavailable'] = '1.5%')),
      [
        `${MU}: Invalid value: "1.5%": ${PERCENT_MSG}`,
        `${MU}: Invalid value: 0: getValueFromIntOrPercent error: invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax`,
      ],
    ],
    // podUpdatePolicy
    ['InPlaceIfPossible with the readiness gate', (s) => (inPlaceGate(s), (rollingUpdate(s)['podUpdatePolicy'] = 'InPlaceIfPossible')), []],
    ['InPlaceOnly with the readiness gate', (s) => (inPlaceGate(s), (rollingUpdate(s)['podUpdatePolicy'] = 'InPlaceOnly')), []],
    [
      'InPlaceIfPossible without the readiness gate',
      (s) => (rollingUpdate(s)['podUpdatePolicy'] = 'InPlaceIfPossible'),
      ['spec.template.spec.readinessGates: Invalid value: []: must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceIfPossible'],
    ],
    [
      'InPlaceOnly with another readiness gate',
      (s) => {
        s.spec.template.spec['readinessGates'] = [{ conditionType: 'other' }];
        rollingUpdate(s)['podUpdatePolicy'] = 'InPlaceOnly';
      },
      [
        'spec.template.spec.readinessGates: Invalid value: [{"conditionType":"other"}]: must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceOnly',
      ],
    ],
    [
      'podUpdatePolicy Recreate (not ReCreate)',
      (s) => (rollingUpdate(s)['podUpdatePolicy'] = 'Recreate'),
      ["spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Recreate\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"],
    ],
    [
      'podUpdatePolicy Parallel (S1 §1.3.2) points to podManagementPolicy',
      (s) => (parallel(s), (rollingUpdate(s)['podUpdatePolicy'] = 'Parallel')),
      [
        "spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Parallel\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'; " +
          'podUpdatePolicy chooses how a pod is updated, not how many at once: parallel updates are `spec.podManagementPolicy: Parallel` ' +
          'with `rollingUpdate.maxUnavailable`',
      ],
    ],
    // unorderedUpdate
    [
      'unorderedUpdate with Parallel',
      (s) => (parallel(s), (rollingUpdate(s)['unorderedUpdate'] = { priorityStrategy: { orderPriority: [{ orderedKey: 'p' }] } })),
      [],
    ],
    [
      'unorderedUpdate with OrderedReady',
      (s) => (rollingUpdate(s)['unorderedUpdate'] = {}),
      ['spec.updateStrategy.rollingUpdate.unorderedUpdate: Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType'],
    ],
    [
      'unorderedUpdate with both weights and orders',
      (s) => {
        parallel(s);
        rollingUpdate(s)['unorderedUpdate'] = {
          priorityStrategy: { orderPriority: [{ orderedKey: 'p' }], weightPriority: [{ weight: 10, matchSelector: { matchLabels: { a: 'b' } } }] },
        };
      },
      ['spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ],
    [
      'unorderedUpdate with a weight of 101',
      (s) => {
        parallel(s);
        rollingUpdate(s)['unorderedUpdate'] = { priorityStrategy: { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] } };
      },
      ['spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy: Required value: weight must be valid number in the range 1-100'],
    ],
    // scaleStrategy.maxUnavailable
    ['scaleStrategy.maxUnavailable "10%" with Parallel (S1 §3)', (s) => (parallel(s), (s.spec['scaleStrategy'] = { maxUnavailable: '10%' })), []],
    ['scaleStrategy.maxUnavailable 1 with OrderedReady', (s) => (s.spec['scaleStrategy'] = { maxUnavailable: 1 }), []],
    [
      'scaleStrategy.maxUnavailable 2 with OrderedReady',
      (s) => (s.spec['scaleStrategy'] = { maxUnavailable: 2 }),
      [`${SMU}: Invalid value: 2: ${PARALLEL_ONLY}`],
    ],
    [
      'scaleStrategy.maxUnavailable 0',
      (s) => (parallel(s), (s.spec['scaleStrategy'] = { maxUnavailable: 0 })),
      [`${SMU}: Invalid value: 0: should not be less than 1`],
    ],
    // reserveOrdinals
    ['reserveOrdinals [1, "3-5"]', (s) => (s.spec['reserveOrdinals'] = [1, '3-5']), []],
    ['reserveOrdinals ["4-4"]', (s) => (s.spec['reserveOrdinals'] = ['4-4']), []],
    [
      'reserveOrdinals [-1]',
      (s) => (s.spec['reserveOrdinals'] = [0, -1]),
      ['spec.reserveOrdinals[1]: Invalid value: -1: 1 th reserve ordinal is negative: -1'],
    ],
    [
      'reserveOrdinals ["abc"]',
      (s) => (s.spec['reserveOrdinals'] = ['abc']),
      ['spec.reserveOrdinals[0]: Invalid value: "abc": 0 th reserve ordinal is not a valid range: abc'],
    ],
    [
      'reserveOrdinals ["3"] (a numeric string is not a range)',
      (s) => (s.spec['reserveOrdinals'] = ['3']),
      ['spec.reserveOrdinals[0]: Invalid value: "3": 0 th reserve ordinal is not a valid range: 3'],
    ],
    [
      'reserveOrdinals ["5-3"]',
      (s) => (s.spec['reserveOrdinals'] = ['5-3']),
      ['spec.reserveOrdinals[0]: Invalid value: "5-3": 0 th reserve ordinal is invalid: 5-3, err = invalid range 5-3'],
    ],
    [
      'reserveOrdinals ["1-3-5"]',
      (s) => (s.spec['reserveOrdinals'] = ['1-3-5']),
      ['spec.reserveOrdinals[0]: Invalid value: "1-3-5": 0 th reserve ordinal is not a valid range: 1-3-5'],
    ],
    [
      'reserveOrdinals beyond int32',
      (s) => (s.spec['reserveOrdinals'] = ['0-99999999999']),
      ['spec.reserveOrdinals[0]: Invalid value: "0-99999999999": 0 th reserve ordinal is more than 2147483647: 0-99999999999'],
    ],
    // persistentVolumeClaimRetentionPolicy
    ['retention Delete/Delete', (s) => (s.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Delete', whenScaled: 'Delete' }), []],
    [
      'retention whenScaled Keep',
      (s) => (s.spec['persistentVolumeClaimRetentionPolicy'] = { whenScaled: 'Keep' }),
      ['spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ],
    // ordinals.start
    ['ordinals.start 2', (s) => (s.spec['ordinals'] = { start: 2 }), []],
    ['ordinals.start -1', (s) => (s.spec['ordinals'] = { start: -1 }), ['spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0']],
    // volumeClaimUpdateStrategy
    ['volumeClaimUpdateStrategy OnPodRollingUpdate', (s) => (s.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' }), []],
    [
      'volumeClaimUpdateStrategy Always',
      (s) => (s.spec['volumeClaimUpdateStrategy'] = { type: 'Always' }),
      ['spec.volumeClaimUpdateStrategy.type: Unsupported value: "Always": supported values: "OnPodRollingUpdate", "OnDelete"'],
    ],
    // metadata.name
    ['a name of 52 characters', (s) => (s.metadata['name'] = 'a'.repeat(STATEFULSET_NAME_MAX_LENGTH)), []],
    [
      'a name of 53 characters',
      (s) => (s.metadata['name'] = 'a'.repeat(53)),
      [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`],
    ],
    [
      'a name with a dot (not a DNS label: pods are <name>-<ordinal> hostnames)',
      (s) => (s.metadata['name'] = 'web.v2'),
      [
        "metadata.name: Invalid value: \"web.v2\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['no namespace', (s) => delete s.metadata['namespace'], ['metadata.namespace: Required value']],
    // reserved template labels (Regatta)
    [
      'a template label the controller owns',
      (s) => {
        const labels = s.spec.template.metadata['labels'] as Json;
        labels['statefulset.kubernetes.io/pod-name'] = 'web-0';
        labels['apps.kruise.io/specified-delete'] = 'true';
      },
      [
        'spec.template.metadata.labels[apps.kruise.io/specified-delete]: Forbidden: is set by the StatefulSet controller on its pods; remove it from the template',
        'spec.template.metadata.labels[statefulset.kubernetes.io/pod-name]: Forbidden: is set by the StatefulSet controller on its pods; remove it from the template',
      ],
    ],
  ])('%s', (_name, edit, expected) => {
    expect(errorsOf(edit)).toEqual(expected);
  });
});
