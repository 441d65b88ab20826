/**
 * The pod-template defaults OpenKruise's workload webhooks apply (`apis/apps/defaults.SetDefaultPodSpec`, built on
 * core/v1 defaulting of Kubernetes 1.32). Implemented:
 *
 * - pod spec: `dnsPolicy: ClusterFirst`, `restartPolicy: Always`, `securityContext: {}`,
 *   `terminationGracePeriodSeconds: 30`, `schedulerName: default-scheduler`;
 * - containers: `imagePullPolicy: Always` when empty (Kruise's own rule, "for in-place update" — not the tag rule),
 *   then `terminationMessagePath: /dev/termination-log`, `terminationMessagePolicy: File`;
 * - init containers: `imagePullPolicy` by tag (`:latest` or no tag → Always, else IfNotPresent), same termination
 *   message defaults;
 * - every container kind (also ephemeral): port `protocol: TCP`; env `valueFrom.fieldRef.apiVersion: v1`; probes
 *   (liveness/readiness/startup) `timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3`;
 *   `httpGet` of probes and of postStart/preStop handlers `path: /, scheme: HTTP`;
 * - volumes: no source → `emptyDir: {}`; hostPath `type: ""`; secret / configMap / downwardAPI / projected
 *   `defaultMode: 420`; downward-API `fieldRef.apiVersion: v1`; projected service-account token
 *   `expirationSeconds: 3600`.
 *
 * Every function accepts any JSON value and never throws: a member of the wrong JSON type is left as it is (and
 * reported by validation, see `pod-template-validation.ts`); only objects get defaults.
 *
 * Not implemented: rounding resource quantities up to milli-units (`SetDefaults_ResourceList`), and the gated
 * host-network port and image-volume defaults (off by default in Kubernetes 1.32).
 */
import { cloneJson, isPlainObject } from '@regatta/kube';
import type { PodSpec } from './pod-types.js';
import { defaultPullPolicyForImage } from './image-name.js';

export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** 0644, the default file mode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_VOLUME_MODE = 420;
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

type Obj = Record<string, unknown>;

/** The member as an object to default in place, or undefined when it is absent or of another type. */
const objectAt = (o: Obj | undefined, key: string): Obj | undefined => {
  const v = o?.[key];
  return isPlainObject(v) ? v : undefined;
};

/** The objects of a list member (other items, and a member that is not a list, are skipped). */
const objectsAt = (o: Obj | undefined, key: string): Obj[] => {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
};

function defaultHttpGet(h: Obj | undefined): void {
  if (!h) return;
  if (!h['path']) h['path'] = '/';
  if (!h['scheme']) h['scheme'] = 'HTTP';
}

function defaultProbe(p: Obj | undefined): void {
  if (!p) return;
  if (!p['timeoutSeconds']) p['timeoutSeconds'] = 1;
  if (!p['periodSeconds']) p['periodSeconds'] = 10;
  if (!p['successThreshold']) p['successThreshold'] = 1;
  if (!p['failureThreshold']) p['failureThreshold'] = 3;
  defaultHttpGet(objectAt(p, 'httpGet'));
}

function defaultFieldRef(ref: Obj | undefined): void {
  if (ref && !ref['apiVersion']) ref['apiVersion'] = 'v1';
}

function defaultItems(items: Obj[]): void {
  for (const i of items) defaultFieldRef(objectAt(i, 'fieldRef'));
}

/** Defaults shared by all container kinds (ports, env, probes, handlers). */
function defaultContainerCommon(c: Obj): void {
  for (const p of objectsAt(c, 'ports')) if (!p['protocol']) p['protocol'] = 'TCP';
  for (const e of objectsAt(c, 'env')) defaultFieldRef(objectAt(objectAt(e, 'valueFrom'), 'fieldRef'));
  defaultProbe(objectAt(c, 'livenessProbe'));
  defaultProbe(objectAt(c, 'readinessProbe'));
  defaultProbe(objectAt(c, 'startupProbe'));
  const lifecycle = objectAt(c, 'lifecycle');
  defaultHttpGet(objectAt(objectAt(lifecycle, 'postStart'), 'httpGet'));
  defaultHttpGet(objectAt(objectAt(lifecycle, 'preStop'), 'httpGet'));
}

/** core/v1 `SetDefaults_Container`. */
function defaultContainer(c: Obj): void {
  if (!c['imagePullPolicy']) {
    const image = c['image'];
    // a wrongly typed image is left to validation
    if (image == null || typeof image === 'string') c['imagePullPolicy'] = defaultPullPolicyForImage(image ?? undefined);
  }
  if (!c['terminationMessagePath']) c['terminationMessagePath'] = DEFAULT_TERMINATION_MESSAGE_PATH;
  if (!c['terminationMessagePolicy']) c['terminationMessagePolicy'] = 'File';
}

function hasVolumeSource(v: Obj): boolean {
  return Object.entries(v).some(([k, x]) => k !== 'name' && x != null);
}

function defaultMode(source: Obj | undefined): void {
  if (source && source['defaultMode'] == null) source['defaultMode'] = DEFAULT_VOLUME_MODE;
}

function defaultVolume(v: Obj): void {
  if (!hasVolumeSource(v)) v['emptyDir'] = {};
  const hostPath = objectAt(v, 'hostPath');
  if (hostPath && hostPath['type'] == null) hostPath['type'] = '';
  defaultMode(objectAt(v, 'secret'));
  defaultMode(objectAt(v, 'configMap'));
  const downwardAPI = objectAt(v, 'downwardAPI');
  defaultMode(downwardAPI);
  defaultItems(objectsAt(downwardAPI, 'items'));
  const projected = objectAt(v, 'projected');
  defaultMode(projected);
  for (const s of objectsAt(projected, 'sources')) {
    defaultItems(objectsAt(objectAt(s, 'downwardAPI'), 'items'));
    const token = objectAt(s, 'serviceAccountToken');
    if (token && token['expirationSeconds'] == null) token['expirationSeconds'] = DEFAULT_TOKEN_EXPIRATION_SECONDS;
  }
}

/** Applies the defaults above in place (the caller owns `spec`); anything but an object is left alone. */
export function applyKruisePodSpecDefaults(spec: unknown): void {
  if (!isPlainObject(spec)) return;
  if (!spec['dnsPolicy']) spec['dnsPolicy'] = 'ClusterFirst';
  if (!spec['restartPolicy']) spec['restartPolicy'] = 'Always';
  if (spec['securityContext'] == null) spec['securityContext'] = {};
  if (spec['terminationGracePeriodSeconds'] == null) {
    spec['terminationGracePeriodSeconds'] = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  }
  if (!spec['schedulerName']) spec['schedulerName'] = DEFAULT_SCHEDULER_NAME;
  for (const v of objectsAt(spec, 'volumes')) defaultVolume(v);
  for (const c of objectsAt(spec, 'initContainers')) {
    defaultContainer(c);
    defaultContainerCommon(c);
  }
  for (const c of objectsAt(spec, 'containers')) {
    // OpenKruise: "for in-place update, we set default imagePullPolicy to Always"
    if (!c['imagePullPolicy']) c['imagePullPolicy'] = 'Always';
    defaultContainer(c);
    defaultContainerCommon(c);
  }
  for (const c of objectsAt(spec, 'ephemeralContainers')) defaultContainerCommon(c);
}

/** A defaulted copy of a pod spec (the input is not changed). */
export function defaultKruisePodSpec(spec: PodSpec): PodSpec {
  const out = cloneJson(spec);
  applyKruisePodSpecDefaults(out);
  return out;
}
