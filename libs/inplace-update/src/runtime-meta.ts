/** `apps.kruise.io/runtime-containers-meta`, written by the node daemon (`RuntimeContainerMetaSet`). */
import { isPlainObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { InPlaceUpdateAnnotationError } from './errors.js';
import { RUNTIME_CONTAINERS_META_KEY } from './keys.js';

/** One running container as the node daemon sees it. */
export interface RuntimeContainerMeta {
  name: string;
  containerID: string;
  restartCount: number;
  hashes: {
    /** The kubelet's hash of the container spec (uint64; may exceed 2^53 and lose precision in JSON). */
    plainHash: number;
    /** `envFromMetadataHash` of the values the running container received. */
    extractedEnvFromMetadataHash?: number;
  };
}

/** The pod's runtime container meta, `undefined` without the annotation (throws for an unparsable one). */
export function readRuntimeContainersMeta(pod: Pod): RuntimeContainerMeta[] | undefined {
  const raw = pod.metadata?.annotations?.[RUNTIME_CONTAINERS_META_KEY];
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new InPlaceUpdateAnnotationError(RUNTIME_CONTAINERS_META_KEY, (e as Error).message);
  }
  if (!isPlainObject(parsed))
    throw new InPlaceUpdateAnnotationError(RUNTIME_CONTAINERS_META_KEY, 'expected a JSON object');
  const list = Array.isArray(parsed['containers']) ? parsed['containers'] : [];
  return list.filter(isPlainObject).map((c) => {
    const hashes = isPlainObject(c['hashes']) ? c['hashes'] : {};
    const env = hashes['extractedEnvFromMetadataHash'];
    return {
      name: typeof c['name'] === 'string' ? c['name'] : '',
      containerID: typeof c['containerID'] === 'string' ? c['containerID'] : '',
      restartCount: typeof c['restartCount'] === 'number' ? c['restartCount'] : 0,
      hashes: {
        plainHash: typeof hashes['plainHash'] === 'number' ? hashes['plainHash'] : 0,
        ...(typeof env === 'number' ? { extractedEnvFromMetadataHash: env } : {}),
      },
    };
  });
}

/** The annotation value for a list (what a node daemon or simulator writes). */
export function formatRuntimeContainersMeta(containers: readonly RuntimeContainerMeta[]): string {
  return JSON.stringify({
    containers: containers.map((c) => ({
      name: c.name,
      containerID: c.containerID,
      restartCount: c.restartCount,
      hashes: {
        plainHash: c.hashes.plainHash,
        ...(c.hashes.extractedEnvFromMetadataHash
          ? { extractedEnvFromMetadataHash: c.hashes.extractedEnvFromMetadataHash }
          : {}),
      },
    })),
  });
}
