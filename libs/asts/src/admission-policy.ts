/**
 * Advanced StatefulSet's validation rules CEL can express (libs/api `validateStatefulSet` /
 * `validateStatefulSetUpdate`, OpenKruise `pkg/webhook/statefulset/validating/statefulset_validation.go`), as a
 * ValidatingAdmissionPolicy shipped with the CRD (docs/adr/0088-admission-policies.md). The webhook keeps them too,
 * and alone checks what needs code or look-ups: StorageClass expansion of claim templates, the `InPlaceOnly`
 * template diff, reserve-ordinal ranges, the selector's syntax, the pod template's contents, claim template names,
 * and the InPlaceUpdateReady readiness gate (the mutating webhook adds it, so a raw object may lack it).
 */
import {
  POD_MANAGEMENT_POLICIES,
  PVC_RETENTION_POLICY_TYPES,
  STATEFULSET_FORBIDDEN_UPDATE_MESSAGE,
  STATEFULSET_MAX_MIN_READY_SECONDS,
  STATEFULSET_NAME_MAX_LENGTH,
  STATEFULSET_RESERVED_TEMPLATE_LABELS,
  VOLUME_CLAIM_UPDATE_STRATEGY_TYPES,
} from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  type KindPolicy,
  type PolicyRule,
  type PolicyScope,
  ROLLING_UPDATE as RU,
  ROLLING_UPDATE_PATH as RU_PATH,
  WORKLOAD_VARIABLES,
  celBadValue,
  celOneOf as oneOf,
  celOr,
  celString,
  supportedValues as supported,
  validatingPolicyObjects,
  workloadRules,
} from '@regatta/workload';

/** `validateMaxUnavailableField`: at least 1 (an int, or `<digits>%` above 0), other than 1 only when Parallel. */
function maxUnavailableRules(variable: string, path: string): PolicyRule[] {
  const v = `variables.${variable}`;
  return [
    {
      field: path,
      expression: `type(${v}) == int ? ${v} >= 1 : (string(${v}).matches('^[0-9]+%$') && int(string(${v}).substring(0, size(string(${v})) - 1)) > 0)`,
      messageExpression: `'${path}: Invalid value: ' + ${celBadValue(v)} + ': should not be less than 1'`,
    },
    {
      field: path,
      expression: `variables.parallel || (type(${v}) == int && ${v} == 1)`,
      messageExpression: `'${path}: Invalid value: ' + ${celBadValue(v)} + ': can only work with Parallel PodManagementPolicyType'`,
    },
  ];
}

const immutable = (field: string, normalized: (obj: string) => string): PolicyRule => ({
  field: `spec.${field}`,
  expression: `request.operation != 'UPDATE' || ${normalized('object')} == ${normalized('oldObject')}`,
  messageExpression: celString(`spec.${field}: Forbidden: ${STATEFULSET_FORBIDDEN_UPDATE_MESSAGE}`),
});

export const STATEFULSET_POLICY: KindPolicy = {
  name: 'statefulset',
  group: 'apps.kruise.io',
  resource: 'statefulsets',
  version: 'v1beta1',
  variables: [
    ...WORKLOAD_VARIABLES,
    { name: 'pmp', expression: celOr('object', ['spec', 'podManagementPolicy'], "''") },
    { name: 'parallel', expression: "variables.pmp == 'Parallel'" },
    { name: 'updateType', expression: celOr('object', ['spec', 'updateStrategy', 'type'], "''") },
    { name: 'rolling', expression: "variables.updateType in ['', 'RollingUpdate']" },
    { name: 'ruMaxUnavailable', expression: celOr('object', [...RU, 'maxUnavailable'], '1') },
    { name: 'scaleMaxUnavailable', expression: celOr('object', ['spec', 'scaleStrategy', 'maxUnavailable'], '1') },
    { name: 'reserveOrdinals', expression: celOr('object', ['spec', 'reserveOrdinals'], '[]') },
    { name: 'negativeOrdinals', expression: 'variables.reserveOrdinals.filter(o, type(o) == int && o < 0)' },
  ],
  rules: [
    ...workloadRules({
      kind: 'StatefulSet',
      kindWord: 'statefulset',
      deadlineWord: 'StatefulSet',
      replicas: true,
      nameMaxLength: STATEFULSET_NAME_MAX_LENGTH,
      reservedTemplateLabels: STATEFULSET_RESERVED_TEMPLATE_LABELS,
      immutableSelector: `spec.selector: Forbidden: ${STATEFULSET_FORBIDDEN_UPDATE_MESSAGE}`,
    }),
    immutable('serviceName', (o) => celOr(o, ['spec', 'serviceName'], "''")),
    immutable('podManagementPolicy', (o) => `(${celOr(o, ['spec', 'podManagementPolicy'], "''")} in ['', 'OrderedReady'] ? 'OrderedReady' : ${o}.spec.podManagementPolicy)`),
    {
      field: 'spec.podManagementPolicy',
      expression: oneOf('variables.pmp', POD_MANAGEMENT_POLICIES),
      messageExpression: `'spec.podManagementPolicy: Invalid value: "' + variables.pmp + '": must be ' + "'OrderedReady' or 'Parallel'"`,
    },
    {
      field: 'spec.updateStrategy.type',
      expression: "variables.updateType in ['', 'RollingUpdate', 'OnDelete']",
      messageExpression: `'spec.updateStrategy.type: Invalid value: "' + variables.updateType + '": must be ' + "'RollingUpdate' or 'OnDelete'"`,
    },
    {
      field: RU_PATH,
      expression: `variables.updateType != 'OnDelete' || !has(object.spec.updateStrategy.rollingUpdate)`,
      messageExpression: celString(`${RU_PATH}: Invalid value: {}: only allowed for updateStrategy 'RollingUpdate'`),
    },
    {
      field: `${RU_PATH}.partition`,
      expression: `!variables.rolling || ${celOr('object', [...RU, 'partition'], '0')} >= 0`,
      messageExpression: `'${RU_PATH}.partition: Invalid value: ' + string(object.spec.updateStrategy.rollingUpdate.partition) + ': must be greater than or equal to 0'`,
    },
    {
      field: `${RU_PATH}.minReadySeconds`,
      expression: `!variables.rolling || ${celOr('object', [...RU, 'minReadySeconds'], '0')} >= 0`,
      messageExpression: `'${RU_PATH}.minReadySeconds: Invalid value: ' + string(object.spec.updateStrategy.rollingUpdate.minReadySeconds) + ': must be greater than or equal to 0'`,
    },
    {
      field: `${RU_PATH}.minReadySeconds`,
      expression: `!variables.rolling || ${celOr('object', [...RU, 'minReadySeconds'], '0')} <= ${STATEFULSET_MAX_MIN_READY_SECONDS}`,
      messageExpression: `'${RU_PATH}.minReadySeconds: Invalid value: ' + string(object.spec.updateStrategy.rollingUpdate.minReadySeconds) + ': must be no more than ${STATEFULSET_MAX_MIN_READY_SECONDS} seconds'`,
    },
    ...maxUnavailableRules('ruMaxUnavailable', `${RU_PATH}.maxUnavailable`).map((r) => ({
      ...r,
      expression: `!variables.rolling || (${r.expression})`,
    })),
    {
      field: `${RU_PATH}.podUpdatePolicy`,
      expression: `!variables.rolling || ${oneOf(celOr('object', [...RU, 'podUpdatePolicy'], "''"), ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'])}`,
      messageExpression: `'${RU_PATH}.podUpdatePolicy: Invalid value: "' + object.spec.updateStrategy.rollingUpdate.podUpdatePolicy + '": must be ' + "'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"`,
    },
    {
      field: `${RU_PATH}.unorderedUpdate`,
      expression: `!variables.rolling || variables.parallel || !(${celHasRu('unorderedUpdate')})`,
      messageExpression: celString(`${RU_PATH}.unorderedUpdate: Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType`),
    },
    ...maxUnavailableRules('scaleMaxUnavailable', 'spec.scaleStrategy.maxUnavailable').map((r) => ({
      ...r,
      expression: `!has(object.spec.scaleStrategy) || !has(object.spec.scaleStrategy.maxUnavailable) || (${r.expression})`,
    })),
    ...(['whenDeleted', 'whenScaled'] as const).map((key) => ({
      field: `spec.persistentVolumeClaimRetentionPolicy.${key}`,
      expression: oneOf(celOr('object', ['spec', 'persistentVolumeClaimRetentionPolicy', key], "''"), PVC_RETENTION_POLICY_TYPES),
      messageExpression: `'spec.persistentVolumeClaimRetentionPolicy.${key}: Unsupported value: "' + object.spec.persistentVolumeClaimRetentionPolicy.${key} + '": supported values: ${supported(PVC_RETENTION_POLICY_TYPES)}'`,
    })),
    {
      field: 'spec.volumeClaimUpdateStrategy.type',
      expression: oneOf(celOr('object', ['spec', 'volumeClaimUpdateStrategy', 'type'], "''"), VOLUME_CLAIM_UPDATE_STRATEGY_TYPES),
      messageExpression: `'spec.volumeClaimUpdateStrategy.type: Unsupported value: "' + object.spec.volumeClaimUpdateStrategy.type + '": supported values: ${supported(VOLUME_CLAIM_UPDATE_STRATEGY_TYPES)}'`,
    },
    {
      field: 'spec.ordinals.start',
      expression: `${celOr('object', ['spec', 'ordinals', 'start'], '0')} >= 0`,
      messageExpression: "'spec.ordinals.start: Invalid value: ' + string(object.spec.ordinals.start) + ': must be greater than or equal to 0'",
    },
    {
      field: 'spec.reserveOrdinals',
      expression: 'size(variables.negativeOrdinals) == 0',
      messageExpression:
        "'spec.reserveOrdinals[' + string(variables.reserveOrdinals.indexOf(variables.negativeOrdinals[0])) + ']: Invalid value: ' + " +
        "string(variables.negativeOrdinals[0]) + ': ' + string(variables.reserveOrdinals.indexOf(variables.negativeOrdinals[0])) + " +
        "' th reserve ordinal is negative: ' + string(variables.negativeOrdinals[0])",
    },
  ],
};

function celHasRu(field: string): string {
  return `has(object.spec.updateStrategy) && has(object.spec.updateStrategy.rollingUpdate) && has(object.spec.updateStrategy.rollingUpdate.${field})`;
}

/** The Advanced StatefulSet's ValidatingAdmissionPolicy and binding. */
export const statefulSetAdmissionPolicies = (scope?: PolicyScope): KubeObject[] =>
  validatingPolicyObjects(STATEFULSET_POLICY, scope);
