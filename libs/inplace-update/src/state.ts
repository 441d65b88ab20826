/**
 * `InPlaceUpdateState`, the `apps.kruise.io/inplace-update-state` annotation: read (new key, then the old one) and
 * written in the byte layout of Kruise (Go struct field order, sorted map keys, `lastContainerStatuses` always
 * present — `null` when unset — and every other field omitted when empty).
 */
import { type ObjectMeta, isPlainObject, toRfc3339 } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { goJson, goQuote } from '@regatta/revision';
import { InPlaceUpdateAnnotationError } from './errors.js';
import { type ContainerResources, readContainerResources } from './resize.js';
import { INPLACE_UPDATE_STATE_KEY, INPLACE_UPDATE_STATE_KEY_OLD } from './keys.js';

/** Labels and annotations a container reads through env (`metav1.ObjectMeta` with only those two set). */
export interface ContainerRefMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** One batch of containers updated together. */
export interface InPlaceUpdateContainerBatch {
  /** RFC 3339 time the batch was written. */
  timestamp: string;
  containers: string[];
}

/** `InPlaceUpdateState`. */
export interface InPlaceUpdateState {
  /** The revision the pod is being updated to. */
  revision: string;
  /** RFC 3339 time of the update write (the grace period counts from it). */
  updateTimestamp: string;
  /** Image IDs before the update, per container whose image changes: completion is detected against them. */
  lastContainerStatuses?: Record<string, { imageID?: string }> | null;
  updateEnvFromMetadata?: boolean;
  updateResources?: boolean;
  updateImages?: boolean;
  /** Lower-priority containers waiting for the next batch. */
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, ContainerRefMetadata>;
  nextContainerResources?: Record<string, ContainerResources>;
  /** The containers of the current batch that must be ready before the next batch starts. */
  preCheckBeforeNext?: { containersRequiredReady?: string[] } | null;
  containerBatchesRecord?: InPlaceUpdateContainerBatch[];
}

function nonEmpty(v: Record<string, unknown> | undefined | null): v is Record<string, unknown> {
  return v != null && Object.keys(v).length > 0;
}

/** Go `json.Marshal(metav1.ObjectMeta{Labels, Annotations})` (k8s.io/apimachinery v0.32 writes `creationTimestamp: null`). */
export function formatObjectMeta(meta: ContainerRefMetadata): string {
  const parts = ['"creationTimestamp":null'];
  if (nonEmpty(meta.labels)) parts.push(`"labels":${goJson(meta.labels)}`);
  if (nonEmpty(meta.annotations)) parts.push(`"annotations":${goJson(meta.annotations)}`);
  return `{${parts.join(',')}}`;
}

function formatMetaMap(m: Record<string, ContainerRefMetadata>): string {
  return `{${Object.keys(m)
    .sort()
    .map((k) => `${goQuote(k)}:${formatObjectMeta(m[k] ?? {})}`)
    .join(',')}}`;
}

function formatStatuses(s: Record<string, { imageID?: string }>): string {
  return `{${Object.keys(s)
    .sort()
    .map((k) => {
      const id = s[k]?.imageID ?? '';
      return `${goQuote(k)}:${id === '' ? '{}' : `{"imageID":${goQuote(id)}}`}`;
    })
    .join(',')}}`;
}

/** The annotation value for a state. */
export function formatInPlaceUpdateState(state: InPlaceUpdateState): string {
  const parts = [
    `"revision":${goQuote(state.revision)}`,
    `"updateTimestamp":${goQuote(state.updateTimestamp)}`,
  ];
  parts.push(
    `"lastContainerStatuses":${state.lastContainerStatuses ? formatStatuses(state.lastContainerStatuses) : 'null'}`,
  );
  if (state.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (state.updateResources) parts.push('"updateResources":true');
  if (state.updateImages) parts.push('"updateImages":true');
  if (nonEmpty(state.nextContainerImages))
    parts.push(`"nextContainerImages":${goJson(state.nextContainerImages)}`);
  if (nonEmpty(state.nextContainerRefMetadata))
    parts.push(`"nextContainerRefMetadata":${formatMetaMap(state.nextContainerRefMetadata)}`);
  if (nonEmpty(state.nextContainerResources))
    parts.push(`"nextContainerResources":${goJson(state.nextContainerResources)}`);
  if (state.preCheckBeforeNext) {
    const names = state.preCheckBeforeNext.containersRequiredReady ?? [];
    parts.push(
      `"preCheckBeforeNext":${names.length > 0 ? `{"containersRequiredReady":${goJson(names)}}` : '{}'}`,
    );
  }
  if (state.containerBatchesRecord && state.containerBatchesRecord.length > 0) {
    const batches = state.containerBatchesRecord.map(
      (b) => `{"timestamp":${goQuote(b.timestamp)},"containers":${goJson(b.containers)}}`,
    );
    parts.push(`"containerBatchesRecord":[${batches.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

function asStringMap(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** Reads `ObjectMeta` JSON down to its labels and annotations. */
export function parseRefMetadata(v: unknown): ContainerRefMetadata {
  const meta = (isPlainObject(v) ? v : {}) as ObjectMeta;
  const labels = asStringMap(meta.labels);
  const annotations = asStringMap(meta.annotations);
  return { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
}

function parseTime(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '';
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : toRfc3339(t);
}

/** Parses an annotation value (throws {@link InPlaceUpdateAnnotationError} when it is not a JSON object). */
export function parseInPlaceUpdateState(
  json: string,
  annotation = INPLACE_UPDATE_STATE_KEY,
): InPlaceUpdateState {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new InPlaceUpdateAnnotationError(annotation, (e as Error).message);
  }
  if (!isPlainObject(raw)) throw new InPlaceUpdateAnnotationError(annotation, 'expected a JSON object');
  const state: InPlaceUpdateState = {
    revision: typeof raw['revision'] === 'string' ? raw['revision'] : '',
    updateTimestamp: parseTime(raw['updateTimestamp']),
  };
  const statuses = raw['lastContainerStatuses'];
  if (isPlainObject(statuses)) {
    state.lastContainerStatuses = {};
    for (const [k, v] of Object.entries(statuses)) {
      const id = isPlainObject(v) && typeof v['imageID'] === 'string' ? v['imageID'] : '';
      state.lastContainerStatuses[k] = id === '' ? {} : { imageID: id };
    }
  }
  if (raw['updateEnvFromMetadata'] === true) state.updateEnvFromMetadata = true;
  if (raw['updateResources'] === true) state.updateResources = true;
  if (raw['updateImages'] === true) state.updateImages = true;
  const images = asStringMap(raw['nextContainerImages']);
  if (images && Object.keys(images).length > 0) state.nextContainerImages = images;
  const refs = raw['nextContainerRefMetadata'];
  if (isPlainObject(refs) && Object.keys(refs).length > 0) {
    state.nextContainerRefMetadata = Object.fromEntries(
      Object.entries(refs).map(([k, v]) => [k, parseRefMetadata(v)]),
    );
  }
  const resources = raw['nextContainerResources'];
  if (isPlainObject(resources) && Object.keys(resources).length > 0) {
    state.nextContainerResources = Object.fromEntries(
      Object.entries(resources).map(([k, v]) => [k, readContainerResources(v)]),
    );
  }
  const pre = raw['preCheckBeforeNext'];
  if (isPlainObject(pre)) {
    const names = Array.isArray(pre['containersRequiredReady'])
      ? pre['containersRequiredReady'].filter((n): n is string => typeof n === 'string')
      : [];
    state.preCheckBeforeNext = names.length > 0 ? { containersRequiredReady: names } : {};
  }
  const batches = raw['containerBatchesRecord'];
  if (Array.isArray(batches) && batches.length > 0) {
    state.containerBatchesRecord = batches.filter(isPlainObject).map((b) => ({
      timestamp: parseTime(b['timestamp']),
      containers: Array.isArray(b['containers'])
        ? b['containers'].filter((n): n is string => typeof n === 'string')
        : [],
    }));
  }
  return state;
}

/** The raw state annotation of the pod (new key first, then the old one), if any. */
export function inPlaceUpdateStateAnnotation(pod: Pod): { key: string; value: string } | undefined {
  const a = pod.metadata?.annotations ?? {};
  if (a[INPLACE_UPDATE_STATE_KEY] !== undefined)
    return { key: INPLACE_UPDATE_STATE_KEY, value: a[INPLACE_UPDATE_STATE_KEY] };
  if (a[INPLACE_UPDATE_STATE_KEY_OLD] !== undefined)
    return { key: INPLACE_UPDATE_STATE_KEY_OLD, value: a[INPLACE_UPDATE_STATE_KEY_OLD] };
  return undefined;
}

/** The pod's parsed in-place update state, `undefined` without the annotation. */
export function readInPlaceUpdateState(pod: Pod): InPlaceUpdateState | undefined {
  const a = inPlaceUpdateStateAnnotation(pod);
  return a === undefined ? undefined : parseInPlaceUpdateState(a.value, a.key);
}

/** True when the state still has containers waiting for a next batch. */
export function hasNextBatch(state: InPlaceUpdateState): boolean {
  return (
    nonEmpty(state.nextContainerImages) ||
    nonEmpty(state.nextContainerRefMetadata) ||
    nonEmpty(state.nextContainerResources)
  );
}
