/**
 * What a declaration implies, as pure functions (unit-tested): the kinds to register on the bus, the caches to build,
 * and for each cache the handler that turns a change into requests (through predicates, owner mapping and
 * expectations).
 */
import { resourceId, unionFieldSets, type FieldSet, type KindRef } from '@regatta/bus';
import { KIND_TABLE, type Change, type KubeObject, type LabelSelector, labelSelectorMatches } from '@regatta/kube';
import {
  enqueueForOwner,
  observeOwned,
  requestForObject,
  requestKey,
  type Expectations,
  type OwnerKind,
  type Priority,
  type Request,
} from '@regatta/runtime';
import { KitError } from './errors.js';
import type { KindDeclaration, KindsDeclaration, Readers, WebhookDeclaration } from './declaration.js';

type AnyDeclaration = KindsDeclaration;

/** The For kind as owner references name it, with its scope (a cluster-scoped owner's request has no namespace). */
export function ownerKindOf(kind: KindRef): OwnerKind {
  return { group: kind.group, kind: kind.kind, ...(kind.namespaced ? {} : { namespaced: false }) };
}

/** How each declaration of one reader name adds to its cache: the keeps given, and the projections (or none). */
interface CacheEntry {
  kind: KindRef;
  keeps: ((o: KubeObject) => boolean)[];
  /** Every declaration of the name so far gave a projection; their union. Undefined: one keeps every field. */
  project: FieldSet | undefined;
}

function addProjection(entry: CacheEntry, first: boolean, project: FieldSet | undefined): void {
  // a reader declared without a projection keeps every field: no declaration can take a field another reads
  if (first) entry.project = project;
  else entry.project = entry.project && project ? unionFieldSets(entry.project, project) : undefined;
}

function declared(
  name: string,
  kind: KindRef,
  keep: ((o: KubeObject) => boolean) | undefined,
  project: FieldSet | undefined,
): KindDeclaration {
  return { name, kind, ...(keep ? { keep } : {}), ...(project ? { project } : {}) };
}

/**
 * One cache per reader name: its kind, what it keeps (every `keep` given for that name must accept) and the fields it
 * keeps (the union of the projections given for that name; none when one declaration of it gives none).
 */
export function cachesOf(decl: AnyDeclaration, namespaceScoped: boolean): KindDeclaration[] {
  const byName = new Map<string, CacheEntry>();
  const all: KindDeclaration[] = [decl.forKind, ...decl.owns, ...decl.watches];
  if (namespaceScoped && !all.some((d) => d.name === NAMESPACES))
    all.push({ name: NAMESPACES, kind: KIND_TABLE.namespaces });
  for (const d of all) {
    const found = byName.get(d.name);
    const entry = found ?? { kind: d.kind, keeps: [], project: undefined };
    if (d.keep) entry.keeps.push(d.keep);
    addProjection(entry, !found, d.project);
    byName.set(d.name, entry);
  }
  return [...byName].map(([name, { kind, keeps, project }]) => {
    const keep = keeps.length === 0 ? undefined : (o: KubeObject) => keeps.every((k) => k(o));
    return declared(name, kind, keep, project);
  });
}

/**
 * The caches of several declarations run as one program: one per reader name (the kinds must agree); a name several
 * declarations read keeps what any of them keeps, and the union of their fields (every field when one reads all).
 */
export function cachesOfAll(decls: readonly AnyDeclaration[], namespaceScoped: boolean): KindDeclaration[] {
  const byName = new Map<string, CacheEntry & { all: boolean }>();
  for (const decl of decls) {
    for (const c of cachesOf(decl, namespaceScoped)) {
      const found = byName.get(c.name);
      const entry = found ?? { kind: c.kind, keeps: [], all: false, project: undefined };
      if (entry.kind.plural !== c.kind.plural || entry.kind.group !== c.kind.group) {
        throw new KitError(
          'REGATTA_KIT_DECLARATION',
          `reader '${c.name}' is declared for ${entry.kind.plural} and ${c.kind.plural}; use two names`,
        );
      }
      if (c.keep) entry.keeps.push(c.keep);
      else entry.all = true;
      addProjection(entry, !found, c.project);
      byName.set(c.name, entry);
    }
  }
  return [...byName].map(([name, { kind, keeps, all, project }]) => {
    const keep = all ? undefined : (o: KubeObject) => keeps.some((k) => k(o));
    return declared(name, kind, keep, project);
  });
}

/** The kinds several declarations run as one program announce on the bus, each once. */
export function kindsOfAll(decls: readonly AnyDeclaration[], namespaceScoped: boolean): KindRef[] {
  const out = new Map<string, KindRef>();
  for (const c of cachesOfAll(decls, namespaceScoped)) out.set(resourceId(c.kind), c.kind);
  return [...out.values()];
}

/** One webhook server for several declarations: every route, every configuration. */
export function mergeWebhooks(decls: readonly WebhookDeclaration[]): WebhookDeclaration {
  return {
    routes: decls.flatMap((d) => d.routes),
    configurations: (url, ca, scope) => decls.flatMap((d) => d.configurations(url, ca, scope)),
    followedReaders: [...new Set(decls.flatMap((d) => d.followedReaders ?? []))],
  };
}

/** The reader name of the namespaces cache a namespace-scoped controller adds. */
export const NAMESPACES = 'namespaces';

/** The kinds to announce on the bus, each once, the For kind first. */
export function kindsToRegister(decl: AnyDeclaration, namespaceScoped: boolean): KindRef[] {
  const out = new Map<string, KindRef>();
  for (const c of cachesOf(decl, namespaceScoped)) out.set(resourceId(c.kind), c.kind);
  return [...out.values()];
}

/**
 * For each cache, the function from one of its changes to the requests to enqueue: For changes pass the predicates
 * and enqueue themselves; Owns changes feed the owner's expectations and enqueue the owner; Watches changes go
 * through their mapping function. A name declared several times gets all of them, de-duplicated.
 */
export function eventHandlers(
  decl: AnyDeclaration,
  deps: { expectations: Expectations; readers: Readers<Record<string, KubeObject>> },
): Map<string, (change: Change) => Request[]> {
  const parts = new Map<string, ((change: Change) => readonly Request[])[]>();
  const add = (name: string, fn: (change: Change) => readonly Request[]) =>
    parts.set(name, [...(parts.get(name) ?? []), fn]);

  const { forKind } = decl;
  add(forKind.name, (change) =>
    forKind.predicates.every((p) => p(change)) ? [requestForObject(change.object)] : [],
  );
  const toOwner = enqueueForOwner(ownerKindOf(forKind.kind));
  for (const owned of decl.owns) {
    add(owned.name, (change) => {
      const reqs = toOwner(change);
      if (owned.expectations !== 'none') {
        for (const req of reqs) {
          observeOwned(deps.expectations, requestKey(req), change, {
            updates: owned.expectations === 'scale-and-updates',
          });
        }
      }
      return reqs;
    });
  }
  for (const watched of decl.watches) add(watched.name, (change) => watched.map(change, deps.readers));

  const out = new Map<string, (change: Change) => Request[]>();
  for (const [name, fns] of parts) {
    out.set(name, (change) => {
      const seen = new Map<string, Request>();
      for (const fn of fns) for (const r of fn(change)) seen.set(requestKey(r), r);
      return [...seen.values()];
    });
  }
  return out;
}

/**
 * The priority a request asked for by `change` is queued at (libs/runtime `WorkQueue.add`): the For object itself
 * being deleted goes first (docs/adr/0067: its finalizer holds a user's delete, and the reconcile that lets it go is
 * short), then changes made now, then what the caches found at start (docs/adr/0066). `forCache`: the change comes
 * from the For kind's cache.
 */
export function queuePriority(change: Change, req: Request, forCache: boolean): Priority {
  const o = change.object;
  const deleting = forCache && change.type !== 'delete' && !!o.metadata?.deletionTimestamp;
  if (deleting && requestKey(req) === requestKey(requestForObject(o))) return 'high';
  return change.inInitialList ? 'low' : 'normal';
}

/** A namespace that entered the scope (or was seen after its objects): the For objects it holds, to reconcile. */
export function requestsInNamespace(
  forReader: Readers<Record<string, KubeObject>>[string],
  ns: string,
): Request[] {
  return forReader.list({ namespace: ns }).map(requestForObject);
}

/**
 * Whether a request is served under the namespace scope (REGATTA_NAMESPACE_SELECTOR): a namespaced object by its
 * namespace's labels; a cluster-scoped For object (SidecarSet) by its own labels, or when it is gone (its reconcile
 * only forgets it).
 */
export function requestInScope(
  scope: LabelSelector | undefined,
  req: Request,
  forKind: KindRef,
  forReader: Readers<Record<string, KubeObject>>[string],
  namespaceLabels: (ns: string) => Record<string, string> | undefined,
): boolean {
  if (!scope) return true;
  if (req.namespace === undefined && !forKind.namespaced) {
    const obj = forReader.get(undefined, req.name);
    return !obj || labelSelectorMatches(scope, obj.metadata?.labels ?? {});
  }
  return labelSelectorMatches(scope, namespaceLabels(req.namespace ?? '') ?? {});
}
