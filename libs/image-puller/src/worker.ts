// One tag's pull (`imagepuller_worker.go`, pullWorker): reports Waiting, waits for a slot of the node's pull pool,
// reports Pulling with its start time, then makes the attempts of attempts.ts and ends Succeeded or Failed with
// events. Stopping it (tag gone, version changed) aborts the pull in flight and reports nothing more.
import { SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { AuthConfig } from '@regatta/cri';
import {
  attemptTimeout,
  backoffAfter,
  DEADLINE_EXCEEDED_MESSAGE,
  needsPull,
  pullSettings,
} from './attempts.js';
import type { PullPool } from './pull-pool.js';
import { ownerJobs, pullSpanParent } from './pull-trace.js';
import type { ImageRuntime } from './runtime.js';
import {
  imageRef,
  type ImageTagSpec,
  type ImageTagStatus,
  type ObjectReference,
  type SandboxConfig,
} from './types.js';

export const PULL_IMAGE_SUCCEED = 'PullImageSucceed';
export const PULL_IMAGE_FAILED = 'PullImageFailed';

/** Where a worker's events go: `ref` undefined means the node's NodeImage. */
export type PullEventSink = (
  ref: ObjectReference | undefined,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
) => void;

export interface WorkerContext {
  runtime: ImageRuntime;
  pool?: PullPool;
  events: PullEventSink;
  /** Called with every new status of the tag. */
  update(status: ImageTagStatus): void;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log?: (msg: string, fields: Record<string, unknown>) => void;
  /** The node, for the pull span's attributes. */
  node?: string;
  /** Where the pull spans go (default: the global provider's `@regatta/image-puller` tracer). */
  tracer?: Tracer;
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class PullWorker {
  private readonly ac = new AbortController();
  private last: ImageTagStatus | undefined;
  /** Settles when the worker has finished (or was stopped). */
  readonly done: Promise<void>;

  constructor(
    readonly image: string,
    readonly tag: ImageTagSpec,
    private readonly sandboxConfig: SandboxConfig | undefined,
    private readonly auths: AuthConfig[],
    private readonly ctx: WorkerContext,
  ) {
    this.report({ tag: tag.tag, phase: 'Waiting', version: tag.version ?? 0 });
    this.done = new Promise<void>((resolve) => {
      const task = () => this.run().finally(resolve);
      if (ctx.pool) {
        ctx.pool.submit(task);
        // a stopped worker whose task never gets a slot is done too
        this.ac.signal.addEventListener('abort', () => resolve(), { once: true });
      } else void task();
    });
  }

  get version(): number {
    return this.tag.version ?? 0;
  }

  get active(): boolean {
    return !this.ac.signal.aborted;
  }

  stop(): void {
    this.ac.abort();
  }

  private report(status: ImageTagStatus): void {
    if (!this.active) return;
    this.last = status;
    this.ctx.update(status);
  }

  /** The pull in a span of its own, in its job's trace (pull-trace.ts). */
  private async run(): Promise<void> {
    if (!this.active) return;
    const tracer = this.ctx.tracer ?? trace.getTracer('@regatta/image-puller');
    const { parent, links } = pullSpanParent(this.tag.ownerReferences);
    const span = tracer.startSpan(
      'pull image',
      {
        attributes: {
          'regatta.image': imageRef(this.image, this.tag.tag),
          'regatta.tag.version': this.version,
          'regatta.imagepulljobs': ownerJobs(this.tag.ownerReferences),
          ...(this.ctx.node ? { 'k8s.node.name': this.ctx.node } : {}),
        },
        links,
      },
      parent,
    );
    try {
      await this.pull();
    } finally {
      const st = this.last;
      span.setAttribute('regatta.phase', this.active ? (st?.phase ?? '') : 'Stopped');
      if (this.active && st?.phase === 'Failed')
        span.setStatus({ code: SpanStatusCode.ERROR, message: st.message ?? '' });
      span.end();
    }
  }

  private async pull(): Promise<void> {
    const now = this.ctx.now ?? Date.now;
    const sleep = this.ctx.sleep ?? abortableSleep;
    const ref = imageRef(this.image, this.tag.tag);
    const started = now();
    const base: ImageTagStatus = {
      tag: this.tag.tag,
      phase: 'Pulling',
      startTime: new Date(started).toISOString(),
      version: this.version,
    };
    // reported at once, so the NodeImage controller's 10-minute response guard does not fire for long pulls
    this.report(base);
    const settings = pullSettings(this.tag.pullPolicy, started);
    let lastError = '';
    for (let i = 0; i < settings.attempts; i++) {
      const timeoutMs = attemptTimeout(settings, now());
      if (timeoutMs === 'exceeded') {
        lastError = DEADLINE_EXCEEDED_MESSAGE;
        break;
      }
      try {
        await this.attempt(ref, timeoutMs);
        if (!this.active) return;
        const id = await this.ctx.runtime.imageId(ref, this.ac.signal).catch(() => undefined);
        this.report({
          ...base,
          phase: 'Succeeded',
          progress: 100,
          ...(id ? { imageID: `${this.image}@${id}` } : {}),
          completionTime: new Date(now()).toISOString(),
        });
        this.ctx.events(
          undefined,
          'Normal',
          PULL_IMAGE_SUCCEED,
          `Image ${this.image}:${this.tag.tag}, ecalpsedTime ${formatElapsed(now() - started)}`,
        );
        return;
      } catch (err) {
        if (!this.active) return;
        lastError = (err as Error)?.message ?? String(err);
        this.ctx.log?.('pulling image backoff', { image: ref, attempt: i + 1, error: lastError });
        if (i + 1 < settings.attempts) await sleep(backoffAfter(i), this.ac.signal);
        if (!this.active) return;
      }
    }
    this.report({
      ...base,
      phase: 'Failed',
      message: lastError,
      completionTime: new Date(now()).toISOString(),
    });
    const message = `Image ${this.image}:${this.tag.tag} ${lastError}`;
    for (const owner of this.tag.ownerReferences ?? [])
      this.ctx.events(owner, 'Warning', PULL_IMAGE_FAILED, message);
    this.ctx.events(undefined, 'Warning', PULL_IMAGE_FAILED, message);
  }

  /** One attempt: nothing to do for a present image under IfNotPresent, else a pull limited to `timeoutMs`. */
  private async attempt(ref: string, timeoutMs: number): Promise<void> {
    const present =
      (await this.ctx.runtime.imageId(ref, this.ac.signal).catch(() => undefined)) !== undefined;
    if (!needsPull(this.tag.imagePullPolicy, present)) return;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([this.ac.signal, timeout]);
    this.ctx.log?.('pulling image', { image: ref });
    try {
      await this.ctx.runtime.pull(ref, {
        auths: this.auths,
        ...(this.sandboxConfig ? { sandboxConfig: this.sandboxConfig } : {}),
        timeoutMs,
        signal,
      });
    } catch (err) {
      if (timeout.aborted) throw new Error(`pulling image ${ref} is canceled`, { cause: err });
      throw err;
    }
  }
}

/** Go's time.Duration printing for the event message, to the millisecond (`1.5s`, `2m3.25s`). */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${trim(s)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${trim(s - m * 60)}s` : `${Math.floor(m / 60)}h${m % 60}m${trim(s - m * 60)}s`;
}

const trim = (n: number) => String(Math.round(n * 1000) / 1000);
