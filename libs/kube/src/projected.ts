/**
 * Projected objects (docs/adr/0060-pod-projection.md): a cache may hold only the fields its program reads. Such an
 * object must never be written back whole — a PUT of it would drop every field the projection left out. The
 * projection marks the object and each nested object it trimmed with {@link PROJECTED}, an enumerable Symbol
 * property: JSON ignores it (nothing reaches the wire), object spread keeps it (a planned pod built with `{...pod}`
 * is still marked). {@link KubeClient.replace} refuses a marked object; writes of a cached object go out as the
 * JSON patch {@link updatePatch} computes from the object read to the one planned.
 */
import { type JsonPatchOperation, createJsonPatch } from './json-patch.js';
import { isPlainObject } from './json.js';
import { parsePointer } from './json-pointer.js';
import type { KubeClient } from './client.js';
import type { KubeObject } from './meta.js';

/** The marker of a projected object, and of each nested object whose fields it trimmed. */
export const PROJECTED: unique symbol = Symbol.for('regatta.projected');

/** Marks `obj` (in place) as projected; returns it. */
export function markProjected<T extends object>(obj: T): T {
  (obj as Record<symbol, unknown>)[PROJECTED] = true;
  return obj;
}

/** True when the object itself carries the marker. */
export function isProjected(obj: unknown): boolean {
  return typeof obj === 'object' && obj !== null && (obj as Record<symbol, unknown>)[PROJECTED] === true;
}

/** True when the value or anything inside it carries the marker. */
export function containsProjected(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(containsProjected);
  if (!isPlainObject(v)) return false;
  if (isProjected(v)) return true;
  return Object.values(v).some(containsProjected);
}

/**
 * A write would send a projected object (or a trimmed part of one) whole and lose the fields it left out, or a
 * guarded patch has no version to guard it.
 */
export class ProjectedWriteError extends Error {
  readonly code = 'REGATTA_KUBE_PROJECTED_WRITE';

  constructor(what: string, reason = PROJECTED_REASON) {
    super(`${what}: ${reason}`);
    this.name = 'ProjectedWriteError';
  }
}

const PROJECTED_REASON =
  "the object is a cache's projection (docs/adr/0060-pod-projection.md) and lacks fields; sending it whole would " +
  'drop them — write a patch from the cached object to the planned one (updatePatch)';

function valueAt(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of parsePointer(path)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isPlainObject(cur)) cur = cur[t];
    else return undefined;
  }
  return cur;
}

function withoutStatusAndVersion(obj: KubeObject): Record<string, unknown> {
  const { status: _status, ...rest } = obj as KubeObject & { status?: unknown };
  const { resourceVersion: _rv, ...metadata } = obj.metadata ?? {};
  return { ...rest, metadata };
}

/**
 * The update of `read` to `planned` as one RFC 6902 patch of the main resource, guarded like a PUT of `planned`: its
 * first operation replaces `metadata.resourceVersion` with `resourceVersion` (default: the version of `read`), which
 * the API server takes as the object's version and answers 409 Conflict when the stored one differs (verified in
 * projected.int.test.ts). `status` is left out, as a PUT of the main resource ignores it. The other operations are
 * the difference between the two: fields neither has are not touched, so a projected `read` loses nothing. Throws
 * {@link ProjectedWriteError} when an operation would replace or add a trimmed part of a projected object whole.
 */
export function updatePatch(
  read: KubeObject,
  planned: KubeObject,
  resourceVersion = read.metadata?.resourceVersion,
): JsonPatchOperation[] {
  if (!resourceVersion)
    throw new ProjectedWriteError(`patch of ${read.metadata?.name}`, 'no resourceVersion to guard it with');
  const from = withoutStatusAndVersion(read);
  const to = withoutStatusAndVersion(planned);
  const ops = createJsonPatch(from, to);
  for (const op of ops) {
    const trimmed =
      (op.op === 'replace' &&
        (containsProjected(valueAt(from, op.path)) || containsProjected(valueAt(to, op.path)))) ||
      (op.op === 'add' && containsProjected(valueAt(to, op.path)));
    if (trimmed) throw new ProjectedWriteError(`${op.op} ${op.path} of ${read.metadata?.name}`);
  }
  return [{ op: 'replace', path: '/metadata/resourceVersion', value: resourceVersion }, ...ops];
}

/**
 * Writes `planned` over `read` as {@link updatePatch}'s guarded patch: the one write that takes the place of a PUT
 * of a cached (perhaps projected) object. `type` names the resource, which a cached object may not carry.
 */
export function writeUpdatePatch<T extends KubeObject>(
  client: Pick<KubeClient, 'patch'>,
  type: { apiVersion: string; kind: string },
  read: T,
  planned: T,
  resourceVersion = read.metadata?.resourceVersion,
): Promise<T> {
  return client.patch<T>(
    { ...type, namespace: read.metadata?.namespace, name: read.metadata?.name ?? '' },
    updatePatch(read, planned, resourceVersion),
    { type: 'json' },
  );
}
