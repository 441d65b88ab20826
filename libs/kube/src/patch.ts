/** Patch types of the Kubernetes API and their Content-Type headers. */

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';
export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH_CONTENT_TYPE = 'application/strategic-merge-patch+json';
/** Server-side apply; the body may be YAML or JSON (JSON is valid YAML). */
export const APPLY_PATCH_CONTENT_TYPE = 'application/apply-patch+yaml';

export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: JSON_PATCH_CONTENT_TYPE,
  merge: MERGE_PATCH_CONTENT_TYPE,
  strategic: STRATEGIC_MERGE_PATCH_CONTENT_TYPE,
  apply: APPLY_PATCH_CONTENT_TYPE,
};
