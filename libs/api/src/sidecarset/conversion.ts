/**
 * v1alpha1 ↔ v1beta1, as OpenKruise's conversion functions (`apis/apps/v1alpha1/sidecarset_conversion.go`):
 * v1alpha1 `spec.namespace` becomes `namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: <ns>}}` (it wins
 * over a namespaceSelector), and the v1alpha1 label `apps.kruise.io/sidecarset-custom-version` is v1beta1
 * `spec.customVersion`. Back to v1alpha1 the namespaceSelector is kept as it is (no `namespace`).
 *
 * The API server does not call these (the CRD converts versions without a webhook; see
 * docs/adr/0025-sidecarset-api.md): the admission entry points use them to validate a v1alpha1 request as upstream
 * does (converted to v1beta1), and {@link sidecarSetCustomVersion} reads an object written in either version.
 */
import { cloneJson, isPlainObject } from '@regatta/kube';
import { SidecarSetLabels } from './keys.js';
import { SIDECARSET_API_VERSION, SIDECARSET_V1ALPHA1_API_VERSION } from './types.js';

type Obj = Record<string, unknown>;

/** The custom version: v1beta1 `spec.customVersion`, else the v1alpha1 label; undefined when neither is set. */
export function sidecarSetCustomVersion(scs: { metadata?: { labels?: Record<string, string> }; spec?: { customVersion?: string } }): string | undefined {
  return scs.spec?.customVersion || scs.metadata?.labels?.[SidecarSetLabels.CustomVersion] || undefined;
}

/** A v1alpha1 SidecarSet (any JSON) as v1beta1 (a copy; anything but an object is returned as it is). */
export function sidecarSetToV1beta1<T>(obj: T): T {
  const copy = cloneJson(obj);
  if (!isPlainObject(copy)) return copy;
  const out: Obj = copy;
  out['apiVersion'] = SIDECARSET_API_VERSION;
  const spec = out['spec'];
  if (isPlainObject(spec)) {
    const ns = spec['namespace'];
    delete spec['namespace'];
    if (typeof ns === 'string' && ns !== '') {
      spec['namespaceSelector'] = { matchLabels: { [SidecarSetLabels.NamespaceName]: ns } };
    }
  }
  const meta = out['metadata'];
  const labels = isPlainObject(meta) ? meta['labels'] : undefined;
  if (isPlainObject(labels) && typeof labels[SidecarSetLabels.CustomVersion] === 'string') {
    const specObj: Obj = isPlainObject(spec) ? spec : (out['spec'] = {}) as Obj;
    specObj['customVersion'] = labels[SidecarSetLabels.CustomVersion];
    delete labels[SidecarSetLabels.CustomVersion];
  }
  return copy;
}

/** A v1beta1 SidecarSet (any JSON) as v1alpha1 (a copy). */
export function sidecarSetToV1alpha1<T>(obj: T): T {
  const copy = cloneJson(obj);
  if (!isPlainObject(copy)) return copy;
  const out: Obj = copy;
  out['apiVersion'] = SIDECARSET_V1ALPHA1_API_VERSION;
  const spec = out['spec'];
  if (isPlainObject(spec) && typeof spec['customVersion'] === 'string') {
    const cv = spec['customVersion'];
    delete spec['customVersion'];
    if (cv !== '') {
      const meta: Obj = isPlainObject(out['metadata']) ? out['metadata'] : (out['metadata'] = {}) as Obj;
      const labels: Obj = isPlainObject(meta['labels']) ? meta['labels'] : (meta['labels'] = {}) as Obj;
      labels[SidecarSetLabels.CustomVersion] = cv;
    }
  }
  return copy;
}
