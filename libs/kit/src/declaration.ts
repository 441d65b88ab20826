/**
 * A controller program, declared (controller-runtime's builder: `For`, `Owns`, `Watches`, plus webhooks and feature
 * gates). The declaration is data; `derive.ts` turns it into kinds to register and event handlers, `program.ts` runs
 * it. Typed end to end: every `for`/`owns`/`watches` adds a typed reader to what the reconciler receives.
 */
import type { FieldSet, Projected } from '@regatta/bus';
import type { EventRecorder, Kind, KindRef, KubeClient, KubeObject, Change } from '@regatta/kube';
import type {
  Expectations,
  FeatureGateDefaults,
  Logger,
  MutatingHandler,
  Predicate,
  Reconciler,
  Request,
  ValidatingHandler,
  WebhookServer,
} from '@regatta/runtime';
import { ignoreStatusOnlyUpdates } from '@regatta/runtime';
import type { Tracing } from '@regatta/telemetry';
import { KitError } from './errors.js';
import type { WebhookConfigurationsNow } from './webhook-configurations.js';

/** What a reconciler and a mapping function read: a bus cache fits (`Cache<T>`). */
export interface Reader<T extends KubeObject> {
  get(namespace: string | undefined, name: string): T | undefined;
  byIndex(index: string, value: string): T[];
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

/** One reader per declared kind, under the name it was declared with. */
export type Readers<R extends Record<string, KubeObject>> = { readonly [K in keyof R]: Reader<R[K]> };

/** How an owned kind's changes feed the owner's expectations (OpenKruise `pkg/util/expectations`). */
export type OwnedExpectations = 'none' | 'scale' | 'scale-and-updates';

/** A kind the controller reads, with the cache it gets. */
export interface KindDeclaration {
  /** The reader's name (`pods`), also the cache's name in logs. */
  name: string;
  kind: KindRef;
  /** Which objects the cache keeps (default: all); see the bus `Cache`'s `keep`. */
  keep?: (obj: KubeObject) => boolean;
  /**
   * The fields of each object the cache keeps (default: every field): the bus `projection`, for the fields this
   * controller reads (docs/adr/0060-pod-projection.md). Objects read through it are marked projected and must be
   * written as patches (`updatePatch` of `@regatta/kube`), never PUT back.
   */
  project?: FieldSet;
}

export interface ForDeclaration extends KindDeclaration {
  /** Every predicate must pass for a change to enqueue. Default: {@link ignoreStatusOnlyUpdates}. */
  predicates: readonly Predicate[];
}

export interface OwnsDeclaration extends KindDeclaration {
  expectations: OwnedExpectations;
}

export interface WatchesDeclaration extends KindDeclaration {
  map: (change: Change, readers: Readers<Record<string, KubeObject>>) => readonly Request[];
}

/** One admission handler on one path of the webhook server. */
export interface WebhookRoute {
  readonly path: string;
  register(server: Pick<WebhookServer, 'mutate' | 'validate'>): void;
}

/** A mutating webhook on `path`. */
export function mutating<T>(path: string, handler: MutatingHandler<T>): WebhookRoute {
  return { path, register: (server) => server.mutate(path, handler) };
}

/** A validating webhook on `path`. */
export function validating<T>(path: string, handler: ValidatingHandler<T>): WebhookRoute {
  return { path, register: (server) => server.validate(path, handler) };
}

/** What the reconciler factory and the webhook factory receive. */
export interface ProgramContext<R extends Record<string, KubeObject>, G extends string> {
  readonly readers: Readers<R>;
  readonly client: KubeClient;
  readonly expectations: Expectations;
  readonly recorder: EventRecorder;
  readonly tracer: Tracing['tracer'];
  readonly gates: Readonly<Record<G, boolean>>;
  readonly log: Logger;
  /** The replica's identity (`POD_NAME`). */
  readonly identity: string;
  /**
   * Applies the webhook configurations now and waits for it: for a route whose answer changes them (a SidecarSet
   * admitted gets its pod webhook entry before the API server stores it, docs/adr/0040-sidecarset-effective-at-admission.md).
   */
  readonly webhookConfigurations: WebhookConfigurationsNow;
}

/** The admission webhooks a controller serves, and the configurations that register them. */
export interface WebhookDeclaration {
  /** Built with {@link mutating} and {@link validating}. */
  routes: readonly WebhookRoute[];
  /**
   * The Mutating-/ValidatingWebhookConfigurations pointing at `baseUrl` with `caBundlePem`, for the namespace scope
   * (REGATTA_NAMESPACE_SELECTOR) when there is one. Called on every pass of the keeper, after the caches are loaded,
   * so configurations may follow what the readers hold.
   */
  configurations(
    baseUrl: string,
    caBundlePem: string,
    namespaceScope: { matchLabels: Record<string, string> } | undefined,
  ): readonly KubeObject[];
  /**
   * Reader names whose changes alter the configurations (the SidecarSet pod webhook's entries follow the
   * SidecarSets): a change re-applies them at once instead of at the keeper's next poll.
   */
  followedReaders?: readonly string[];
}

export interface ControllerOptions<G extends string> {
  /** `cloneset`: the Lease is `regatta-<name>`, the program and field manager `regatta-<name>`. */
  name: string;
  /** `source.component` of its Events (OpenKruise's controller name, `cloneset-controller`). */
  eventComponent: string;
  /** OpenKruise's feature gates with their defaults, set with REGATTA_FEATURE_GATES. */
  featureGates?: FeatureGateDefaults<G>;
  /** Workers. Default 1. */
  maxConcurrentReconciles?: number;
  /**
   * Serve every object even under a namespace scope (REGATTA_NAMESPACE_SELECTOR): for a cluster-scoped For kind that
   * belongs to no namespace and carries no user labels to scope by (NodeImage, one per Node).
   */
  ignoreNamespaceScope?: boolean;
}

/** The kinds part of a declaration (what the derivations read). */
export interface KindsDeclaration {
  options: { name: string };
  forKind: ForDeclaration;
  owns: readonly OwnsDeclaration[];
  watches: readonly WatchesDeclaration[];
}

/**
 * One workload's rollout as the metrics show it (`regatta_rollout_info`, `regatta_rollout_replicas_*`; libs/workload
 * `rolloutSample` projects each workload kind's status to it).
 */
export interface RolloutSample {
  /** Progressing, Paused, Completed or Degraded (libs/workload `rolloutPhase`). */
  phase: string;
  desired: number;
  updated: number;
  ready: number;
  /** Undefined for kinds whose status has no available count (UnitedDeployment, SidecarSet). */
  available: number | undefined;
}

/** The whole declaration, as the kit reads it. */
export interface ControllerDeclaration<R extends Record<string, KubeObject>, G extends string> {
  options: ControllerOptions<G>;
  forKind: ForDeclaration;
  owns: readonly OwnsDeclaration[];
  watches: readonly WatchesDeclaration[];
  webhooks?: (ctx: ProgramContext<R, G>) => WebhookDeclaration;
  /** Per-workload rollout metrics of the For kind: each object of its reader, projected (pure). */
  rolloutMetrics?: (obj: KubeObject) => RolloutSample;
  reconciler: (ctx: ProgramContext<R, G>) => Reconciler;
}

/**
 * Declares a controller: `controller(...).for(...).owns(...).watches(...).webhooks(...).reconciler(...)`, then
 * `runController(builder.declaration)` (or `.run()` from `program.ts`). Reader names are unique; declaring one name
 * twice (`owns` and `watches` on pods) shares one cache, and the kinds must agree.
 */
export class ControllerBuilder<R extends Record<string, KubeObject>, G extends string> {
  private constructor(
    private readonly decl: Partial<ControllerDeclaration<R, G>> & { options: ControllerOptions<G> },
  ) {}

  static controller<G extends string = never>(
    options: ControllerOptions<G>,
  ): ControllerBuilder<Record<never, KubeObject>, G> {
    return new ControllerBuilder<Record<never, KubeObject>, G>({ options, owns: [], watches: [] });
  }

  /**
   * The kind this controller reconciles (a `Kind<T>` of the registry, `KINDS` of `@regatta/api`: its reader is a
   * `Reader<T>`, docs/adr/0071-one-typed-kind-registry.md); each change of one enqueues its own request (after the
   * predicates).
   */
  for<N extends string, T extends KubeObject = KubeObject>(
    name: N,
    kind: Kind<T>,
    opts: KeepOptions & { predicates?: readonly Predicate[] } = {},
  ): ControllerBuilder<R & Record<N, T>, G> {
    if (this.decl.forKind)
      throw new KitError('REGATTA_KIT_DECLARATION', `${this.decl.options.name}: For is declared twice`);
    return this.next({
      forKind: { name, kind, predicates: opts.predicates ?? [ignoreStatusOnlyUpdates], ...keepOf(opts) },
    });
  }

  /** A kind the For kind controls: a change enqueues the controlling owner and feeds its expectations. */
  owns<N extends string, T extends KubeObject = KubeObject, F extends FieldSet | undefined = undefined>(
    name: N,
    kind: Kind<T>,
    opts: KeepOptions<F> & { expectations?: OwnedExpectations } = {},
  ): ControllerBuilder<R & Record<N, ReaderObject<T, F>>, G> {
    const owned: OwnsDeclaration = { name, kind, expectations: opts.expectations ?? 'none', ...keepOf(opts) };
    return this.next({ owns: [...(this.decl.owns ?? []), owned] });
  }

  /** Any other kind, mapped to requests by `map` (controller-runtime's `Watches` with `EnqueueRequestsFromMapFunc`). */
  watches<N extends string, T extends KubeObject = KubeObject, F extends FieldSet | undefined = undefined>(
    name: N,
    kind: Kind<T>,
    map: (
      change: Change<ReaderObject<T, F>>,
      readers: Readers<R & Record<N, ReaderObject<T, F>>>,
    ) => readonly Request[],
    opts: KeepOptions<F> = {},
  ): ControllerBuilder<R & Record<N, ReaderObject<T, F>>, G> {
    const watched: WatchesDeclaration = {
      name,
      kind,
      // stored for any kind; called only with changes of this cache and the readers declared here
      map: (change, readers) =>
        map(change as Change<ReaderObject<T, F>>, readers as Readers<R & Record<N, ReaderObject<T, F>>>),
      ...keepOf(opts),
    };
    return this.next({ watches: [...(this.decl.watches ?? []), watched] });
  }

  /** The admission webhooks (served when REGATTA_WEBHOOK_ADDR is set). */
  webhooks(factory: (ctx: ProgramContext<R, G>) => WebhookDeclaration): ControllerBuilder<R, G> {
    return this.next({ webhooks: factory });
  }

  /**
   * Exposes the For kind's rollouts on /metrics (Argo Rollouts' `rollout_info`): `project` turns one object into its
   * phase and replica counts (docs/operations.md "Metrics").
   */
  rolloutMetrics(project: (obj: KubeObject) => RolloutSample): ControllerBuilder<R, G> {
    return this.next({ rolloutMetrics: project });
  }

  /** The reconciler, built with typed readers for exactly the declared kinds. Completes the declaration. */
  reconciler(factory: (ctx: ProgramContext<R, G>) => Reconciler): ControllerDeclaration<R, G> {
    const { forKind, options, owns = [], watches = [], webhooks, rolloutMetrics } = this.decl;
    if (!forKind)
      throw new KitError('REGATTA_KIT_DECLARATION', `${options.name}: declare For before the reconciler`);
    const decl: ControllerDeclaration<R, G> = { options, forKind, owns, watches, reconciler: factory };
    if (webhooks) decl.webhooks = webhooks;
    if (rolloutMetrics) decl.rolloutMetrics = rolloutMetrics;
    checkReaders(decl);
    return decl;
  }

  /** R2 only adds readers to R: the factories declared so far read a subset of what they will get. */
  private next<R2 extends R>(
    patch: Partial<ControllerDeclaration<R2, G>>,
  ): ControllerBuilder<R2, G> {
    return new ControllerBuilder<R2, G>({ ...this.decl, ...patch });
  }
}

/**
 * What a reader's cache keeps: which objects, and which of their fields ({@link KindDeclaration}). A typed field set
 * (`FieldSetOf<Pod>` of `@regatta/bus`) types the reader to what it keeps ({@link ReaderObject}).
 */
export interface KeepOptions<F extends FieldSet | undefined = FieldSet | undefined> {
  keep?: KindDeclaration['keep'];
  project?: F;
}

/**
 * The objects a reader of kind `T` holds: `T`, or `T` read through the field set `F` when the declaration projects
 * (docs/adr/0071-one-typed-kind-registry.md), so reading a field the program does not keep fails to compile.
 */
export type ReaderObject<T extends KubeObject, F extends FieldSet | undefined> = [F] extends [FieldSet]
  ? Projected<T, F> & KubeObject
  : T;

function keepOf(opts: KeepOptions): KeepOptions {
  return { ...(opts.keep ? { keep: opts.keep } : {}), ...(opts.project ? { project: opts.project } : {}) };
}

/** One reader name, one kind: a name declared twice must name the same kind. */
function checkReaders(decl: KindsDeclaration): void {
  const kinds = new Map<string, KindRef>();
  for (const d of [decl.forKind, ...decl.owns, ...decl.watches]) {
    const seen = kinds.get(d.name);
    if (seen && (seen.plural !== d.kind.plural || seen.group !== d.kind.group)) {
      throw new KitError(
        'REGATTA_KIT_DECLARATION',
        `${decl.options.name}: reader '${d.name}' is declared for ${seen.plural} and ${d.kind.plural}; use two names`,
      );
    }
    kinds.set(d.name, d.kind);
  }
}
