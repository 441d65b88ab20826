/**
 * CloneSet's validation rules CEL can express (libs/api `validateCloneSet` / `validateCloneSetUpdate`, OpenKruise
 * `pkg/webhook/cloneset/validating/validation.go`), as a ValidatingAdmissionPolicy shipped with the CRD
 * (deploy/policies/crd-validation; docs/adr/0088-admission-policies.md). The webhook keeps them too, and alone
 * checks `podsToDelete` (pod look-ups, duplicates), the selector's syntax, the pod template's contents, the
 * priority strategy's selectors and the `InPlaceOnly` template diff.
 */
import {
  CLONESET_NAME_MAX_LENGTH,
  CLONESET_RESERVED_TEMPLATE_LABELS,
  CLONESET_UPDATE_STRATEGY_TYPES,
  DEFAULT_CLONESET_MAX_UNAVAILABLE,
} from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  type KindPolicy,
  type PolicyScope,
  WORKLOAD_VARIABLES,
  celBadValue,
  celIntOrPercentError,
  celOneOf,
  celOr,
  celString,
  intOrPercentVariables,
  validatingPolicyObjects,
  workloadRules,
} from '@regatta/workload';

const US = ['spec', 'updateStrategy'] as const;
const MAX_INT32 = 2147483647;

const intOrPercentRule = (name: string) => ({
  field: `spec.updateStrategy.${name}`,
  expression: `variables.${name}Ok`,
  messageExpression:
    `'spec.updateStrategy.${name}: Invalid value: "' + string(variables.${name}) + '": failed GetScaledValueFromIntOrPercent for ${name}: ' + ` +
    celIntOrPercentError(`variables.${name}`),
});

const PRIORITY = 'spec.updateStrategy.priorityStrategy: Required value: ';
const weights = celOr('object', [...US, 'priorityStrategy', 'weightPriority'], '[]');
const orders = celOr('object', [...US, 'priorityStrategy', 'orderPriority'], '[]');
const scatter = celOr('object', [...US, 'scatterStrategy'], '[]');

export const CLONESET_POLICY: KindPolicy = {
  name: 'cloneset',
  group: 'apps.kruise.io',
  resource: 'clonesets',
  version: 'v1alpha1',
  variables: [
    ...WORKLOAD_VARIABLES,
    { name: 'replicas', expression: celOr('object', ['spec', 'replicas'], '1') },
    { name: 'updateType', expression: celOr('object', [...US, 'type'], "''") },
    ...intOrPercentVariables('partition', 'object', [...US, 'partition'], '0', 'variables.replicas'),
    ...intOrPercentVariables(
      'maxUnavailable',
      'object',
      [...US, 'maxUnavailable'],
      celString(DEFAULT_CLONESET_MAX_UNAVAILABLE),
      'variables.replicas',
    ),
    ...intOrPercentVariables('maxSurge', 'object', [...US, 'maxSurge'], '0', 'variables.replicas'),
  ],
  rules: [
    ...workloadRules({
      kind: 'CloneSet',
      kindWord: 'cloneset',
      deadlineWord: 'cloneset',
      replicas: true,
      nameMaxLength: CLONESET_NAME_MAX_LENGTH,
      reservedTemplateLabels: CLONESET_RESERVED_TEMPLATE_LABELS,
      immutableSelector:
        "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', " +
        "'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden",
    }),
    {
      field: 'spec.updateStrategy.type',
      expression: celOneOf('variables.updateType', CLONESET_UPDATE_STRATEGY_TYPES),
      messageExpression:
        `'spec.updateStrategy.type: Invalid value: "' + variables.updateType + '": must be ' + ` +
        `"'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"`,
    },
    intOrPercentRule('partition'),
    {
      field: 'spec.updateStrategy.partition',
      expression: 'variables.partitionValue >= 0',
      messageExpression:
        "'spec.updateStrategy.partition: Invalid value: ' + string(variables.partitionValue) + ': must be greater than or equal to 0'",
    },
    intOrPercentRule('maxUnavailable'),
    intOrPercentRule('maxSurge'),
    {
      field: 'spec.updateStrategy.maxSurge',
      expression: "variables.updateType != 'InPlaceOnly' || variables.maxSurgeValue <= 0",
      messageExpression:
        `'spec.updateStrategy.maxSurge: Invalid value: "' + string(variables.maxSurge) + '": can not use maxSurge with strategy type InPlaceOnly'`,
    },
    {
      field: 'spec.updateStrategy.maxUnavailable',
      expression: 'variables.replicas <= 0 || variables.maxUnavailableValue >= 1 || variables.maxSurgeValue >= 1',
      messageExpression:
        `'spec.updateStrategy.maxUnavailable: Invalid value: ' + ${celBadValue('variables.maxUnavailable')} + ` +
        "': maxUnavailable and maxSurge should not both be less than 1'",
    },
    {
      field: 'spec.updateStrategy.priorityStrategy',
      expression: `size(${weights}) == 0 || size(${orders}) == 0`,
      messageExpression: celString(`${PRIORITY}only one of weightPriority and orderPriority can be used`),
    },
    {
      field: 'spec.updateStrategy.priorityStrategy',
      expression: `${weights}.all(w, w.weight >= 0 && w.weight <= 100)`,
      messageExpression: celString(`${PRIORITY}weight must be valid number in the range 1-100`),
    },
    {
      field: 'spec.updateStrategy.priorityStrategy',
      expression: `${orders}.all(o, has(o.orderedKey) && o.orderedKey != '')`,
      messageExpression: celString(`${PRIORITY}order key can not be empty`),
    },
    {
      field: 'spec.updateStrategy.scatterStrategy',
      expression: `${scatter}.all(t, has(t.key) && t.key != '')`,
      messageExpression: celString('spec.updateStrategy.scatterStrategy: Required value: key should not be empty'),
    },
    {
      field: 'spec.progressDeadlineSeconds',
      expression: '!has(object.spec.progressDeadlineSeconds) || object.spec.progressDeadlineSeconds >= 0',
      messageExpression:
        "'spec.progressDeadlineSeconds: Invalid value: ' + string(object.spec.progressDeadlineSeconds) + ': must be greater than or equal to 0'",
    },
    {
      field: 'spec.progressDeadlineSeconds',
      expression:
        `!has(object.spec.progressDeadlineSeconds) || object.spec.progressDeadlineSeconds == ${MAX_INT32} || ` +
        `object.spec.progressDeadlineSeconds > ${celOr('object', ['spec', 'minReadySeconds'], '0')}`,
      messageExpression:
        "'spec.progressDeadlineSeconds: Invalid value: ' + string(object.spec.progressDeadlineSeconds) + ': must be greater than minReadySeconds'",
    },
  ],
};

/** The CloneSet's ValidatingAdmissionPolicy and binding. */
export const cloneSetAdmissionPolicies = (scope?: PolicyScope): KubeObject[] =>
  validatingPolicyObjects(CLONESET_POLICY, scope);
