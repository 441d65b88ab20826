/**
 * The few structural shapes of Kubernetes object metadata that the helpers of this library read. They are kept
 * minimal and open (any extra field is allowed), so plain JSON from the API server, the bus, or generated API types
 * all fit without conversion.
 */

/** metav1.OwnerReference. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The subset of metav1.ObjectMeta used here. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  [key: string]: unknown;
}

/** Any Kubernetes object: apiVersion and kind may be missing on list items, metadata is always read defensively. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** apiVersion + kind, e.g. `{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' }`. */
export interface GroupVersionKind {
  apiVersion: string;
  kind: string;
}

/** Splits `group/version` (or the core `v1`) into its parts; the core group is `''`. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
