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
 * Not implemented: rounding resource quantities up to milli-units (`SetDefaults_ResourceList`), and the gated
 * host-network port and image-volume defaults (off by default in Kubernetes 1.32).
 */
import { cloneJson } from '@regatta/kube';
import type { Container, EnvVar, HttpGetAction, KeyToPath, ObjectFieldSelector, PodSpec, Probe, Volume } from './pod-types.js';
import { defaultPullPolicyForImage } from './image-name.js';

export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** 0644, the default file mode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_VOLUME_MODE = 420;
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

function defaultHttpGet(h: HttpGetAction | undefined): void {
  if (!h) return;
  if (!h.path) h.path = '/';
  if (!h.scheme) h.scheme = 'HTTP';
}

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  defaultHttpGet(p.httpGet);
}

function defaultFieldRef(ref: ObjectFieldSelector | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}

function defaultEnv(env: EnvVar[] | undefined): void {
  for (const e of env ?? []) defaultFieldRef(e.valueFrom?.fieldRef);
}

function defaultItems(items: KeyToPath[] | undefined): void {
  for (const i of items ?? []) defaultFieldRef(i.fieldRef);
}

/** Defaults shared by all container kinds (ports, env, probes, handlers). */
function defaultContainerCommon(c: Container): void {
  for (const p of c.ports ?? []) if (!p.protocol) p.protocol = 'TCP';
  defaultEnv(c.env);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHttpGet(c.lifecycle?.postStart?.httpGet);
  defaultHttpGet(c.lifecycle?.preStop?.httpGet);
}

/** core/v1 `SetDefaults_Container`. */
function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicyForImage(c.image);
  if (!c.terminationMessagePath) c.terminationMessagePath = DEFAULT_TERMINATION_MESSAGE_PATH;
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
}

function hasVolumeSource(v: Volume): boolean {
  return Object.entries(v).some(([k, x]) => k !== 'name' && x != null);
}

function defaultVolume(v: Volume): void {
  if (!hasVolumeSource(v)) v.emptyDir = {};
  if (v.hostPath && v.hostPath.type == null) v.hostPath.type = '';
  if (v.secret && v.secret.defaultMode == null) v.secret.defaultMode = DEFAULT_VOLUME_MODE;
  if (v.configMap && v.configMap.defaultMode == null) v.configMap.defaultMode = DEFAULT_VOLUME_MODE;
  if (v.downwardAPI) {
    if (v.downwardAPI.defaultMode == null) v.downwardAPI.defaultMode = DEFAULT_VOLUME_MODE;
    defaultItems(v.downwardAPI.items);
  }
  if (v.projected) {
    if (v.projected.defaultMode == null) v.projected.defaultMode = DEFAULT_VOLUME_MODE;
    for (const s of v.projected.sources ?? []) {
      defaultItems(s.downwardAPI?.items);
      const token = s.serviceAccountToken;
      if (token && token.expirationSeconds == null) token.expirationSeconds = DEFAULT_TOKEN_EXPIRATION_SECONDS;
    }
  }
}

/** Applies the defaults above in place (the caller owns `spec`). */
export function applyKruisePodSpecDefaults(spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (spec.securityContext == null) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds == null) {
    spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  }
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
  for (const v of spec.volumes ?? []) defaultVolume(v);
  for (const c of spec.initContainers ?? []) {
    defaultContainer(c);
    defaultContainerCommon(c);
  }
  for (const c of spec.containers ?? []) {
    // OpenKruise: "for in-place update, we set default imagePullPolicy to Always"
    if (!c.imagePullPolicy) c.imagePullPolicy = 'Always';
    defaultContainer(c);
    defaultContainerCommon(c);
  }
  for (const c of spec.ephemeralContainers ?? []) defaultContainerCommon(c);
}

/** A defaulted copy of a pod spec (the input is not changed). */
export function defaultKruisePodSpec(spec: PodSpec): PodSpec {
  const out = cloneJson(spec);
  applyKruisePodSpecDefaults(out);
  return out;
}
