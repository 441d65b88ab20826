// The node agent (kruise-daemon's `pkg/daemon/imagepuller/imagepuller_controller.go`, with the bus in place of an
// API watch): its own NodeImage from the bus, one sync at a time, re-run on spec changes, on worker progress, after
// 3–5 s while anything pulls and after 20–30 min otherwise; failures retried with per-key backoff. A worker's report
// does not write at once: a Waiting or Pulling report is written by the next sync (3–5 s, coalesced with the reports
// before it), a final phase by a sync as soon as 3 s have passed since the spec change (rate-limit.ts
// reportSyncDelayMs); every write goes through the per-node rate limit (status-updater.ts, ADR 0041), and the latest
// status is flushed on stop. Secrets are read from the API server only. A NodeImage that fails the NodeImage rules
// (stored without the webhooks) is not pulled and gets no status write until a new generation passes (spec-check.ts).
import type { Tracer } from '@opentelemetry/api';
import { ObjectWatch, registerKinds, type Bus } from '@regatta/bus';
import { ImagePullError } from '@regatta/imagepull';
import {
  EventRecorder,
  isConflict,
  isNotFound,
  SpecGuard,
  type KubeClient,
  type KubeObject,
} from '@regatta/kube';
import { credentialsFor, type SecretData } from './credentials.js';
import { agentInstance, EVENT_COMPONENT, NODEIMAGE_KIND, REGISTRATION_CONTROLLER } from './kinds.js';
import { ImagePuller } from './puller.js';
import { PullPool } from './pull-pool.js';
import { reportSyncDelayMs, requeueAfterMs, sameJson, syncBackoffMs } from './rate-limit.js';
import type { ImageRuntime } from './runtime.js';
import { decideOnSpec, nodeImageProblem, specGenerationOf, type SpecGeneration } from './spec-check.js';
import { isPulling } from './status.js';
import { StatusUpdater, type UpdaterClock } from './status-updater.js';
import type { NodeImage, NodeImageStatus, ObjectReference, ReferenceObject } from './types.js';

export interface AgentLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
  debug(fields: object, msg: string): void;
}

export interface AgentOptions {
  nodeName: string;
  bus: Bus;
  client: KubeClient;
  runtime: ImageRuntime;
  /** `--max-workers-for-pull-image`: ≤ 0 is unlimited. */
  maxWorkers: number;
  log: AgentLogger;
  /** Whether to announce NodeImages to the watcher (default true). */
  register?: boolean;
  /** The status rate limit's clock (tests). */
  clock?: UpdaterClock;
  /** The tracer of the pull spans (one per pull, in its job's trace). */
  tracer?: Tracer;
}

/** The code of a status write refused because the NodeImage it would go to fails the NodeImage rules. */
const INVALID_NODEIMAGE_WRITE = 'REGATTA_IMAGEPULL_AGENT_INVALID_NODEIMAGE';

export class NodeImageAgent {
  private readonly watch: ObjectWatch<NodeImage & KubeObject>;
  private readonly puller: ImagePuller;
  private readonly pool: PullPool | undefined;
  private readonly recorder: EventRecorder;
  private readonly status: StatusUpdater;
  /** The NodeImage of the running sync (written to when the bus copy is gone meanwhile). */
  private target: (NodeImage & KubeObject) | undefined;
  private failures = 0;
  private readonly backoffCapJitter = Math.random();
  private timer: NodeJS.Timeout | undefined;
  private dueAt = Infinity;
  private running = false;
  /** The sync under way (stop waits for it before flushing). */
  private syncing: Promise<void> | undefined;
  /** A copy read from the API server for the flush on stop (the bus copy may trail our last write). */
  private fresh: (NodeImage & KubeObject) | undefined;
  private rerun = false;
  private stopped = false;
  /** When the NodeImage was first seen or its spec last changed (the earliest a final phase is written counts from it). */
  private specChangedAt = Date.now();
  private registration: { stop(): Promise<void> } | undefined;
  /** The NodeImage rules' verdict, once per generation. */
  private readonly specGuard = new SpecGuard<NodeImage & KubeObject>(nodeImageProblem);
  /** The refused generation already logged. */
  private warned: SpecGeneration | undefined;
  /** Status writes done (for tests and metrics). */
  get writes(): number {
    return this.status.writes;
  }

  constructor(private readonly o: AgentOptions) {
    this.pool = o.maxWorkers > 0 ? new PullPool(o.maxWorkers) : undefined;
    this.recorder = new EventRecorder(o.client, {
      component: EVENT_COMPONENT,
      host: o.nodeName,
      instance: o.nodeName,
      onError: (err, e) => o.log.warn({ err, reason: e.reason }, 'event not recorded'),
    });
    this.puller = new ImagePuller({
      runtime: o.runtime,
      ...(this.pool ? { pool: this.pool } : {}),
      events: (ref, type, reason, message) => void this.event(ref, type, reason, message),
      credentials: (image, secrets) => this.credentials(image, secrets),
      // coalesced: the next sync writes this report with any that follow it; a final phase is not held for the
      // 3–5 s cadence (ADR 0041, amended)
      onStatus: (st) => {
        o.log.debug({ tag: st.tag, phase: st.phase }, 'tag status reported');
        this.schedule(
          reportSyncDelayMs({
            final: st.phase === 'Succeeded' || st.phase === 'Failed',
            specChangedAt: this.specChangedAt,
            now: Date.now(),
            jitter: Math.random(),
          }),
        );
      },
      log: (msg, fields) => o.log.debug(fields, msg),
      node: o.nodeName,
      ...(o.tracer ? { tracer: o.tracer } : {}),
    });
    this.status = new StatusUpdater({
      write: (st) => this.writeStatus(st),
      ...(o.clock ? { clock: o.clock } : {}),
    });
    this.watch = new ObjectWatch(
      o.bus,
      NODEIMAGE_KIND,
      undefined,
      o.nodeName,
      (obj, old) => {
        // like the informer's handler: new objects and spec changes (status echoes of our own writes are not); a
        // NodeImage gone or being deleted stops the pulls at once
        if (obj && !obj.metadata.deletionTimestamp && old && sameJson(old.spec, obj.spec)) return;
        o.log.debug({ resourceVersion: obj?.metadata.resourceVersion }, 'NodeImage spec changed');
        this.specChangedAt = Date.now();
        this.schedule(0);
      },
      {
        onError: (err) => o.log.warn({ err }, 'NodeImage watch interrupted'),
        // the pulls go on from the NodeImage as last read (docs/adr/0068)
        onSetAside: (e) =>
          o.log.error(
            { bucket: e.bucket, key: e.key, revision: e.revision, reason: e.reason, err: e.error },
            'the NodeImage on the bus cannot be read and is set aside; pulling from the last one read until the watcher writes it again',
          ),
      },
    );
  }

  get hasSynced(): boolean {
    return this.watch.hasSynced;
  }

  async start(): Promise<void> {
    if (this.o.register ?? true) {
      this.registration = registerKinds(
        this.o.bus,
        REGISTRATION_CONTROLLER,
        agentInstance(this.o.nodeName),
        [NODEIMAGE_KIND],
        { onError: (err) => this.o.log.debug({ err }, 'registration not written yet') },
      );
    }
    await this.watch.start();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.syncing?.catch(() => undefined);
    await this.flush();
    this.pool?.stop();
    this.puller.stop();
    await this.watch.stop();
    await this.registration?.stop().catch(() => undefined);
  }

  /** Runs a sync in `delayMs` unless one is due sooner. */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) {
      if (delayMs === 0) this.rerun = true;
      else this.arm(delayMs);
      return;
    }
    this.arm(delayMs);
  }

  private arm(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (due >= this.dueAt) return;
    clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = setTimeout(() => {
      this.syncing = this.runSync();
    }, delayMs);
  }

  private async runSync(): Promise<void> {
    this.dueAt = Infinity;
    if (this.running || this.stopped) return;
    this.running = true;
    this.rerun = false;
    let next: number;
    try {
      next = await this.sync();
      this.failures = 0;
    } catch (err) {
      next = syncBackoffMs(this.failures++, this.backoffCapJitter);
      // a conflict is the bus copy trailing the API server by a write: the retry uses the newer copy
      if (isConflict(err)) this.o.log.debug({ err, retryInMs: next }, 'NodeImage status write conflicted');
      // the spec turned invalid during the sync: the next one refuses it (and logs why, once)
      else if (err instanceof ImagePullError && err.code === INVALID_NODEIMAGE_WRITE)
        this.o.log.debug({ err, retryInMs: next }, 'NodeImage status not written');
      else this.o.log.warn({ err, retryInMs: next }, 'NodeImage sync failed');
    } finally {
      this.running = false;
    }
    if (this.rerun) this.schedule(0);
    this.schedule(next);
  }

  /** One sync; returns when to look again. */
  private async sync(): Promise<number> {
    const ni = this.watch.object;
    if (!ni || ni.metadata.deletionTimestamp) {
      this.puller.stop();
      return requeueAfterMs(false, Math.random());
    }
    if (this.refuses(ni)) {
      this.puller.stop();
      return requeueAfterMs(false, Math.random());
    }
    this.target = ni;
    const started = Date.now();
    await this.puller.sync(ni);
    const status = this.puller.status(ni);
    const decision = await this.status.offer(status);
    this.o.log.debug({ decision, ms: Date.now() - started }, 'NodeImage synced');
    return requeueAfterMs(decision === 'limited' || isPulling(ni.spec?.images, status), Math.random());
  }

  /**
   * Whether the NodeImage fails the NodeImage rules: nothing of it is pulled and no status written until a generation
   * passes them. The first look at a refused generation logs the problem (its field path) at warn level.
   */
  private refuses(ni: NodeImage & KubeObject): boolean {
    const generation = specGenerationOf(ni);
    const decision = decideOnSpec(generation, this.specGuard.problem(this.o.nodeName, ni), this.warned);
    this.warned = decision.warned;
    if (decision.warn !== undefined)
      this.o.log.warn(
        { generation: generation.generation, problem: decision.warn },
        'not pulling this NodeImage until it is fixed: it fails the NodeImage rules',
      );
    return !decision.pull;
  }

  /** Whether the NodeImage fails the NodeImage rules (no log: the sync logs it). */
  private invalid(ni: NodeImage & KubeObject): boolean {
    return this.specGuard.problem(this.o.nodeName, ni) !== undefined;
  }

  /** On stop: the workers' latest status, past the rate limit, unless already written (nothing reported is lost). */
  private async flush(): Promise<void> {
    const ni = this.watch.object ?? this.target;
    if (!ni || ni.metadata.deletionTimestamp || this.invalid(ni)) return;
    const status = this.puller.status(ni);
    try {
      try {
        await this.status.flush(status);
      } catch (err) {
        // our last write may not have reached the bus copy yet: once more on the API server's copy
        if (!isConflict(err)) throw err;
        this.fresh = await this.o.client.get<NodeImage & KubeObject>({
          apiVersion: `${NODEIMAGE_KIND.group}/${NODEIMAGE_KIND.version}`,
          kind: NODEIMAGE_KIND.kind,
          name: this.o.nodeName,
        });
        await this.status.flush(status);
      }
    } catch (err) {
      this.o.log.warn({ err }, 'NodeImage status not flushed on stop');
    }
  }

  private async writeStatus(status: NodeImageStatus): Promise<void> {
    const ni = this.fresh ?? this.watch.object ?? this.target;
    if (!ni) return;
    // the spec changed to one that fails the rules since the sync began: that status is not for it
    if (this.invalid(ni))
      throw new ImagePullError(
        INVALID_NODEIMAGE_WRITE,
        `NodeImage ${this.o.nodeName} fails the NodeImage rules; status not written`,
      );
    await this.o.client.updateStatus({
      ...ni,
      apiVersion: `${NODEIMAGE_KIND.group}/${NODEIMAGE_KIND.version}`,
      kind: NODEIMAGE_KIND.kind,
      status,
    } as KubeObject);
  }

  private async credentials(image: string, refs: ReferenceObject[]) {
    const secrets: SecretData[] = [];
    for (const r of refs) {
      if (!r.namespace || !r.name) continue;
      try {
        secrets.push(
          await this.o.client.get<KubeObject & SecretData>({
            apiVersion: 'v1',
            kind: 'Secret',
            namespace: r.namespace,
            name: r.name,
          }),
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.o.log.warn({ secret: `${r.namespace}/${r.name}` }, 'pull secret not found; skipped');
      }
    }
    return credentialsFor(image, secrets);
  }

  private async event(
    ref: ObjectReference | undefined,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const ni = this.watch.object;
    const obj: KubeObject = ref
      ? {
          apiVersion: ref.apiVersion ?? '',
          kind: ref.kind ?? '',
          metadata: {
            name: ref.name ?? '',
            ...(ref.namespace ? { namespace: ref.namespace } : {}),
            ...(ref.uid ? { uid: ref.uid } : {}),
          },
        }
      : {
          apiVersion: `${NODEIMAGE_KIND.group}/${NODEIMAGE_KIND.version}`,
          kind: NODEIMAGE_KIND.kind,
          metadata: { name: this.o.nodeName, ...(ni?.metadata.uid ? { uid: ni.metadata.uid } : {}) },
        };
    await this.recorder.event(obj, type, reason, message);
  }
}
