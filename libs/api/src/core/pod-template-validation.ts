/**
 * The part of core `ValidatePodTemplateSpec` (Kubernetes 1.32) that Regatta's webhooks run on workload templates:
 *
 * - template labels and annotations (`<path>.labels`, `<path>.annotations`);
 * - volumes: name required, a DNS-1123 label, unique; exactly one volume source;
 * - containers: at least one; names required, DNS-1123 labels, unique across init and regular containers; image
 *   required; `imagePullPolicy` and `terminationMessagePolicy` among the supported values when set; ports
 *   (`containerPort` and `hostPort` in 1..65535, protocol TCP/UDP/SCTP, port names IANA service names, unique);
 *   volume mounts naming an existing volume, with a unique, non-empty `mountPath`;
 * - `restartPolicy`, `dnsPolicy` among the supported values when set (`dnsPolicy: None` needs `dnsConfig`);
 *   `nodeSelector` labels; `schedulerName` a DNS-1123 subdomain;
 * - ephemeral containers are forbidden in a template.
 *
 * - env names, container resources (names, quantities, requests ≤ limits), node affinity and
 *   `activeDeadlineSeconds`: `container-rules.ts`.
 *
 * Any JSON value is accepted: the JSON types of the fields read are checked first (`pod-template-shape.ts`) and a
 * template with type errors gets those errors only, with their paths.
 *
 * Fields the defaulting webhook always fills (restartPolicy, dnsPolicy, pull and termination-message policies) are
 * not reported as missing. Everything else of core validation (probes, security context, pod affinity,
 * topology spread, …) is left to the API server, which validates the pods the controller creates.
 */
import {
  type FieldError,
  type FieldPath,
  fieldErrors,
  isDns1123Label,
  isDns1123Subdomain,
} from '@regatta/kube';
import { activeDeadlineErrors, type NodeAffinity, validateContainerResources, validateEnvNames, validateNodeAffinity } from './container-rules.js';
import { validateAnnotations, validateLabels } from './meta-validation.js';
import { POD_SPEC_SHAPE, POD_TEMPLATE_SHAPE } from './pod-template-shape.js';
import type { Container, PodSpec, PodTemplateSpec, Volume } from './pod-types.js';
import { shapeErrors, withoutNullMembers } from './shape.js';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['FallbackToLogsOnError', 'File'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];

/** apimachinery `IsValidPortNum`. */
function portNumErrors(n: unknown): string[] {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** apimachinery `IsValidPortName` (an IANA_SVC_NAME). */
export function isValidPortName(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** A volume-mount reference that matches no volume. (apimachinery `field.NotFound`; kube has no such constructor.) */
function notFound(path: FieldPath, value: string): FieldError {
  return fieldErrors.invalid(path, value, 'not found');
}

function validateVolumes(volumes: Volume[] | undefined, path: FieldPath): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    const p = path.index(i);
    const sources = Object.entries(v).filter(([k, x]) => k !== 'name' && x != null).map(([k]) => k);
    if (sources.length === 0) errs.push(fieldErrors.required(p, 'must specify a volume type'));
    for (const extra of sources.slice(1)) errs.push(fieldErrors.forbidden(p.child(extra), 'may not specify more than 1 volume type'));
    const namePath = p.child('name');
    if (!v.name) errs.push(fieldErrors.required(namePath, ''));
    else for (const msg of isDns1123Label(v.name)) errs.push(fieldErrors.invalid(namePath, v.name, msg));
    if (names.has(v.name)) errs.push(fieldErrors.duplicate(namePath, v.name));
    else names.add(v.name);
  });
  return { names, errs };
}

function validateContainer(c: Container, p: FieldPath, allNames: Set<string>, volumes: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = p.child('name');
  if (!c.name) errs.push(fieldErrors.required(namePath, ''));
  else for (const msg of isDns1123Label(c.name)) errs.push(fieldErrors.invalid(namePath, c.name, msg));
  if (allNames.has(c.name)) errs.push(fieldErrors.duplicate(namePath, c.name));
  else allNames.add(c.name);

  if (!c.image) errs.push(fieldErrors.required(p.child('image'), ''));
  if (c.imagePullPolicy && !PULL_POLICIES.includes(c.imagePullPolicy)) {
    errs.push(fieldErrors.notSupported(p.child('imagePullPolicy'), c.imagePullPolicy, PULL_POLICIES));
  }
  if (c.terminationMessagePolicy && !TERMINATION_MESSAGE_POLICIES.includes(c.terminationMessagePolicy)) {
    errs.push(fieldErrors.notSupported(p.child('terminationMessagePolicy'), c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }

  const portNames = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const pp = p.child('ports').index(i);
    if (port.name) {
      for (const msg of isValidPortName(port.name)) errs.push(fieldErrors.invalid(pp.child('name'), port.name, msg));
      if (portNames.has(port.name)) errs.push(fieldErrors.duplicate(pp.child('name'), port.name));
      else portNames.add(port.name);
    }
    if (!port.containerPort) errs.push(fieldErrors.required(pp.child('containerPort'), ''));
    else for (const msg of portNumErrors(port.containerPort)) errs.push(fieldErrors.invalid(pp.child('containerPort'), port.containerPort, msg));
    if (port.hostPort) {
      for (const msg of portNumErrors(port.hostPort)) errs.push(fieldErrors.invalid(pp.child('hostPort'), port.hostPort, msg));
    }
    if (port.protocol && !PROTOCOLS.includes(port.protocol)) {
      errs.push(fieldErrors.notSupported(pp.child('protocol'), port.protocol, PROTOCOLS));
    }
  });

  errs.push(...validateEnvNames(c.env, p.child('env')));
  errs.push(...validateContainerResources(c.resources, p.child('resources')));

  const mountPaths = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const mp = p.child('volumeMounts').index(i);
    if (!m.name) errs.push(fieldErrors.required(mp.child('name'), ''));
    if (!volumes.has(m.name)) errs.push(notFound(mp.child('name'), m.name));
    if (!m.mountPath) errs.push(fieldErrors.required(mp.child('mountPath'), ''));
    if (mountPaths.has(m.mountPath)) errs.push(fieldErrors.invalid(mp.child('mountPath'), m.mountPath, 'must be unique'));
    else mountPaths.add(m.mountPath);
  });
  return errs;
}

/** The pod-spec checks listed in the module comment; `path` is the spec's path (e.g. `spec.template.spec`). */
export function validatePodSpecSubset(spec: unknown, path: FieldPath): FieldError[] {
  const typeErrors = shapeErrors(spec, POD_SPEC_SHAPE, path);
  if (typeErrors.length > 0) return typeErrors;
  const s = (withoutNullMembers(spec) ?? {}) as Partial<PodSpec>;
  const { names: volumes, errs } = validateVolumes(s.volumes, path.child('volumes'));

  const allNames = new Set<string>();
  const containers = s.containers ?? [];
  if (!Array.isArray(containers) || containers.length === 0) {
    errs.push(fieldErrors.required(path.child('containers'), ''));
  } else {
    containers.forEach((c, i) => errs.push(...validateContainer(c, path.child('containers').index(i), allNames, volumes)));
  }
  (s.initContainers ?? []).forEach((c, i) =>
    errs.push(...validateContainer(c, path.child('initContainers').index(i), allNames, volumes)),
  );

  if (s.restartPolicy && !RESTART_POLICIES.includes(s.restartPolicy)) {
    errs.push(fieldErrors.notSupported(path.child('restartPolicy'), s.restartPolicy, RESTART_POLICIES));
  }
  if (s.dnsPolicy && !DNS_POLICIES.includes(s.dnsPolicy)) {
    errs.push(fieldErrors.notSupported(path.child('dnsPolicy'), s.dnsPolicy, DNS_POLICIES));
  }
  if (s.dnsPolicy === 'None' && s['dnsConfig'] == null) {
    errs.push(fieldErrors.required(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
  }
  errs.push(...validateLabels(s.nodeSelector, path.child('nodeSelector')));
  const affinity = s['affinity'] as { nodeAffinity?: NodeAffinity } | undefined;
  errs.push(...validateNodeAffinity(affinity?.nodeAffinity, path.child('affinity', 'nodeAffinity')));
  errs.push(...activeDeadlineErrors(s.activeDeadlineSeconds, path.child('activeDeadlineSeconds')));
  if (s.schedulerName) {
    for (const msg of isDns1123Subdomain(s.schedulerName)) errs.push(fieldErrors.invalid(path.child('schedulerName'), s.schedulerName, msg));
  }
  return errs;
}

/** `ValidatePodTemplateSpec` subset; `path` is the template's path (e.g. `spec.template`). */
export function validatePodTemplateSpecSubset(value: unknown, path: FieldPath): FieldError[] {
  const typeErrors = shapeErrors(value, POD_TEMPLATE_SHAPE, path);
  if (typeErrors.length > 0) return typeErrors;
  const template = (withoutNullMembers(value) ?? undefined) as PodTemplateSpec | undefined;
  const errs: FieldError[] = [];
  errs.push(...validateLabels(template?.metadata?.labels, path.child('labels')));
  errs.push(...validateAnnotations(template?.metadata?.annotations, path.child('annotations')));
  errs.push(...validatePodSpecSubset(template?.spec, path.child('spec')));
  if ((template?.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldErrors.forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
