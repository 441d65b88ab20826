/**
 * The JSON types of every UnitedDeployment field the webhooks and the controller read
 * (`apis/apps/v1beta1/uniteddeployment_types.go`; v1alpha1 has the same spec). {@link unitedDeploymentShapeErrors}
 * runs before any rule, so a wrongly typed field is reported with its path instead of being read. The StatefulSet and
 * Deployment template specs are schemaless upstream; only the members Regatta reads are typed here.
 */
import { type FieldError, fieldPath } from '@regatta/kube';
import { CLONESET_SPEC_SHAPE } from '../cloneset/shape.js';
import { LABEL_SELECTOR_SHAPE, POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import { type Shape, shapeErrors, shapes as s, typeError } from '../core/shape.js';
import { STATEFULSET_SPEC_SHAPE } from '../statefulset/shape.js';

const stringMap = s.map(s.string);
const templateMeta = s.object({ labels: stringMap, annotations: stringMap });
const nodeSelectorRequirement = s.object({ key: s.string, operator: s.string, values: s.array(s.string) });

const NATIVE_SPEC_SHAPE: Shape = s.object({
  replicas: s.int,
  selector: LABEL_SELECTOR_SHAPE,
  template: POD_TEMPLATE_SHAPE,
  podManagementPolicy: s.string,
  minReadySeconds: s.int,
  revisionHistoryLimit: s.int,
  updateStrategy: s.object({
    type: s.string,
    rollingUpdate: s.object({ partition: s.int, maxUnavailable: s.intOrString }),
  }),
  strategy: s.object({
    type: s.string,
    rollingUpdate: s.object({ maxUnavailable: s.intOrString, maxSurge: s.intOrString }),
  }),
});

export const UNITED_DEPLOYMENT_SPEC_SHAPE: Shape = s.object({
  replicas: s.int,
  selector: LABEL_SELECTOR_SHAPE,
  template: s.object({
    statefulSetTemplate: s.object({ metadata: templateMeta, spec: NATIVE_SPEC_SHAPE }),
    advancedStatefulSetTemplate: s.object({ metadata: templateMeta, spec: STATEFULSET_SPEC_SHAPE }),
    cloneSetTemplate: s.object({ metadata: templateMeta, spec: CLONESET_SPEC_SHAPE }),
    deploymentTemplate: s.object({ metadata: templateMeta, spec: NATIVE_SPEC_SHAPE }),
  }),
  topology: s.object({
    subsets: s.array(
      s.object({
        name: s.string,
        nodeSelectorTerm: s.object({
          matchExpressions: s.array(nodeSelectorRequirement),
          matchFields: s.array(nodeSelectorRequirement),
        }),
        nodeSelector: stringMap,
        tolerations: s.array(
          s.object({
            key: s.string,
            operator: s.string,
            value: s.string,
            effect: s.string,
            tolerationSeconds: s.int,
          }),
        ),
        replicas: s.intOrString,
        minReplicas: s.intOrString,
        maxReplicas: s.intOrString,
        patch: s.object(),
      }),
    ),
    scheduleStrategy: s.object({
      type: s.string,
      adaptive: s.object({
        rescheduleCriticalSeconds: s.int,
        unschedulableDuration: s.int,
        reserveUnschedulablePods: s.bool,
      }),
    }),
  }),
  updateStrategy: s.object({ type: s.string, manualUpdate: s.object({ partitions: s.map(s.int) }) }),
  revisionHistoryLimit: s.int,
});

export const UNITED_DEPLOYMENT_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({
    name: s.string,
    generateName: s.string,
    namespace: s.string,
    labels: stringMap,
    annotations: stringMap,
  }),
  spec: UNITED_DEPLOYMENT_SPEC_SHAPE,
});

/** Type errors of a whole UnitedDeployment (the object itself must be a JSON object). */
export function unitedDeploymentShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, UNITED_DEPLOYMENT_SHAPE, fieldPath());
}
