/**
 * Advanced DaemonSet's validation rules CEL can express (libs/api `validateDaemonSet` / `validateDaemonSetUpdate`,
 * OpenKruise `pkg/webhook/daemonset/validating/daemonset_validation.go`), as a ValidatingAdmissionPolicy shipped
 * with the CRD (docs/adr/0088-admission-policies.md). Rules read apps.kruise.io/v1beta1 (a v1alpha1 request is
 * converted to it; v1alpha1's `Surging` rolling-update type is left to the webhook). The webhook keeps them too, and
 * alone checks the selectors' syntax, the pod template's contents and `burstReplicas`.
 */
import { DAEMONSET_ROLLING_UPDATE_TYPES, DAEMONSET_UPDATE_STRATEGY_TYPES } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  type KindPolicy,
  type PolicyRule,
  type PolicyScope,
  ROLLING_UPDATE as RU,
  ROLLING_UPDATE_PATH as RU_PATH,
  WORKLOAD_VARIABLES,
  celBadValue,
  celHas,
  celOneOf,
  celOr,
  celString,
  supportedValues as supported,
  validatingPolicyObjects,
  workloadRules,
} from '@regatta/workload';

const PCT = '^[0-9]+%$';
const pctNumber = (v: string): string => `int(string(${v}).substring(0, size(string(${v})) - 1))`;
/** Not zero (`0` or `0%`, `00%`). */
const nonZero = (v: string): string => `(type(${v}) == int ? ${v} != 0 : !(string(${v}).matches('${PCT}') && ${pctNumber(v)} == 0))`;

/** `validatePositiveIntOrPercent` + `IsNotMoreThan100Percent` for a set value. */
function intOrPercentUpTo100(v: string, path: string, when: string): PolicyRule[] {
  return [
    {
      field: path,
      expression: `!(${when}) || (type(${v}) == int ? ${v} >= 0 : string(${v}).matches('${PCT}'))`,
      messageExpression:
        `'${path}: Invalid value: ' + ${celBadValue(v)} + ': ' + ` +
        `(type(${v}) == int ? 'must be greater than or equal to 0' : "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")`,
    },
    {
      field: path,
      expression: `!(${when}) || type(${v}) == int || !string(${v}).matches('${PCT}') || ${pctNumber(v)} <= 100`,
      messageExpression: `'${path}: Invalid value: ' + ${celBadValue(v)} + ': must not be greater than 100%'`,
    },
  ];
}

export const DAEMONSET_POLICY: KindPolicy = {
  name: 'daemonset',
  group: 'apps.kruise.io',
  resource: 'daemonsets',
  version: 'v1beta1',
  variables: [
    ...WORKLOAD_VARIABLES,
    { name: 'updateType', expression: celOr('object', ['spec', 'updateStrategy', 'type'], "''") },
    { name: 'rolling', expression: "variables.updateType in ['', 'RollingUpdate']" },
    // defaulting: neither given means maxUnavailable 1, maxSurge 0
    {
      name: 'maxUnavailable',
      expression: celOr('object', [...RU, 'maxUnavailable'], `(${celHas('object', [...RU, 'maxSurge'])} ? 0 : 1)`),
    },
    { name: 'maxSurge', expression: celOr('object', [...RU, 'maxSurge'], '0') },
    { name: 'hasUnavailable', expression: nonZero('variables.maxUnavailable') },
    { name: 'hasSurge', expression: nonZero('variables.maxSurge') },
    { name: 'partition', expression: celOr('object', [...RU, 'partition'], '0') },
    { name: 'rollingUpdateType', expression: celOr('object', [...RU, 'rollingUpdateType'], "''") },
  ],
  rules: [
    ...workloadRules({
      kind: 'DaemonSet',
      kindWord: 'daemonset',
      deadlineWord: 'DaemonSet',
      replicas: false,
      reservedTemplateLabels: [],
      immutableSelector:
        "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', 'scaleStrategy', " +
        "'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden",
    }),
    {
      field: 'spec.minReadySeconds',
      expression: `${celOr('object', ['spec', 'minReadySeconds'], '0')} >= 0`,
      messageExpression: "'spec.minReadySeconds: Invalid value: ' + string(object.spec.minReadySeconds) + ': must be greater than or equal to 0'",
    },
    {
      field: 'spec.revisionHistoryLimit',
      expression: `${celOr('object', ['spec', 'revisionHistoryLimit'], '0')} >= 0`,
      messageExpression: "'spec.revisionHistoryLimit: Invalid value: ' + string(object.spec.revisionHistoryLimit) + ': must be greater than or equal to 0'",
    },
    {
      field: 'spec.lifecycle.inPlaceUpdate',
      expression: '!has(object.spec.lifecycle) || !has(object.spec.lifecycle.inPlaceUpdate)',
      messageExpression: celString('spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet'),
    },
    {
      field: 'spec.updateStrategy.type',
      expression: celOneOf('variables.updateType', DAEMONSET_UPDATE_STRATEGY_TYPES),
      messageExpression: `'spec.updateStrategy.type: Unsupported value: "' + variables.updateType + '": supported values: ${supported(DAEMONSET_UPDATE_STRATEGY_TYPES)}'`,
    },
    ...intOrPercentUpTo100('variables.maxUnavailable', `${RU_PATH}.maxUnavailable`, 'variables.rolling && variables.hasUnavailable'),
    ...intOrPercentUpTo100('variables.maxSurge', `${RU_PATH}.maxSurge`, 'variables.rolling && variables.hasSurge'),
    {
      field: `${RU_PATH}.maxSurge`,
      expression: '!variables.rolling || !(variables.hasUnavailable && variables.hasSurge)',
      messageExpression: `'${RU_PATH}.maxSurge: Invalid value: ' + ${celBadValue('variables.maxSurge')} + ': may not be set when maxUnavailable is non-zero'`,
    },
    {
      field: `${RU_PATH}.maxUnavailable`,
      expression: '!variables.rolling || variables.hasUnavailable || variables.hasSurge',
      messageExpression: celString(`${RU_PATH}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`),
    },
    {
      field: `${RU_PATH}.rollingUpdateType`,
      expression: `!variables.rolling || ${celOneOf('variables.rollingUpdateType', DAEMONSET_ROLLING_UPDATE_TYPES)}`,
      messageExpression: `'${RU_PATH}.rollingUpdateType: Unsupported value: "' + variables.rollingUpdateType + '": supported values: ${supported(DAEMONSET_ROLLING_UPDATE_TYPES)}'`,
    },
    {
      field: `${RU_PATH}.maxSurge`,
      expression: "!variables.rolling || variables.rollingUpdateType != 'InPlaceIfPossible' || !variables.hasSurge",
      messageExpression: celString(`${RU_PATH}.maxSurge: Required value: must be 0 for InPlaceIfPossible type`),
    },
    ...intOrPercentUpTo100('variables.partition', `${RU_PATH}.partition`, 'variables.rolling'),
  ],
};

/** The Advanced DaemonSet's ValidatingAdmissionPolicy and binding. */
export const daemonSetAdmissionPolicies = (scope?: PolicyScope): KubeObject[] =>
  validatingPolicyObjects(DAEMONSET_POLICY, scope);
