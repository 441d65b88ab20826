// Kubelet-style core/v1 Events (source component "kubelet", host = node), aggregated like client-go's
// recorder: a repeat of the same event bumps `count` and `lastTimestamp` instead of creating a new object.
import { randomBytes } from 'node:crypto';
import type { InvolvedObject } from '@regatta/kube';
import { isNamespaceTerminating, isNotFound, type KubeClient } from './kube-client.js';
import { rfc3339 } from './pod-status.js';

interface Recorded {
  name: string;
  namespace: string;
  count: number;
  at: number;
}

const AGGREGATE_WINDOW_MS = 10 * 60_000;
const MAX_QUEUE = 2_000;
const CONCURRENCY = 4;

export class EventRecorder {
  private readonly seen = new Map<string, Recorded>();
  private readonly queue: (() => Promise<void>)[] = [];
  private active = 0;
  private dropped = 0;
  private stopped = false;

  constructor(
    private readonly client: KubeClient,
    private readonly enabled: boolean,
    private readonly log: (line: string) => void,
  ) {}

  emit(host: string, obj: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (!this.enabled || this.stopped) return;
    if (this.queue.length >= MAX_QUEUE) {
      if (this.dropped++ === 0) this.log('event queue full; dropping events');
      return;
    }
    const now = Date.now();
    this.queue.push(() => this.write(host, obj, type, reason, message, now));
    this.pump();
  }

  private pump(): void {
    while (this.active < CONCURRENCY) {
      const job = this.queue.shift();
      if (!job) return;
      this.active++;
      job()
        .catch((err: unknown) => {
          // an event in a namespace being deleted (its pods being killed) has nowhere to go: not worth a line
          if (!this.stopped && !isNotFound(err) && !isNamespaceTerminating(err))
            this.log(`event not recorded: ${String((err as Error).message ?? err)}`);
        })
        .finally(() => {
          this.active--;
          this.pump();
        });
    }
  }

  private async write(
    host: string,
    obj: InvolvedObject,
    type: string,
    reason: string,
    message: string,
    now: number,
  ) {
    const namespace = obj.namespace || 'default';
    const key = [
      namespace,
      obj.kind,
      obj.name,
      obj.uid ?? '',
      obj.fieldPath ?? '',
      type,
      reason,
      message,
      host,
    ].join('\u0000');
    const prev = this.seen.get(key);
    const ts = rfc3339(now);
    if (prev && now - prev.at < AGGREGATE_WINDOW_MS) {
      prev.count++;
      prev.at = now;
      try {
        await this.client.patch(`/api/v1/namespaces/${namespace}/events/${prev.name}`, {
          count: prev.count,
          lastTimestamp: ts,
        });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    const name = `${obj.name}.${randomBytes(8).toString('hex')}`;
    await this.client.create(`/api/v1/namespaces/${namespace}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { ...obj, namespace: obj.namespace },
      reason,
      message,
      type,
      source: { component: 'kubelet', host },
      reportingComponent: 'kubelet',
      reportingInstance: host,
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
    });
    this.seen.set(key, { name, namespace, count: 1, at: now });
    if (this.seen.size > 10_000) {
      for (const [k, v] of this.seen) if (now - v.at >= AGGREGATE_WINDOW_MS) this.seen.delete(k);
    }
  }

  /** Stops accepting events; waits (bounded) for the queued ones. */
  async stop(timeoutMs = 2_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queue.length > 0 || this.active > 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    this.stopped = true;
    this.queue.length = 0;
  }
}
