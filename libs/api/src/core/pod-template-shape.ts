/**
 * The JSON types of the pod-template fields Regatta reads: those of the validation subset
 * (`pod-template-validation.ts`), of the defaults (`pod-defaults.ts`) and of the controller (labels, annotations,
 * finalizers, containers, volumes). Field names and types are core/v1's.
 */
import { type Shape, shapes as s } from './shape.js';

const stringMap = s.map(s.string);

/** core/v1 `LabelSelector`. */
export const LABEL_SELECTOR_SHAPE: Shape = s.object({
  matchLabels: stringMap,
  matchExpressions: s.array(s.object({ key: s.string, operator: s.string, values: s.array(s.string) })),
});

const httpGet = s.object({ path: s.string, scheme: s.string, port: s.intOrString, host: s.string });
const handler = s.object({ httpGet });
const probe = s.object({
  timeoutSeconds: s.int,
  periodSeconds: s.int,
  successThreshold: s.int,
  failureThreshold: s.int,
  initialDelaySeconds: s.int,
  httpGet,
});
const fieldRef = s.object({ apiVersion: s.string, fieldPath: s.string });
const keyToPath = s.object({ key: s.string, path: s.string, fieldRef });

const container = s.object({
  name: s.string,
  image: s.string,
  imagePullPolicy: s.string,
  terminationMessagePath: s.string,
  terminationMessagePolicy: s.string,
  ports: s.array(s.object({ name: s.string, containerPort: s.int, hostPort: s.int, protocol: s.string })),
  env: s.array(s.object({ name: s.string, value: s.string, valueFrom: s.object({ fieldRef }) })),
  volumeMounts: s.array(s.object({ name: s.string, mountPath: s.string })),
  // quantities are JSON strings or numbers: their type is checked with their syntax (core/container-rules.ts)
  resources: s.object({ limits: s.map(s.any), requests: s.map(s.any) }),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  lifecycle: s.object({ postStart: handler, preStop: handler }),
});

/** Every member but `name` is a volume source, an object. */
const volume = s.object(
  {
    name: s.string,
    hostPath: s.object({ path: s.string, type: s.string }),
    secret: s.object({ defaultMode: s.int, items: s.array(keyToPath) }),
    configMap: s.object({ defaultMode: s.int, items: s.array(keyToPath) }),
    downwardAPI: s.object({ defaultMode: s.int, items: s.array(keyToPath) }),
    projected: s.object({
      defaultMode: s.int,
      sources: s.array(
        s.object({
          downwardAPI: s.object({ items: s.array(keyToPath) }),
          serviceAccountToken: s.object({ expirationSeconds: s.int }),
        }),
      ),
    }),
  },
  s.object(),
);

const nodeSelectorRequirement = s.object({ key: s.string, operator: s.string, values: s.array(s.string) });
const nodeSelectorTerm = s.object({ matchExpressions: s.array(nodeSelectorRequirement), matchFields: s.array(nodeSelectorRequirement) });
const nodeAffinity = s.object({
  requiredDuringSchedulingIgnoredDuringExecution: s.object({ nodeSelectorTerms: s.array(nodeSelectorTerm) }),
  preferredDuringSchedulingIgnoredDuringExecution: s.array(s.object({ weight: s.int, preference: nodeSelectorTerm })),
});

export const POD_SPEC_SHAPE: Shape = s.object({
  volumes: s.array(volume),
  containers: s.array(container),
  initContainers: s.array(container),
  ephemeralContainers: s.array(container),
  restartPolicy: s.string,
  dnsPolicy: s.string,
  nodeSelector: stringMap,
  schedulerName: s.string,
  activeDeadlineSeconds: s.int,
  terminationGracePeriodSeconds: s.int,
  securityContext: s.object(),
  readinessGates: s.array(s.object({ conditionType: s.string })),
  affinity: s.object({ nodeAffinity }),
});

export const POD_TEMPLATE_SHAPE: Shape = s.object({
  metadata: s.object({ labels: stringMap, annotations: stringMap, finalizers: s.array(s.string) }),
  spec: POD_SPEC_SHAPE,
});
