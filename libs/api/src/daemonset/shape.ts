/**
 * The JSON types of every DaemonSet field the validators, the defaults and the controller read
 * (`apis/apps/v1beta1/daemonset_types.go`; v1alpha1 has the same fields but `scaleStrategy`).
 * {@link daemonSetShapeErrors} runs before any rule, so a wrongly typed field is reported with its path instead of
 * being read.
 */
import { type FieldError, fieldPath } from '@regatta/kube';
import { LABEL_SELECTOR_SHAPE, POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import { type Shape, shapeErrors, shapes as s, typeError } from '../core/shape.js';

const stringMap = s.map(s.string);
const lifecycleHook = s.object({ labelsHandler: stringMap, finalizersHandler: s.array(s.string), markPodNotReady: s.bool });

export const DAEMONSET_SPEC_SHAPE: Shape = s.object({
  selector: LABEL_SELECTOR_SHAPE,
  template: POD_TEMPLATE_SHAPE,
  updateStrategy: s.object({
    type: s.string,
    rollingUpdate: s.object({
      rollingUpdateType: s.string,
      maxUnavailable: s.intOrString,
      maxSurge: s.intOrString,
      selector: LABEL_SELECTOR_SHAPE,
      partition: s.intOrString,
      paused: s.bool,
    }),
  }),
  minReadySeconds: s.int,
  burstReplicas: s.intOrString,
  revisionHistoryLimit: s.int,
  lifecycle: s.object({ preDelete: lifecycleHook, inPlaceUpdate: lifecycleHook, preNormal: lifecycleHook }),
  scaleStrategy: s.object({ partitionedScaling: s.bool }),
});

export const DAEMONSET_SHAPE: Shape = s.object({
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
  spec: DAEMONSET_SPEC_SHAPE,
});

/** Type errors of a whole DaemonSet (the object itself must be a JSON object). */
export function daemonSetShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, DAEMONSET_SHAPE, fieldPath());
}
