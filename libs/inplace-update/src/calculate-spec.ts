/**
 * Whether moving a pod from one revision to another can be done in place, and what it changes
 * (`defaultCalculateInPlaceUpdateSpec`): only `replace` of container images in the pod spec (and, with vertical
 * scaling, of cpu/memory requests and limits that keep the QoS class), plus any template metadata change; labels/annotations that containers read through env are recorded per container so that only those
 * containers restart.
 */
import { createJsonPatch, isPlainObject, unescapePointerToken } from '@regatta/kube';
import type { Container } from '@regatta/lifecycle';
import {
  type ControllerRevision,
  type PodTemplate,
  canVolumeClaimTemplatesUpdateInPlace,
  templateFromRevision,
} from '@regatta/revision';
import { isContainerReferenceToMeta } from './container-meta.js';
import { createMetadataPatch } from './metadata-patch.js';
import { type ContainerResources, isContainerResourcesPath, podQosClass, readResourceOp } from './resize.js';
import type { ContainerRefMetadata } from './state.js';
import type { UpdateSpec } from './update-spec.js';

export interface InPlaceUpdateOptions {
  /** `inPlaceUpdateStrategy.gracePeriodSeconds`: time between marking the pod not-ready and changing its containers. */
  gracePeriodSeconds?: number;
  /** Gate `RecreatePodWhenChangeVCTInCloneSetGate` (default off): a volumeClaimTemplates hash change forbids in-place. */
  recreatePodWhenChangeVCT?: boolean;
  /** Skip that VCT check (CloneSet `InPlaceOnly`). */
  ignoreVolumeClaimTemplatesHashDiff?: boolean;
  /** Gate `InPlaceUpdateEnvFromMetadata` (default on): restart only the containers whose env reads a changed label/annotation. */
  envFromMetadata?: boolean;
  /**
   * Gate `InPlaceWorkloadVerticalScaling` where the API server serves `pods/resize` (docs/adr/0087): a change of
   * existing cpu/memory requests or limits resizes the pod in place unless its QoS class would change. Off: any
   * resources change recreates the pod (upstream with the gate off).
   */
  verticalScaling?: boolean;
  /** The revision id written to pods (`GetRevision`; Advanced DaemonSet uses the hash label). Default: the revision name. */
  revisionId?: (revision: ControllerRevision) => string;
}

/** Why an update cannot happen in place. */
export type NotInPlaceReason =
  | 'NoRevision'
  | 'InvalidRevision'
  | 'VolumeClaimTemplatesChanged'
  | 'NotSpecOrMetadata'
  | 'SpecFieldAddedOrRemoved'
  | 'SpecFieldChanged'
  | 'ResourcesNotResizable'
  | 'QoSClassChanged'
  /** The API server refused the `pods/resize` write (the node cannot hold the new requests). */
  | 'ResizeRefused';

/** The decision: in place with a spec, or not with a reason (the caller recreates, or fails for `InPlaceOnly`). */
export type InPlaceUpdateDecision =
  | { inPlace: true; spec: UpdateSpec }
  | { inPlace: false; reason: NotInPlaceReason; message: string };

const IMAGE_PATH = /^\/spec\/containers\/(\d+)\/image$/;

function notInPlace(reason: NotInPlaceReason, message: string): InPlaceUpdateDecision {
  return { inPlace: false, reason, message };
}

function deleteKey(template: PodTemplate, field: 'labels' | 'annotations', key: string): void {
  const map = template.metadata?.[field];
  if (map) delete map[key];
}

/** `QoSClassChanged` when the templates' QoS classes differ (a running pod cannot change it), else undefined. */
function qosChange(oldTemplate: PodTemplate, newTemplate: PodTemplate): InPlaceUpdateDecision | undefined {
  const before = podQosClass(oldTemplate.spec as { containers?: Container[] } | undefined);
  const after = podQosClass(newTemplate.spec as { containers?: Container[] } | undefined);
  if (before === after) return undefined;
  return notInPlace(
    'QoSClassChanged',
    `the resources change would move the pod's QoS class from ${before} to ${after}, which a running pod cannot change`,
  );
}

/** Computes the in-place update from `oldRevision` to `newRevision`. */
export function calculateInPlaceUpdateSpec(
  oldRevision: ControllerRevision | null | undefined,
  newRevision: ControllerRevision | null | undefined,
  options: InPlaceUpdateOptions = {},
): InPlaceUpdateDecision {
  if (!oldRevision || !newRevision)
    return notInPlace('NoRevision', 'the pod matches no stored revision, so its current template is unknown');
  if (
    options.recreatePodWhenChangeVCT &&
    !options.ignoreVolumeClaimTemplatesHashDiff &&
    !canVolumeClaimTemplatesUpdateInPlace(oldRevision, newRevision)
  ) {
    return notInPlace(
      'VolumeClaimTemplatesChanged',
      'volumeClaimTemplates changed, the pod must be recreated with new claims',
    );
  }
  let oldTemplate: PodTemplate;
  let newTemplate: PodTemplate;
  try {
    oldTemplate = templateFromRevision(oldRevision);
    newTemplate = templateFromRevision(newRevision);
  } catch (e) {
    return notInPlace('InvalidRevision', (e as Error).message);
  }
  const oldContainers =
    (isPlainObject(oldTemplate.spec)
      ? (oldTemplate.spec['containers'] as Container[] | undefined)
      : undefined) ?? [];
  const newContainers =
    (isPlainObject(newTemplate.spec)
      ? (newTemplate.spec['containers'] as Container[] | undefined)
      : undefined) ?? [];

  const containerImages: Record<string, string> = {};
  const containerResources: Record<string, ContainerResources> = {};
  const metadataOps: { op: string; path: string; value?: unknown }[] = [];
  for (const op of createJsonPatch(oldRevision.data, newRevision.data)) {
    const path = op.path.replace('/spec/template', '');
    if (!path.startsWith('/spec/')) {
      if (path.startsWith('/metadata/')) {
        metadataOps.push({ op: op.op, path, ...('value' in op ? { value: op.value } : {}) });
        continue;
      }
      return notInPlace('NotSpecOrMetadata', `${op.op} ${op.path} is outside the pod spec and metadata`);
    }
    if (options.verticalScaling && isContainerResourcesPath(path)) {
      const r = readResourceOp({ ...op, path });
      const c = r.ok ? oldContainers[r.container] : undefined;
      if (!r.ok || c === undefined)
        // a limit added or removed often moves the QoS class: that is then the reason given (and evented)
        return (
          qosChange(oldTemplate, newTemplate) ??
          notInPlace('ResourcesNotResizable', r.ok ? `${path} names no existing container` : r.message)
        );
      ((containerResources[c.name] ??= {})[r.kind] ??= {})[r.resource] = r.value;
      continue;
    }
    if (op.op !== 'replace')
      return notInPlace('SpecFieldAddedOrRemoved', `${op.op} ${path} adds or removes a pod spec field`);
    const image = IMAGE_PATH.exec(path);
    if (image) {
      const c = oldContainers[Number(image[1])];
      if (c === undefined || typeof op.value !== 'string')
        return notInPlace('SpecFieldChanged', `${path} does not name an existing container image`);
      containerImages[c.name] = op.value;
      continue;
    }
    return notInPlace('SpecFieldChanged', `replace ${path} changes more than a container image`);
  }

  if (Object.keys(containerResources).length > 0) {
    const qos = qosChange(oldTemplate, newTemplate);
    if (qos) return qos;
  }

  const containerRefMetadata: Record<string, ContainerRefMetadata> = {};
  let updateEnvFromMetadata = false;
  let metaDataPatch: string | undefined;
  if (metadataOps.length > 0) {
    if (options.envFromMetadata ?? true) {
      for (const op of metadataOps) {
        if (op.op !== 'replace' && op.op !== 'add') continue;
        const words = op.path.split('/');
        if (words.length < 4) continue;
        const field = words[2];
        if (field !== 'labels' && field !== 'annotations') continue;
        const key = unescapePointerToken(words.slice(3).join('/'));
        const refPath = field === 'labels' ? 'metadata.labels' : 'metadata.annotations';
        for (const c of newContainers) {
          if (!isContainerReferenceToMeta(c, refPath, key)) continue;
          const meta = (containerRefMetadata[c.name] ??= {});
          (meta[field] ??= {})[key] = String(op.value);
          deleteKey(oldTemplate, field, key);
          deleteKey(newTemplate, field, key);
          updateEnvFromMetadata = true;
        }
      }
    }
    metaDataPatch = createMetadataPatch(oldTemplate.metadata, newTemplate.metadata);
  }

  const spec: UpdateSpec = {
    revision: options.revisionId ? options.revisionId(newRevision) : (newRevision.metadata?.name ?? ''),
  };
  if (Object.keys(containerImages).length > 0) spec.containerImages = containerImages;
  if (Object.keys(containerResources).length > 0) spec.containerResources = containerResources;
  if (Object.keys(containerRefMetadata).length > 0) spec.containerRefMetadata = containerRefMetadata;
  if (metaDataPatch !== undefined) spec.metaDataPatch = metaDataPatch;
  if (updateEnvFromMetadata) spec.updateEnvFromMetadata = true;
  if (options.gracePeriodSeconds) spec.graceSeconds = options.gracePeriodSeconds;
  return { inPlace: true, spec };
}

/** `CanUpdateInPlace`: true when {@link calculateInPlaceUpdateSpec} finds an in-place update. */
export function canUpdateInPlace(
  oldRevision: ControllerRevision | null | undefined,
  newRevision: ControllerRevision | null | undefined,
  options: InPlaceUpdateOptions = {},
): boolean {
  return calculateInPlaceUpdateSpec(oldRevision, newRevision, options).inPlace;
}
