/**
 * The JSON types of every SidecarSet field the validators, the defaults, the hash and the controller read
 * (`apis/apps/v1beta1/sidecarset_types.go`; v1alpha1 adds `namespace`, drops `customVersion`). The core/v1 container
 * and volume fields are checked by the pod-spec subset (`core/pod-template-validation.ts`) on the sidecars.
 * {@link sidecarSetShapeErrors} runs before any rule, so a wrongly typed field is reported with its path.
 */
import { type FieldError, fieldPath } from '@regatta/kube';
import { LABEL_SELECTOR_SHAPE } from '../core/pod-template-shape.js';
import { type Shape, shapeErrors, shapes as s, typeError } from '../core/shape.js';

const stringMap = s.map(s.string);
const sharePolicy = s.object({ type: s.string });
const resourceExpr = s.object({ cpu: s.string, memory: s.string });

const SIDECAR_CONTAINER_SHAPE: Shape = s.object({
  name: s.string,
  image: s.string,
  restartPolicy: s.string,
  resources: s.object({ limits: s.map(s.any), requests: s.map(s.any) }),
  podInjectPolicy: s.string,
  upgradeStrategy: s.object({ upgradeType: s.string, hotUpgradeEmptyImage: s.string }),
  shareVolumePolicy: sharePolicy,
  shareVolumeDevicePolicy: sharePolicy,
  transferEnv: s.array(
    s.object({
      sourceContainerName: s.string,
      sourceContainerNameFrom: s.object({ fieldRef: s.object({ apiVersion: s.string, fieldPath: s.string }) }),
      envName: s.string,
      envNames: s.array(s.string),
    }),
  ),
  resourcesPolicy: s.object({
    targetContainersMode: s.string,
    targetContainersNameRegex: s.string,
    resourcesExpr: s.object({ limits: resourceExpr, requests: resourceExpr }),
  }),
});

const VOLUMES_SHAPE: Shape = s.array(s.object({ name: s.string }));

export const SIDECARSET_SPEC_SHAPE: Shape = s.object({
  selector: LABEL_SELECTOR_SHAPE,
  namespace: s.string,
  namespaceSelector: LABEL_SELECTOR_SHAPE,
  initContainers: s.array(SIDECAR_CONTAINER_SHAPE),
  containers: s.array(SIDECAR_CONTAINER_SHAPE),
  volumes: VOLUMES_SHAPE,
  volumeTemplates: VOLUMES_SHAPE,
  updateStrategy: s.object({
    type: s.string,
    paused: s.bool,
    selector: LABEL_SELECTOR_SHAPE,
    partition: s.intOrString,
    maxUnavailable: s.intOrString,
    priorityStrategy: s.object({
      weightPriority: s.array(s.object({ weight: s.int, matchSelector: LABEL_SELECTOR_SHAPE })),
      orderPriority: s.array(s.object({ orderedKey: s.string })),
    }),
    scatterStrategy: s.array(s.object({ key: s.string, value: s.string })),
  }),
  injectionStrategy: s.object({
    paused: s.bool,
    revision: s.object({ customVersion: s.string, revisionName: s.string, policy: s.string }),
  }),
  imagePullSecrets: s.array(s.object({ name: s.string })),
  revisionHistoryLimit: s.int,
  patchPodMetadata: s.array(s.object({ annotations: stringMap, patchPolicy: s.string })),
  customVersion: s.string,
});

export const SIDECARSET_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({
    name: s.string,
    generateName: s.string,
    uid: s.string,
    generation: s.int,
    resourceVersion: s.string,
    labels: stringMap,
    annotations: stringMap,
    finalizers: s.array(s.string),
  }),
  spec: SIDECARSET_SPEC_SHAPE,
});

/** Type errors of a whole SidecarSet (the object itself must be a JSON object). */
export function sidecarSetShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, SIDECARSET_SHAPE, fieldPath());
}
