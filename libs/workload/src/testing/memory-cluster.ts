/**
 * For unit tests of controllers and controls: objects held in memory, read through {@link ObjectReader}s (as a bus
 * cache would show them, here always up to date) and written through a {@link KubeWriter} that applies each write
 * and records it. Patches: `merge` is a JSON merge patch; `strategic` is one too, except that `ownerReferences`
 * merge by uid (`$patch: delete` removes) and `status.conditions` by type, as the API server does for pods.
 * `list` reads (unrecorded) by LabelSelector. `failOn` makes chosen writes fail. Not an API server: no admission, no
 * validation, no generation bumps.
 */
import {
  AlreadyExistsError,
  ConflictError,
  type JsonPatchOperation,
  type KubeClient,
  type KubeObject,
  type LabelSelector,
  NotFoundError,
  applyJsonPatch,
  applyMergePatch,
  controllerRef,
  labelSelectorMatches,
} from '@regatta/kube';
import type { KubeWriter, ObjectReader } from '../types.js';

export interface RecordedWrite {
  verb: 'create' | 'replace' | 'patch' | 'patchStatus' | 'delete';
  kind: string;
  namespace: string | undefined;
  name: string;
  /** The body or patch sent. */
  body?: unknown;
}

type Ref = { apiVersion?: string; kind: string; namespace?: string | undefined; name: string };

const keyOf = (kind: string, ns: string | undefined, name: string) => `${kind}/${ns ?? ''}/${name}`;

function mergeByKey(current: unknown, patch: unknown, key: string): unknown[] {
  const out = Array.isArray(current) ? [...(current as Record<string, unknown>[])] : [];
  for (const item of Array.isArray(patch) ? (patch as Record<string, unknown>[]) : []) {
    const i = out.findIndex((c) => c[key] === item[key]);
    if (item['$patch'] === 'delete') {
      if (i >= 0) out.splice(i, 1);
    } else if (i >= 0) out[i] = { ...out[i], ...item };
    else out.push(item);
  }
  return out;
}

function strategic(target: KubeObject, patch: Record<string, unknown>): KubeObject {
  const meta = (patch['metadata'] ?? {}) as Record<string, unknown>;
  const status = (patch['status'] ?? {}) as Record<string, unknown>;
  const refs = meta['ownerReferences'];
  const conditions = status['conditions'];
  const rest = {
    ...patch,
    metadata: Object.fromEntries(
      Object.entries(meta).filter(([k]) => k !== 'ownerReferences' && k !== 'uid'),
    ),
    ...(patch['status']
      ? { status: Object.fromEntries(Object.entries(status).filter(([k]) => k !== 'conditions')) }
      : {}),
  };
  const out = applyMergePatch<KubeObject & { status?: Record<string, unknown> }>(target, rest);
  if (refs !== undefined)
    out.metadata = {
      ...out.metadata,
      ownerReferences: mergeByKey(out.metadata?.ownerReferences, refs, 'uid') as never,
    };
  if (conditions !== undefined)
    out.status = { ...out.status, conditions: mergeByKey(out.status?.['conditions'], conditions, 'type') };
  return out;
}

export class MemoryCluster {
  readonly writes: RecordedWrite[] = [];
  readonly #objects = new Map<string, KubeObject>();
  #generated = 0;
  #rv = 1;
  #uid = 1;
  #fail: ((w: RecordedWrite) => unknown) | undefined;

  /** Stores objects as they are (a uid and resourceVersion are given when missing). */
  add(...objs: KubeObject[]): void {
    for (const o of objs) this.#store(o);
  }

  /** Makes a write fail with the error `f` returns for it (undefined: the write goes through). */
  failOn(f: ((w: RecordedWrite) => unknown) | undefined): void {
    this.#fail = f;
  }

  /** The stored object, if any. */
  get<T extends KubeObject = KubeObject>(
    kind: string,
    namespace: string | undefined,
    name: string,
  ): T | undefined {
    return this.#objects.get(keyOf(kind, namespace, name)) as T | undefined;
  }

  /** All stored objects of a kind. */
  all<T extends KubeObject = KubeObject>(kind: string): T[] {
    return [...this.#objects.values()].filter((o) => o.kind === kind) as T[];
  }

  /** Writes of that verb (and kind), in order. */
  written(verb: RecordedWrite['verb'], kind?: string): RecordedWrite[] {
    return this.writes.filter((w) => w.verb === verb && (kind === undefined || w.kind === kind));
  }

  /** A reader of one kind, with the `ownerUid` and `namespace` indexes the bus caches have. */
  reader(kind: string): ObjectReader<KubeObject> {
    return {
      get: (ns, name) => this.get(kind, ns, name),
      byIndex: (index, value) =>
        this.all(kind).filter((o) =>
          index === 'ownerUid'
            ? controllerRef(o)?.uid === value
            : index === 'namespace'
              ? o.metadata?.namespace === value
              : false,
        ),
      list: (opts = {}) =>
        this.all(kind).filter(
          (o) =>
            (opts.namespace === undefined || o.metadata?.namespace === opts.namespace) &&
            (opts.filter?.(o) ?? true),
        ),
    };
  }

  readonly writer: KubeWriter & Pick<KubeClient, 'list'> = {
    get: async <T extends KubeObject>(ref: Ref): Promise<T> => {
      const o = this.get<T>(ref.kind, ref.namespace, ref.name);
      if (!o) throw this.#notFound(ref);
      return structuredClone(o);
    },
    // a read: not recorded; selectors as LabelSelector objects only (strings are not parsed here)
    list: async <T extends KubeObject>(ref: Omit<Ref, 'name'>, opts: { labelSelector?: unknown } = {}) => {
      if (typeof opts.labelSelector === 'string')
        throw new TypeError('MemoryCluster lists by LabelSelector objects only');
      const selector = opts.labelSelector as LabelSelector | undefined;
      const items = this.all(ref.kind).filter(
        (o) =>
          (ref.namespace === undefined || o.metadata?.namespace === ref.namespace) &&
          (selector === undefined || labelSelectorMatches(selector, o.metadata?.labels)),
      );
      return { items: structuredClone(items) as T[], metadata: {} };
    },
    create: async <T extends KubeObject>(input: T): Promise<T> => {
      // `generateName` without a name: the server's suffix, here a counter
      const obj =
        !input.metadata?.name && input.metadata?.generateName
          ? {
              ...input,
              metadata: { ...input.metadata, name: `${input.metadata.generateName}${++this.#generated}` },
            }
          : input;
      const ref = this.#ref(obj);
      this.#record({ verb: 'create', kind: ref.kind, namespace: ref.namespace, name: ref.name, body: obj });
      if (this.get(ref.kind, ref.namespace, ref.name))
        throw new AlreadyExistsError({
          status: 409,
          reason: 'AlreadyExists',
          serverMessage: `${ref.name} already exists`,
        });
      return this.#store(structuredClone(obj)) as T;
    },
    replace: async <T extends KubeObject>(obj: T): Promise<T> => {
      const ref = this.#ref(obj);
      this.#record({ verb: 'replace', kind: ref.kind, namespace: ref.namespace, name: ref.name, body: obj });
      const cur = this.#existing(ref);
      if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== cur.metadata?.resourceVersion)
        throw new ConflictError({
          status: 409,
          reason: 'Conflict',
          serverMessage: `${ref.name} was modified`,
        });
      return this.#store(
        { ...structuredClone(obj), metadata: { ...obj.metadata, uid: cur.metadata?.uid } },
        true,
      ) as T;
    },
    patch: async <T extends KubeObject>(ref: Ref, patch: unknown, options: { type: string }): Promise<T> => {
      this.#record({ verb: 'patch', kind: ref.kind, namespace: ref.namespace, name: ref.name, body: patch });
      return this.#patch(ref, patch, options.type) as T;
    },
    patchStatus: async <T extends KubeObject>(
      ref: Ref,
      patch: unknown,
      options: { type: string },
    ): Promise<T> => {
      this.#record({
        verb: 'patchStatus',
        kind: ref.kind,
        namespace: ref.namespace,
        name: ref.name,
        body: patch,
      });
      return this.#patch(ref, patch, options.type) as T;
    },
    // discovery only, as a 1.36 API server answers it (the core group serves pods/resize: docs/adr/0087)
    request: async (method: string, path: string): Promise<unknown> => {
      if (method === 'GET' && path === '/api/v1')
        return {
          kind: 'APIResourceList',
          groupVersion: 'v1',
          resources: [{ name: 'pods' }, { name: 'pods/resize' }],
        };
      throw new TypeError(`MemoryCluster does not answer ${method} ${path}`);
    },
    delete: async <T extends KubeObject>(ref: Ref): Promise<T | undefined> => {
      this.#record({ verb: 'delete', kind: ref.kind, namespace: ref.namespace, name: ref.name });
      const cur = this.#existing(ref);
      this.#objects.delete(keyOf(ref.kind, ref.namespace, ref.name));
      return cur as T;
    },
  } as unknown as KubeWriter & Pick<KubeClient, 'list'>;

  #patch(ref: Ref, patch: unknown, type: string): KubeObject {
    const cur = this.#existing(ref);
    const p = patch as Record<string, unknown>;
    const rv = (p['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion;
    if (rv && rv !== cur.metadata?.resourceVersion)
      throw new ConflictError({ status: 409, reason: 'Conflict', serverMessage: `${ref.name} was modified` });
    if (type === 'json') {
      // RFC 6902 as the API server takes it: the patched object's resourceVersion must be the stored one
      const patched = applyJsonPatch<KubeObject>(cur, patch as JsonPatchOperation[]);
      if (patched.metadata?.resourceVersion !== cur.metadata?.resourceVersion)
        throw new ConflictError({
          status: 409,
          reason: 'Conflict',
          serverMessage: `${ref.name} was modified`,
        });
      return this.#store({ ...patched, metadata: { ...patched.metadata, uid: cur.metadata?.uid } }, true);
    }
    const next = type === 'strategic' ? strategic(cur, p) : applyMergePatch<KubeObject>(cur, patch);
    return this.#store({ ...next, metadata: { ...next.metadata, uid: cur.metadata?.uid } }, true);
  }

  #record(w: RecordedWrite): void {
    this.writes.push(w);
    const err = this.#fail?.(w);
    if (err !== undefined) throw err;
  }

  #ref(obj: KubeObject): Ref {
    return { kind: obj.kind ?? '', namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' };
  }

  #existing(ref: Ref): KubeObject {
    const cur = this.get(ref.kind, ref.namespace, ref.name);
    if (!cur) throw this.#notFound(ref);
    return cur;
  }

  #notFound(ref: Ref): Error {
    return new NotFoundError({
      status: 404,
      reason: 'NotFound',
      serverMessage: `${ref.kind} ${ref.name} not found`,
    });
  }

  #store(o: KubeObject, bump = false): KubeObject {
    const meta = { ...o.metadata };
    meta.uid ??= `uid-${this.#uid++}`;
    if (bump || !meta.resourceVersion) meta.resourceVersion = String(++this.#rv);
    const stored = { ...o, metadata: meta };
    this.#objects.set(keyOf(o.kind ?? '', meta.namespace, meta.name ?? ''), stored);
    return structuredClone(stored);
  }
}
