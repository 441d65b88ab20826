/**
 * The node agent's recreate duty (upstream kruise-daemon `pkg/daemon/containerrecreate`): the requests of its own
 * node come from the bus (the watcher's ContainerRecreateRequest mirror, kept only for this node's label: no API
 * watch), one sync per pod at a time; it stops containers through the node's CRI RuntimeService and writes phases and
 * `containerRecreateStates` through the API server. Nothing is kept but what the request and the runtime show, so a
 * killed agent's successor carries on where it stopped (a container stopped before its state was written shows as
 * recreated: a new instance). Each container stop is a span (`recreate <container>`).
 */
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { CRR_API_VERSION, CRR_KIND, CrrKeys, KINDS, type ContainerRecreateRequest } from '@regatta/api';
import { Cache, type Bus } from '@regatta/bus';
import { isConflict, isNotFound, toRfc3339, type KubeClient, type KubeObject } from '@regatta/kube';
import {
  manageRecreate,
  pickRequest,
  stopGraceSeconds,
  unreadyWaitMs,
  type RuntimeContainer,
} from './daemon.js';
import { runPreStopHook } from './pre-stop.js';
import { podContainers, type CriRuntime } from './runtime-view.js';
import { KeyedSyncs } from '@regatta/runtime';

type Crr = ContainerRecreateRequest & KubeObject;

export interface DutyLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  debug(fields: object, msg: string): void;
}

export interface RecreateDutyOptions {
  nodeName: string;
  bus: Bus;
  client: KubeClient;
  cri: CriRuntime;
  log: DutyLogger;
  tracer?: Tracer;
  now?: () => number;
}

/** How long a sync waits for the bus to show the agent's own last write before acting anyway (upstream: 5 s). */
const MAX_EXPECTATION_WAIT_MS = 5000;
/** Kubelet's `minimumGracePeriodInSeconds`: a stop is never given less. */
const MIN_GRACE_SECONDS = 2;

export class RecreateDuty {
  readonly cache: Cache<Crr>;
  /** One sync per pod at a time; a change during a sync runs it again after. */
  private readonly syncs = new KeyedSyncs({
    sync: (key) => this.sync(key),
    onError: (err, key) => this.o.log.warn({ err, pod: key }, 'recreate sync failed; retrying'),
    retryMs: 1000,
  });
  /** The resourceVersion of the agent's last write of a request (uid), and when it was made. */
  private readonly expected = new Map<string, { rv: number; at: number }>();
  private readonly now: () => number;

  constructor(private readonly o: RecreateDutyOptions) {
    this.now = o.now ?? Date.now;
    this.cache = new Cache<Crr>(o.bus, KINDS.containerrecreaterequests, {
      keep: (c) => c.metadata?.labels?.[CrrKeys.NodeName] === o.nodeName,
      onError: (err) => o.log.warn({ err }, 'ContainerRecreateRequest cache'),
    });
    this.cache.onChange((change) => {
      const c = change.object as Crr;
      this.schedule(`${c.metadata?.namespace ?? ''}/${c.spec?.podName ?? ''}`, 0);
    });
  }

  get hasSynced(): boolean {
    return this.cache.hasSynced;
  }

  async start(): Promise<void> {
    await this.cache.start();
    for (const c of this.cache.list())
      this.schedule(`${c.metadata?.namespace ?? ''}/${c.spec?.podName ?? ''}`, 0);
  }

  async stop(): Promise<void> {
    await this.syncs.stop();
    await this.cache.stop();
  }

  private schedule(key: string, delayMs: number): void {
    this.syncs.schedule(key, delayMs);
  }

  private ref(c: Crr) {
    return {
      apiVersion: CRR_API_VERSION,
      kind: CRR_KIND,
      namespace: c.metadata?.namespace ?? '',
      name: c.metadata?.name ?? '',
    };
  }

  /**
   * `guarded`: on the resourceVersion read (phase changes, as upstream's Update); else a plain merge patch (upstream
   * `patchCRRContainerRecreateStates`: the manager's annotation writes must not make a state of a stopped container
   * get lost).
   */
  private async writeStatus(c: Crr, status: Record<string, unknown>, guarded = true): Promise<void> {
    try {
      const out = await this.o.client.patchStatus<Crr>(
        this.ref(c),
        guarded ? { metadata: { resourceVersion: c.metadata?.resourceVersion }, status } : { status },
        { type: 'merge' },
      );
      this.expected.set(c.metadata?.uid ?? '', {
        rv: Number(out.metadata?.resourceVersion ?? 0),
        at: this.now(),
      });
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) {
        this.o.log.debug(
          { err, crr: c.metadata?.name },
          'status write not applied; a fresher copy is on its way',
        );
        return;
      }
      throw err;
    }
  }

  /** The request's last write by this agent is not on the bus yet (upstream `resourceVersionExpectation`). */
  private waiting(c: Crr): boolean {
    const uid = c.metadata?.uid ?? '';
    const e = this.expected.get(uid);
    if (!e) return false;
    if (Number(c.metadata?.resourceVersion ?? 0) >= e.rv || this.now() - e.at > MAX_EXPECTATION_WAIT_MS) {
      this.expected.delete(uid);
      return false;
    }
    return true;
  }

  /** Returns when to look again (undefined: on the next change). */
  private async sync(key: string): Promise<number | undefined> {
    const [namespace, podName] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const list = this.cache.list({ namespace, filter: (c) => c.spec?.podName === podName });
    const { picked, toPending } = pickRequest(list);
    for (const c of toPending) await this.writeStatus(c as Crr, { phase: 'Pending' });
    if (!picked) return undefined;
    const crr = picked as Crr;
    if (this.waiting(crr)) return 200;
    if (crr.status?.phase !== 'Recreating') {
      await this.writeStatus(crr, { phase: 'Recreating' });
      return undefined;
    }
    const left = unreadyWaitMs(crr, this.now());
    if (left === undefined) return undefined; // the manager marks the pod not ready first
    if (left > 0) return left + 100;
    const containers = await podContainers(this.o.cri, crr.metadata?.labels?.[CrrKeys.PodUID] ?? '');
    const outcome = await manageRecreate(crr, containers, this.now(), (c) => this.kill(crr, c));
    this.o.log.debug(
      { crr: crr.metadata?.name, rv: crr.metadata?.resourceVersion, outcome, containers },
      'recreate pass',
    );
    switch (outcome.kind) {
      case 'patchStates':
        await this.writeStatus(crr, { containerRecreateStates: outcome.states }, false);
        return undefined;
      case 'complete':
        await this.writeStatus(crr, {
          phase: 'Completed',
          completionTime: toRfc3339(this.now()),
          message: '',
        });
        return undefined;
      case 'wait':
        return outcome.requeueAfterMs;
    }
  }

  /** Upstream `KillContainer`: the preStop hook, then the stop, within the request's grace period. */
  private async kill(crr: Crr, c: RuntimeContainer): Promise<void> {
    const grace = Math.max(stopGraceSeconds(crr), MIN_GRACE_SECONDS);
    const attrs = {
      'crr.namespace': crr.metadata?.namespace ?? '',
      'crr.name': crr.metadata?.name ?? '',
      'k8s.pod.name': crr.spec?.podName ?? '',
      'k8s.container.name': c.name,
      'container.id': c.id,
      'k8s.node.name': this.o.nodeName,
    };
    const spec = crr.spec?.containers?.find((x) => x.name === c.name);
    const preStop = spec?.preStop;
    // the hook first (a stop through CRI skips it), then the stop with what is left of the grace period
    const stop = async () => {
      const left = await runPreStopHook(this.o.cri, c.id, preStop, grace, this.o.log, {
        ...(c.podSandboxId ? { podSandboxId: c.podSandboxId } : {}),
        ...(spec?.ports ? { ports: spec.ports } : {}),
      });
      await this.o.cri.stopContainer(c.id, left, { timeoutMs: (left + 30) * 1000 });
    };
    this.o.log.info(
      { crr: crr.metadata?.name, container: c.name, grace, preStop: preStop !== undefined },
      `Stopping container ${c.name} by ContainerRecreateRequest ${crr.metadata?.name ?? ''}`,
    );
    if (!this.o.tracer) return stop();
    return this.o.tracer.startActiveSpan(`recreate ${c.name}`, { attributes: attrs }, async (span) => {
      try {
        await stop();
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message ?? String(err) });
        throw err;
      } finally {
        span.end();
      }
    });
  }
}
