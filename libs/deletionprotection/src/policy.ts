/**
 * The rules of deletion protection that need no lookup, as ValidatingAdmissionPolicies (CEL, admissionregistration.k8s.io/v1)
 * the API server evaluates itself: they hold while every Regatta program is down (docs/adr/0079). `Always` on every
 * protected kind; `Cascading` on the workloads whose children are counted by `spec.replicas` (upstream's
 * `ValidateWorkloadDeletion` reads nothing else). The chart installs them (deploy/policies, rendered from here and
 * checked by policy.test.ts) and so does the sandbox, with gate `ResourcesDeletionProtection` on.
 */
import type { KubeObject } from '@regatta/kube';
import { DELETION_PROTECTION_KEY, FORBIDDEN, PROTECTION_ALWAYS, PROTECTION_CASCADING } from './decisions.js';

export const ALWAYS_POLICY_NAME = 'regatta-deletion-protection-always';
export const REPLICAS_POLICY_NAME = 'regatta-deletion-protection-replicas';

interface ResourceRule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
}

/** Workloads whose `Cascading` counts `spec.replicas`: upstream's built-in, CloneSet, Advanced StatefulSet, UnitedDeployment handlers. */
export const REPLICAS_WORKLOADS: readonly ResourceRule[] = [
  { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'replicasets', 'statefulsets'] },
  {
    apiGroups: ['apps.kruise.io'],
    apiVersions: ['*'],
    resources: ['clonesets', 'statefulsets', 'uniteddeployments'],
  },
];

/**
 * Every kind `Always` protects: upstream's (Namespace, Service, Ingress, CustomResourceDefinition and the workloads
 * above) and Regatta's additions, Advanced DaemonSet and BroadcastJob (their `Cascading` is the webhook's).
 */
export const ALWAYS_PROTECTED: readonly ResourceRule[] = [
  { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces', 'services'] },
  { apiGroups: ['networking.k8s.io'], apiVersions: ['*'], resources: ['ingresses'] },
  { apiGroups: ['apiextensions.k8s.io'], apiVersions: ['*'], resources: ['customresourcedefinitions'] },
  REPLICAS_WORKLOADS[0]!,
  {
    apiGroups: ['apps.kruise.io'],
    apiVersions: ['*'],
    resources: ['clonesets', 'statefulsets', 'uniteddeployments', 'daemonsets', 'broadcastjobs'],
  },
];

const LABEL = `'${DELETION_PROTECTION_KEY}'`;
const REFUSED_BY = ` (refused by the Regatta ValidatingAdmissionPolicy; remove the label ${DELETION_PROTECTION_KEY} first)`;
const VALUE = `has(oldObject.metadata.labels) && ${LABEL} in oldObject.metadata.labels ? oldObject.metadata.labels[${LABEL}] : ''`;

function policy(
  name: string,
  rules: readonly ResourceRule[],
  values: readonly string[],
  validation: { expression: string; messageExpression: string },
): KubeObject[] {
  const selector = {
    matchExpressions: [{ key: DELETION_PROTECTION_KEY, operator: 'In', values: [...values] }],
  };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          // only labelled objects are ever evaluated; the rest is deleted as if the policy did not exist
          objectSelector: selector,
          resourceRules: rules.map((r) => ({ ...r, operations: ['DELETE'], scope: '*' })),
        },
        variables: [
          { name: 'protection', expression: VALUE },
          { name: 'deleting', expression: 'has(oldObject.metadata.deletionTimestamp)' },
        ],
        validations: [{ ...validation, reason: 'Forbidden' }],
      },
    } as KubeObject,
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: name, validationActions: ['Deny'] },
    } as KubeObject,
  ];
}

/** The two policies and their bindings, in the order to apply them. */
export function deletionProtectionPolicies(): KubeObject[] {
  return [
    ...policy(ALWAYS_POLICY_NAME, ALWAYS_PROTECTED, [PROTECTION_ALWAYS], {
      expression: `variables.deleting || variables.protection != '${PROTECTION_ALWAYS}'`,
      messageExpression: `'${FORBIDDEN} for ${DELETION_PROTECTION_KEY}=${PROTECTION_ALWAYS}${REFUSED_BY}'`,
    }),
    ...policy(REPLICAS_POLICY_NAME, REPLICAS_WORKLOADS, [PROTECTION_CASCADING], {
      expression:
        `variables.deleting || variables.protection != '${PROTECTION_CASCADING}' || ` +
        '!has(oldObject.spec.replicas) || oldObject.spec.replicas <= 0',
      messageExpression:
        `'${FORBIDDEN} for ${DELETION_PROTECTION_KEY}=${PROTECTION_CASCADING} and replicas ' + ` +
        `string(oldObject.spec.replicas) + '>0${REFUSED_BY}'`,
    }),
  ];
}
