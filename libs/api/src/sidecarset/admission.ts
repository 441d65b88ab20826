/**
 * The two calls a SidecarSet admission webhook makes (OpenKruise `pkg/webhook/sidecarset/mutating` and
 * `validating`); which version's rules apply comes from the request's resource version (`request.resource.version`).
 *
 * The mutating call also does what Regatta adds (docs/adr/0025-sidecarset-api.md), each answered with an admission
 * warning (`AdmissionResponse.warnings`, printed by kubectl):
 * - `spec.volumeTemplates` (not an OpenKruise field: upstream's schema drops it silently) is moved into
 *   `spec.volumes`;
 * - v1alpha1 `spec.namespace` becomes the `namespaceSelector` OpenKruise's conversion makes of it (the CRD has no
 *   conversion webhook, so this is where it is converted).
 * Then the defaults, then the two hash annotations on the SidecarSet.
 */
import { type FieldError, isPlainObject } from '@regatta/kube';
import type { SidecarSetValidationContext } from './context-rules.js';
import { defaultSidecarSet } from './defaults.js';
import { sidecarSetHashAnnotations } from './hash.js';
import { SidecarSetLabels } from './keys.js';
import type { SidecarSetSpec } from './types.js';
import { validateSidecarSetUpdate } from './update-validation.js';
import { validateSidecarSet } from './validation.js';
import type { SidecarSetVersion } from './version.js';

export const VOLUME_TEMPLATES_WARNING =
  'spec.volumeTemplates is not a SidecarSet field (OpenKruise would drop it): its volumes were added to spec.volumes; write spec.volumes instead';
export const NAMESPACE_WARNING =
  'spec.namespace is deprecated (apps.kruise.io/v1alpha1): it was stored as spec.namespaceSelector matching the label kubernetes.io/metadata.name';

export interface SidecarSetMutation<T> {
  /** The object to answer with (as a JSON patch against the request's object). */
  object: T;
  /** Admission warnings for the AdmissionResponse. */
  warnings: string[];
}

type Obj = Record<string, unknown>;

/** Moves `volumeTemplates` into `volumes` and converts v1alpha1 `namespace`, in place; returns the warnings. */
function normalize(spec: Obj, version: SidecarSetVersion): string[] {
  const warnings: string[] = [];
  if ('volumeTemplates' in spec) {
    const templates = spec['volumeTemplates'];
    const volumes = spec['volumes'];
    if (Array.isArray(templates) && (volumes == null || Array.isArray(volumes))) {
      spec['volumes'] = [...(volumes ?? []), ...templates];
      delete spec['volumeTemplates'];
      warnings.push(VOLUME_TEMPLATES_WARNING);
    } else if (templates == null) {
      delete spec['volumeTemplates'];
    }
  }
  if (version === 'v1alpha1' && 'namespace' in spec) {
    const ns = spec['namespace'];
    if (typeof ns === 'string' && ns !== '') {
      spec['namespaceSelector'] = { matchLabels: { [SidecarSetLabels.NamespaceName]: ns } };
      warnings.push(NAMESPACE_WARNING);
      delete spec['namespace'];
    } else if (ns == null || ns === '') {
      delete spec['namespace'];
    }
  }
  return warnings;
}

/** The mutating webhook (CREATE and UPDATE): the object to store and the warnings. Never throws. */
export function defaultSidecarSetForAdmission<T>(obj: T, version: SidecarSetVersion): SidecarSetMutation<T> {
  const out = defaultSidecarSet(obj);
  if (!isPlainObject(out) || !isPlainObject(out['spec'])) return { object: out, warnings: [] };
  const spec = out['spec'];
  const warnings = normalize(spec, version);
  // the new volumes get their defaults too
  const defaulted = defaultSidecarSet(out) as Obj;
  const containersOk = (k: string) => spec[k] == null || (Array.isArray(spec[k]) && (spec[k] as unknown[]).every(isPlainObject));
  if (containersOk('containers') && containersOk('initContainers')) {
    const meta: Obj = isPlainObject(defaulted['metadata']) ? defaulted['metadata'] : (defaulted['metadata'] = {}) as Obj;
    if (meta['annotations'] == null) meta['annotations'] = {};
    if (isPlainObject(meta['annotations'])) {
      Object.assign(meta['annotations'], sidecarSetHashAnnotations(defaulted['spec'] as SidecarSetSpec));
    }
  }
  return { object: defaulted as T, warnings };
}

export interface SidecarSetAdmission {
  operation: 'CREATE' | 'UPDATE';
  object: unknown;
  /** The stored object (UPDATE). */
  oldObject?: unknown;
  version: SidecarSetVersion;
}

/** The validating webhook: every CREATE rule, plus the UPDATE rules; empty when allowed. */
export function validateSidecarSetAdmission(
  req: SidecarSetAdmission,
  ctx: Omit<SidecarSetValidationContext, 'version'> = {},
): FieldError[] {
  const full = { ...ctx, version: req.version };
  return req.operation === 'UPDATE' && req.oldObject !== undefined
    ? validateSidecarSetUpdate(req.object, req.oldObject, full)
    : validateSidecarSet(req.object, full);
}
