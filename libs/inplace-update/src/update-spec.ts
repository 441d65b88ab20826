/**
 * `UpdateSpec`: what an in-place update changes (images, env-referenced metadata, the metadata patch), and its JSON
 * form in the `apps.kruise.io/inplace-update-grace` annotation — `metaDataPatch` is a Go `[]byte`, so it travels as
 * base64 of the strategic-merge-patch JSON.
 */
import { isPlainObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { goJson, goQuote } from '@regatta/revision';
import { InPlaceUpdateAnnotationError } from './errors.js';
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_GRACE_KEY_OLD } from './keys.js';
import { type ContainerResources, readContainerResources } from './resize.js';
import { type ContainerRefMetadata, formatObjectMeta, parseRefMetadata } from './state.js';

/** `UpdateSpec`. */
export interface UpdateSpec {
  /** The revision id written to the pod (CloneSet/ASTS: the revision name). */
  revision: string;
  /** New image per container name. */
  containerImages?: Record<string, string>;
  /** Labels/annotations per container whose env reads them. */
  containerRefMetadata?: Record<string, ContainerRefMetadata>;
  /** New cpu/memory requests and limits per container (vertical scaling, applied through `pods/resize`). */
  containerResources?: Record<string, ContainerResources>;
  /** Strategic merge patch JSON (`{"metadata":{…}}`) for the pod's labels/annotations/finalizers. */
  metaDataPatch?: string;
  updateEnvFromMetadata?: boolean;
  graceSeconds?: number;
}

function nonEmpty(v: Record<string, unknown> | undefined): v is Record<string, unknown> {
  return v !== undefined && Object.keys(v).length > 0;
}

/** The grace annotation value: Go field order, empty fields omitted, `metaDataPatch` base64. */
export function formatUpdateSpec(spec: UpdateSpec): string {
  const parts = [`"revision":${goQuote(spec.revision)}`];
  if (nonEmpty(spec.containerImages)) parts.push(`"containerImages":${goJson(spec.containerImages)}`);
  if (nonEmpty(spec.containerRefMetadata)) {
    const refs = spec.containerRefMetadata;
    const entries = Object.keys(refs)
      .sort()
      .map((k) => `${goQuote(k)}:${formatObjectMeta(refs[k] ?? {})}`);
    parts.push(`"containerRefMetadata":{${entries.join(',')}}`);
  }
  if (nonEmpty(spec.containerResources))
    parts.push(`"containerResources":${goJson(spec.containerResources)}`);
  if (spec.metaDataPatch !== undefined && spec.metaDataPatch !== '') {
    parts.push(`"metaDataPatch":${goQuote(Buffer.from(spec.metaDataPatch, 'utf8').toString('base64'))}`);
  }
  if (spec.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (spec.graceSeconds) parts.push(`"graceSeconds":${spec.graceSeconds}`);
  return `{${parts.join(',')}}`;
}

/** Parses a grace annotation value (throws {@link InPlaceUpdateAnnotationError}). */
export function parseUpdateSpec(json: string, annotation = INPLACE_UPDATE_GRACE_KEY): UpdateSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new InPlaceUpdateAnnotationError(annotation, (e as Error).message);
  }
  if (!isPlainObject(raw)) throw new InPlaceUpdateAnnotationError(annotation, 'expected a JSON object');
  const spec: UpdateSpec = { revision: typeof raw['revision'] === 'string' ? raw['revision'] : '' };
  const images = raw['containerImages'];
  if (isPlainObject(images)) {
    spec.containerImages = Object.fromEntries(
      Object.entries(images).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  }
  const refs = raw['containerRefMetadata'];
  if (isPlainObject(refs))
    spec.containerRefMetadata = Object.fromEntries(
      Object.entries(refs).map(([k, v]) => [k, parseRefMetadata(v)]),
    );
  const resources = raw['containerResources'];
  if (isPlainObject(resources)) {
    spec.containerResources = Object.fromEntries(
      Object.entries(resources).map(([k, v]) => [k, readContainerResources(v)]),
    );
  }
  const patch = raw['metaDataPatch'];
  if (typeof patch === 'string' && patch !== '')
    spec.metaDataPatch = Buffer.from(patch, 'base64').toString('utf8');
  if (raw['updateEnvFromMetadata'] === true) spec.updateEnvFromMetadata = true;
  if (typeof raw['graceSeconds'] === 'number') spec.graceSeconds = raw['graceSeconds'];
  return spec;
}

/** The raw grace annotation of the pod (new key first, then the old one), if any. */
export function inPlaceUpdateGraceAnnotation(pod: Pod): { key: string; value: string } | undefined {
  const a = pod.metadata?.annotations ?? {};
  if (a[INPLACE_UPDATE_GRACE_KEY] !== undefined)
    return { key: INPLACE_UPDATE_GRACE_KEY, value: a[INPLACE_UPDATE_GRACE_KEY] };
  if (a[INPLACE_UPDATE_GRACE_KEY_OLD] !== undefined)
    return { key: INPLACE_UPDATE_GRACE_KEY_OLD, value: a[INPLACE_UPDATE_GRACE_KEY_OLD] };
  return undefined;
}

/** True while the pod waits for its in-place update grace period (`GetInPlaceUpdateGrace` non-empty). */
export function isInGracePeriod(pod: Pod): boolean {
  return (inPlaceUpdateGraceAnnotation(pod)?.value ?? '') !== '';
}
