/**
 * The pre-download settings a workload carries as annotations (OpenKruise `pkg/util/imagejob/utilfunction`
 * `CreateJobForWorkload`; v1beta1 CloneSets hold them as `inPlaceUpdateStrategy` fields, which the v1alpha1 view
 * Regatta reads turns back into these annotations). A value that does not parse falls back to the default, as
 * upstream ignores the parse error.
 */
import { Annotations } from '@regatta/api';
import { type IntOrString, parseIntOrString, scaleKruise } from '@regatta/kube';

/** Pull timeout of generated jobs when the annotation is absent (`pullPolicy.timeoutSeconds`). */
export const DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS = 300;
/** Nodes pulling at once when the annotation is absent. */
export const DEFAULT_PREDOWNLOAD_PARALLELISM = 1;

export interface PreDownloadSettings {
  parallelism: number;
  timeoutSeconds: number;
}

type Annotated = Readonly<Record<string, string>> | undefined;

function integer(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[+-]?\d+$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `image-predownload-parallelism` (default 1) and `image-predownload-timeout-seconds` (default 300). */
export function preDownloadSettings(annotations: Annotated): PreDownloadSettings {
  const timeout = integer(annotations?.[Annotations.ImagePredownloadTimeoutSeconds]);
  return {
    parallelism: integer(annotations?.[Annotations.ImagePredownloadParallelism]) ?? DEFAULT_PREDOWNLOAD_PARALLELISM,
    // upstream parses it as an int32: anything beyond falls back to the default
    timeoutSeconds:
      timeout !== undefined && Math.abs(timeout) <= 2 ** 31 - 1 ? timeout : DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS,
  };
}

/**
 * `image-predownload-min-updated-ready-pods`: an int or a percentage of `replicas`, rounded up; 0 when absent or
 * unparsable.
 */
export function minUpdatedReadyPods(annotations: Annotated, replicas: number): number {
  const raw = annotations?.[Annotations.ImagePredownloadMinUpdatedReadyPods];
  if (raw === undefined) return 0;
  try {
    return scaleKruise(parseIntOrString(raw) as IntOrString, replicas, true);
  } catch {
    return 0;
  }
}
