/**
 * The JSON types of every Advanced StatefulSet field the validators, the defaults and the controller read
 * (`apis/apps/v1beta1/statefulset_types.go`). {@link statefulSetShapeErrors} runs before any rule, so a wrongly
 * typed field is reported with its path instead of being read.
 */
import { type FieldError, fieldPath } from '@regatta/kube';
import { PRIORITY_STRATEGY_SHAPE } from '../cloneset/shape.js';
import { LABEL_SELECTOR_SHAPE, POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import { type Shape, shapeErrors, shapes as s, typeError } from '../core/shape.js';

const stringMap = s.map(s.string);
const lifecycleHook = s.object({ labelsHandler: stringMap, finalizersHandler: s.array(s.string), markPodNotReady: s.bool });
/** A resource list: quantities are strings or numbers (decimals allowed), checked where they are read. */
const quantityMap = s.map(s.any);

export const STATEFULSET_SPEC_SHAPE: Shape = s.object({
  replicas: s.int,
  selector: LABEL_SELECTOR_SHAPE,
  template: POD_TEMPLATE_SHAPE,
  volumeClaimTemplates: s.array(
    s.object({
      metadata: s.object({ name: s.string, labels: stringMap, annotations: stringMap }),
      spec: s.object({
        accessModes: s.array(s.string),
        storageClassName: s.string,
        volumeMode: s.string,
        resources: s.object({ requests: quantityMap, limits: quantityMap }),
      }),
      status: s.object({ phase: s.string }),
    }),
  ),
  volumeClaimUpdateStrategy: s.object({ type: s.string }),
  serviceName: s.string,
  podManagementPolicy: s.string,
  updateStrategy: s.object({
    type: s.string,
    rollingUpdate: s.object({
      partition: s.int,
      maxUnavailable: s.intOrString,
      podUpdatePolicy: s.string,
      paused: s.bool,
      unorderedUpdate: s.object({ priorityStrategy: PRIORITY_STRATEGY_SHAPE }),
      inPlaceUpdateStrategy: s.object({ gracePeriodSeconds: s.int }),
      minReadySeconds: s.int,
    }),
  }),
  revisionHistoryLimit: s.int,
  reserveOrdinals: s.array(s.intOrString),
  lifecycle: s.object({ preDelete: lifecycleHook, inPlaceUpdate: lifecycleHook, preNormal: lifecycleHook }),
  scaleStrategy: s.object({ maxUnavailable: s.intOrString }),
  persistentVolumeClaimRetentionPolicy: s.object({ whenDeleted: s.string, whenScaled: s.string }),
  ordinals: s.object({ start: s.int }),
});

export const STATEFULSET_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({
    name: s.string,
    generateName: s.string,
    namespace: s.string,
    uid: s.string,
    generation: s.int,
    labels: stringMap,
    annotations: stringMap,
    finalizers: s.array(s.string),
  }),
  spec: STATEFULSET_SPEC_SHAPE,
});

/** Type errors of a whole StatefulSet (the object itself must be a JSON object). */
export function statefulSetShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, STATEFULSET_SHAPE, fieldPath());
}
