/**
 * The JSON types of every CloneSet field the validators, the defaults and the controller read
 * (`apis/apps/v1alpha1/cloneset_types.go`). {@link cloneSetShapeErrors} runs before any rule, so a wrongly typed
 * field is reported with its path instead of being read.
 */
import { type FieldError, fieldPath } from '@regatta/kube';
import { LABEL_SELECTOR_SHAPE, POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import { type Shape, shapeErrors, shapes as s, typeError } from '../core/shape.js';

const stringMap = s.map(s.string);
const lifecycleHook = s.object({ labelsHandler: stringMap, finalizersHandler: s.array(s.string), markPodNotReady: s.bool });

export const PRIORITY_STRATEGY_SHAPE: Shape = s.object({
  weightPriority: s.array(s.object({ weight: s.int, matchSelector: LABEL_SELECTOR_SHAPE })),
  orderPriority: s.array(s.object({ orderedKey: s.string })),
});
export const SCATTER_STRATEGY_SHAPE: Shape = s.array(s.object({ key: s.string, value: s.string }));

export const CLONESET_SPEC_SHAPE: Shape = s.object({
  replicas: s.int,
  selector: LABEL_SELECTOR_SHAPE,
  template: POD_TEMPLATE_SHAPE,
  volumeClaimTemplates: s.array(
    s.object({ metadata: s.object({ name: s.string, labels: stringMap }), spec: s.object(), status: s.object({ phase: s.string }) }),
  ),
  scaleStrategy: s.object({ podsToDelete: s.array(s.string), maxUnavailable: s.intOrString, disablePVCReuse: s.bool }),
  updateStrategy: s.object({
    type: s.string,
    partition: s.intOrString,
    maxUnavailable: s.intOrString,
    maxSurge: s.intOrString,
    paused: s.bool,
    priorityStrategy: PRIORITY_STRATEGY_SHAPE,
    scatterStrategy: SCATTER_STRATEGY_SHAPE,
    inPlaceUpdateStrategy: s.object({ gracePeriodSeconds: s.int }),
  }),
  revisionHistoryLimit: s.int,
  minReadySeconds: s.int,
  lifecycle: s.object({ preDelete: lifecycleHook, inPlaceUpdate: lifecycleHook, preNormal: lifecycleHook }),
  progressDeadlineSeconds: s.int,
});

export const CLONESET_SHAPE: Shape = s.object({
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
  spec: CLONESET_SPEC_SHAPE,
});

/** Type errors of a whole CloneSet (the object itself must be a JSON object). */
export function cloneSetShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, CLONESET_SHAPE, fieldPath());
}
