/**
 * SidecarSet's validation rules CEL can express (libs/api `validateSidecarSet`, OpenKruise
 * `pkg/webhook/sidecarset/validating/sidecarset_validation.go`), as a ValidatingAdmissionPolicy shipped with the CRD
 * (docs/adr/0088-admission-policies.md). The webhook keeps them too, and alone checks what needs look-ups or code:
 * the injection revision's ControllerRevision, the patchPodMetadata whitelist, selector overlap with other
 * SidecarSets, the containers and volumes as a pod (apimachinery's pod validation), resourcesPolicy expressions, the
 * selectors' syntax, transferEnv field paths and the update rules (immutable container upgrade types, annotations).
 */
import {
  POD_INJECT_POLICIES,
  SHARE_VOLUME_POLICY_TYPES,
  SIDECAR_UPGRADE_TYPES,
  SIDECARSET_NAME_MAX_LENGTH,
  SIDECARSET_UPDATE_STRATEGY_TYPES,
} from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  type KindPolicy,
  type PolicyRule,
  type PolicyScope,
  celHas,
  celOr,
  celOneOf,
  celString,
  supportedValues,
  validatingPolicyObjects,
} from '@regatta/workload';

const list = (values: readonly string[]): string => `[${values.map(celString).join(', ')}]`;

/** A rule over each item of `spec.<field>`: the message names the first bad item's index. */
function eachContainer(field: 'containers' | 'initContainers', bad: string, message: (c: string, path: string) => string): PolicyRule {
  const items = `variables.${field}`;
  const first = `${items}.filter(c, ${bad})[0]`;
  const path = `'spec.${field}[' + string(${items}.indexOf(${first})) + ']`;
  return {
    field: `spec.${field}`,
    expression: `!${items}.exists(c, ${bad})`,
    messageExpression: message(first, path),
  };
}

export const SIDECARSET_POLICY: KindPolicy = {
  name: 'sidecarset',
  group: 'apps.kruise.io',
  resource: 'sidecarsets',
  version: 'v1beta1',
  variables: [
    { name: 'containers', expression: celOr('object', ['spec', 'containers'], '[]') },
    { name: 'initContainers', expression: celOr('object', ['spec', 'initContainers'], '[]') },
    { name: 'updateType', expression: celOr('object', ['spec', 'updateStrategy', 'type'], "'RollingUpdate'") },
    {
      name: 'selectorTerms',
      expression:
        `size(${celOr('object', ['spec', 'selector', 'matchLabels'], '{}')}) + ` +
        `size(${celOr('object', ['spec', 'selector', 'matchExpressions'], '[]')})`,
    },
  ],
  rules: [
    {
      field: 'metadata.name',
      expression: "object.metadata.name.matches('^[a-zA-Z0-9-]+$')",
      messageExpression:
        `'metadata.name: Invalid value: "' + object.metadata.name + '": ' + ` +
        `"sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\\\-]+$')"`,
    },
    {
      field: 'metadata.name',
      expression: `size(object.metadata.name) <= ${SIDECARSET_NAME_MAX_LENGTH}`,
      messageExpression: `'metadata.name: Invalid value: "' + object.metadata.name + '": must be no more than ${SIDECARSET_NAME_MAX_LENGTH} characters'`,
    },
    {
      field: 'spec.selector',
      expression: 'has(object.spec.selector)',
      messageExpression: celString('spec.selector: Required value: no selector defined for SidecarSet'),
    },
    {
      field: 'spec.selector',
      expression: '!has(object.spec.selector) || variables.selectorTerms > 0',
      messageExpression: celString('spec.selector: Invalid value: {}: empty selector is not valid for sidecarset.'),
    },
    {
      field: 'spec.namespaceSelector',
      expression:
        '!has(object.spec.namespaceSelector) || ' +
        `size(${celOr('object', ['spec', 'namespaceSelector', 'matchLabels'], '{}')}) + size(${celOr('object', ['spec', 'namespaceSelector', 'matchExpressions'], '[]')}) > 0`,
      messageExpression: celString('spec.namespaceSelector: Invalid value: {}: empty selector is not valid for sidecarset.'),
    },
    {
      field: 'spec',
      expression: 'size(variables.containers) + size(variables.initContainers) > 0',
      messageExpression: celString('spec: Required value: no initContainer or container defined for SidecarSet'),
    },
    {
      field: 'spec.updateStrategy.type',
      expression: celOneOf('variables.updateType', SIDECARSET_UPDATE_STRATEGY_TYPES),
      messageExpression: `'spec.updateStrategy.type: Unsupported value: "' + variables.updateType + '": supported values: ${supportedValues(SIDECARSET_UPDATE_STRATEGY_TYPES)}'`,
    },
    {
      field: 'spec.updateStrategy',
      expression:
        `variables.updateType != 'RollingUpdate' || !(${celHas('object', ['spec', 'updateStrategy', 'selector'])}) || !has(object.spec.updateStrategy.partition) || ` +
        "(type(object.spec.updateStrategy.partition) == int && object.spec.updateStrategy.partition == 0)",
      messageExpression: celString('spec.updateStrategy: Invalid value: {}: Partition and Selector cannot be used together'),
    },
    // no rule against RollingUpdate with native sidecars: Regatta upgrades them in place (docs/adr/0090)
    eachContainer(
      'containers',
      `has(c.podInjectPolicy) && !(c.podInjectPolicy in ${list(POD_INJECT_POLICIES)})`,
      (c, path) => `${path}.podInjectPolicy: Invalid value: "' + ${c}.podInjectPolicy + '": unsupported pod inject policy'`,
    ),
    eachContainer(
      'containers',
      `has(c.shareVolumePolicy) && has(c.shareVolumePolicy.type) && !(c.shareVolumePolicy.type in ${list(SHARE_VOLUME_POLICY_TYPES)})`,
      (_c, path) => `${path}.shareVolumePolicy: Invalid value: {}: unsupported share volume policy'`,
    ),
    ...(['containers', 'initContainers'] as const).flatMap((field) => [
      eachContainer(
        field,
        `has(c.upgradeStrategy) && has(c.upgradeStrategy.upgradeType) && !(c.upgradeStrategy.upgradeType in ['', ${SIDECAR_UPGRADE_TYPES.map(celString).join(', ')}])`,
        (c, path) =>
          `${path}.upgradeStrategy.upgradeType: Unsupported value: "' + ${c}.upgradeStrategy.upgradeType + '": supported values: ${supportedValues(SIDECAR_UPGRADE_TYPES)}'`,
      ),
      eachContainer(
        field,
        "has(c.upgradeStrategy) && has(c.upgradeStrategy.upgradeType) && c.upgradeStrategy.upgradeType == 'HotUpgrade' && " +
          "(!has(c.upgradeStrategy.hotUpgradeEmptyImage) || c.upgradeStrategy.hotUpgradeEmptyImage == '')",
        (_c, path) => `${path}.upgradeStrategy.hotUpgradeEmptyImage: Required value: HotUpgrade needs the image of the idle twin container'`,
      ),
    ]),
  ],
};

/** The SidecarSet's ValidatingAdmissionPolicy and binding. */
export const sidecarSetAdmissionPolicies = (scope?: PolicyScope): KubeObject[] =>
  validatingPolicyObjects(SIDECARSET_POLICY, scope);
