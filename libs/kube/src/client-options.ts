// The shapes a KubeClient call takes and returns: object and collection references, list, write, patch and delete
// options, the client's own options (client.ts).
import type { RateLimit } from './client-rate-limit.js';
import type { PatchType } from './patch.js';
import type { LabelSelector } from './selector.js';

/** One object. `namespace` is required for namespaced kinds and ignored for cluster-scoped ones. */
export interface ResourceRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** A collection: all namespaces when `namespace` is omitted for a namespaced kind. */
export interface CollectionRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
}

export interface KubeList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export interface ListOptions {
  /** A selector string (`a=b,c in (d)`) or a LabelSelector object. */
  labelSelector?: string | LabelSelector;
  /** A field selector string or a map of equalities (`{ 'spec.nodeName': 'n1' }`). */
  fieldSelector?: string | Readonly<Record<string, string>>;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WriteOptions {
  /** Defaults to the client's `fieldManager`. */
  fieldManager?: string;
  /** Validate and admit, but persist nothing. */
  dryRun?: boolean;
}

export interface ReplaceOptions extends WriteOptions {
  /** Allow a PUT without `metadata.resourceVersion` (last write wins). Off by default: updates are optimistic. */
  unconditional?: boolean;
}

export interface PatchOptions extends WriteOptions {
  type: PatchType;
  /** Server-side apply only: take over fields owned by other managers. */
  force?: boolean;
  /** e.g. `status`, `scale`. */
  subresource?: string;
}

export interface DeleteOptions {
  /** The delete fails with a 409 Conflict unless the object still has this UID / resourceVersion. */
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

export interface KubeClientOptions {
  /** Sent as User-Agent; defaults to `regatta`. */
  userAgent?: string;
  /** Per-request timeout; defaults to 30 s. */
  timeoutMs?: number;
  /** Default field manager for writes (create/update/patch); required for apply patches. */
  fieldManager?: string;
  /** Told of every request once it ends (the program's REST client metrics); a throttled retry is a request. */
  onResponse?: (r: KubeResponse) => void;
  /** Requests wait for a token of this bucket (client-rate-limit.ts); none when omitted (`fromDefault`: the env's). */
  rateLimit?: RateLimit;
  /** A request the server throttled (429, 503 with Retry-After) is sent again up to this many times; default 10. */
  maxThrottleRetries?: number;
  /**
   * Called right before each write (any method but GET) goes out; what it throws fails the write unsent (a leader's
   * fence: libs/runtime LeaderElector.mayWrite).
   */
  writeGate?: () => void;
}

/** One API request as the client's metrics count it. */
export interface KubeResponse {
  method: string;
  /** The HTTP status; undefined when no answer came (refused, reset, timed out). */
  code: number | undefined;
  seconds: number;
}

export interface RawRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
}

/** The kubeconfig could not be loaded or names no cluster. */
