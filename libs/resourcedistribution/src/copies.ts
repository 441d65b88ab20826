/**
 * The distributed copies (`pkg/controller/resourcedistribution/utils.go` makeResourceObject, mergeMetadata,
 * needToUpdate, isControlledByDistributor), pure.
 */
import { ResourceDistributionAnnotations, type ResourceDistribution } from '@regatta/api';
import { controllerRef, jsonEqual, type KubeObject, type OwnerReference, setMember } from '@regatta/kube';

type Obj = KubeObject & Record<string, unknown>;

/** The controller reference every copy carries (v1beta1, as HEAD rewrites older ones). */
export function distributionRef(rd: ResourceDistribution): OwnerReference {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'ResourceDistribution',
    name: rd.metadata?.name ?? '',
    uid: rd.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Whether the copy is controlled by the distribution: a controller reference with its UID when both are known,
 * otherwise the same kind and name (any version: a v1alpha1 reference counts).
 */
export function isControlledByDistribution(obj: KubeObject, rd: ResourceDistribution): boolean {
  const ref = controllerRef(obj);
  if (!ref) return false;
  const uid = rd.metadata?.uid;
  if (ref.uid && uid) return ref.uid === uid;
  return ref.kind === 'ResourceDistribution' && ref.name === rd.metadata?.name;
}

/**
 * The copy to write in `namespace`: the embedded resource with that namespace, the controller reference (an
 * existing reference with the distribution's UID replaced), the hash and source annotations. With `existing`
 * (an update), its labels and annotations the template does not set are kept and finalizers are unioned.
 */
export function desiredCopy(
  rd: ResourceDistribution,
  resource: Record<string, unknown>,
  namespace: string,
  hashCode: string,
  existing?: KubeObject,
): Obj {
  const copy = structuredClone(resource) as Obj;
  const meta = { ...(copy.metadata ?? {}) };
  delete meta.resourceVersion;
  delete meta.uid;
  delete meta.creationTimestamp;
  const labels = { ...existing?.metadata?.labels, ...meta.labels };
  const annotations: Record<string, string> = { ...existing?.metadata?.annotations, ...meta.annotations };
  annotations[ResourceDistributionAnnotations.ResourceHashCode] = hashCode;
  annotations[ResourceDistributionAnnotations.ResourceFrom] = rd.metadata?.name ?? '';
  const finalizers = [...new Set([...(meta.finalizers ?? []), ...(existing?.metadata?.finalizers ?? [])])].sort();
  const ref = distributionRef(rd);
  const owners = [...(meta.ownerReferences ?? existing?.metadata?.ownerReferences ?? [])];
  const at = owners.findIndex((o) => o.uid === ref.uid);
  if (at >= 0) owners[at] = ref;
  else owners.push(ref);
  copy.metadata = {
    ...meta,
    namespace,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    annotations,
    ...(finalizers.length > 0 ? { finalizers } : {}),
    ownerReferences: owners,
    ...(existing?.metadata?.resourceVersion ? { resourceVersion: existing.metadata.resourceVersion } : {}),
  };
  return copy;
}

/**
 * The content a Secret or ConfigMap holds, as the API server stores it: everything but metadata and status, a
 * Secret's `stringData` folded into base64 `data` and its `type` defaulted to Opaque, empty maps as absent.
 * Upstream compares without this normalisation (and so rewrites a Secret written with `stringData` each round);
 * the outcome is the same with one write per change.
 */
export function storedContent(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || v == null) continue;
    out[k] = v;
  }
  if (obj['kind'] === 'Secret') {
    const data = { ...(out['data'] as Record<string, string> | undefined) };
    for (const [k, v] of Object.entries((out['stringData'] as Record<string, string> | undefined) ?? {})) {
      setMember(data, k, Buffer.from(v, 'utf8').toString('base64'));
    }
    delete out['stringData'];
    out['data'] = data;
    out['type'] ??= 'Opaque';
  }
  for (const k of ['data', 'binaryData']) {
    const m = out[k];
    if (m && typeof m === 'object' && Object.keys(m).length === 0) delete out[k];
  }
  return out;
}

/** needToUpdate: the copy's content differs from the template's (metadata and status aside). */
export function needsUpdate(existing: Record<string, unknown>, desired: Record<string, unknown>): boolean {
  return !jsonEqual(storedContent(existing), storedContent(desired));
}
