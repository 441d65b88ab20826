import type { KubeClient } from '@regatta/kube';
import {
  neededKinds,
  readRegistrations,
  resourceId,
  watchRegistrations,
  type Bus,
  type KindRef,
} from '@regatta/bus';
import { KindMirror, type MirrorStats } from './kind-mirror.js';

/** Which mirrors to start and stop so the running set equals the needed set. */
export function planMirrors(
  running: Iterable<string>,
  needed: Map<string, KindRef>,
): { start: KindRef[]; stop: string[] } {
  const run = new Set(running);
  return {
    start: [...needed].filter(([id]) => !run.has(id)).map(([, k]) => k),
    stop: [...run].filter((id) => !needed.has(id)),
  };
}

export interface MirrorSetOptions {
  onError: (err: unknown, kind: string) => void;
  onChange?: (running: string[]) => void;
  relistIntervalMs?: number;
  /** How often registrations are re-read even without a change (expiry). Default 5 s. */
  resyncMs?: number;
}

/**
 * The watcher's leader work: follows controllers' registrations on the bus and keeps exactly one
 * list+watch per needed kind running.
 */
export class MirrorSet {
  private readonly mirrors = new Map<string, KindMirror>();
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private regWatch?: { stop(): void };

  constructor(
    private readonly client: KubeClient,
    private readonly bus: Bus,
    private readonly o: MirrorSetOptions,
  ) {}

  async start(): Promise<void> {
    this.regWatch = await watchRegistrations(this.bus, () => this.resync());
    this.timer = setInterval(() => this.resync(), this.o.resyncMs ?? 5000);
    this.resync();
    await this.busy;
  }

  get running(): string[] {
    return [...this.mirrors.keys()];
  }

  stats(): Record<string, MirrorStats> {
    return Object.fromEntries([...this.mirrors].map(([id, m]) => [id, { ...m.stats }]));
  }

  /** Serialised: one plan/apply at a time. */
  resync(): void {
    this.busy = this.busy
      .then(() => this.apply())
      .catch((err: unknown) => this.o.onError(err, 'registrations'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.regWatch?.stop();
    await this.busy;
    await Promise.all([...this.mirrors.values()].map((m) => m.stop()));
    this.mirrors.clear();
  }

  private async apply(): Promise<void> {
    if (this.stopped) return;
    const plan = planMirrors(this.mirrors.keys(), neededKinds(await readRegistrations(this.bus)));
    if (plan.start.length === 0 && plan.stop.length === 0) return;
    for (const id of plan.stop) {
      await this.mirrors.get(id)?.stop();
      this.mirrors.delete(id);
    }
    for (const k of plan.start) {
      this.mirrors.set(
        resourceId(k),
        await KindMirror.start(this.client, this.bus, k, {
          onError: this.o.onError,
          ...(this.o.relistIntervalMs ? { relistIntervalMs: this.o.relistIntervalMs } : {}),
        }),
      );
    }
    this.o.onChange?.(this.running);
  }
}
