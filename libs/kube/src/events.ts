/**
 * EventRecorder: writes core/v1 Events about objects, de-duplicated and aggregated by {@link EventCorrelator}.
 * It never throws and never rejects: failures go to `onError`. Writes for the same event are serialized so a
 * repeat never races the create of its first occurrence.
 */
import { hostname } from 'node:os';
import type { KubeClient } from './client.js';
import { type CorrelatedEvent, EventCorrelator, type EventCorrelatorOptions, type EventInput } from './event-correlator.js';
import type { CoreEvent, InvolvedObject } from './event-types.js';
import { AlreadyExistsError, NotFoundError } from './errors.js';
import type { GroupVersionKind, KubeObject } from './meta.js';

/** The two client calls the recorder needs. */
export type EventWriter = Pick<KubeClient, 'create' | 'patch'>;

export interface EventRecorderOptions {
  /** `source.component` and `reportingComponent`, e.g. `cloneset-controller`. */
  component: string;
  /** `reportingInstance`; defaults to the host name (the pod name in a cluster). */
  instance?: string;
  /** `source.host` (node name), usually left empty by controllers. */
  host?: string;
  /** Receives every failure; the default drops them. */
  onError?: (err: unknown, event: { reason: string; message: string; involvedObject?: InvolvedObject }) => void;
  /** Clock, for tests and replay. */
  now?: () => Date;
  correlator?: EventCorrelatorOptions;
}

/** client-go's limit on the event message (Events API `note`). */
export const MAX_EVENT_MESSAGE = 1024;

/** The ObjectReference of an object; objects from a list carry no apiVersion/kind, pass `gvk` then. */
export function involvedObjectOf(obj: KubeObject, gvk?: GroupVersionKind): InvolvedObject {
  const apiVersion = gvk?.apiVersion ?? obj.apiVersion;
  const kind = gvk?.kind ?? obj.kind;
  const name = obj.metadata?.name;
  if (!apiVersion || !kind || !name) {
    throw new TypeError('an event needs the object apiVersion, kind and metadata.name (list items lack apiVersion/kind)');
  }
  const ref: InvolvedObject = { apiVersion, kind, name };
  if (obj.metadata?.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata?.uid) ref.uid = obj.metadata.uid;
  if (obj.metadata?.resourceVersion) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}

export class EventRecorder {
  private readonly correlator: EventCorrelator;
  private readonly instance: string;
  private readonly now: () => Date;
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly client: EventWriter,
    private readonly options: EventRecorderOptions,
  ) {
    this.correlator = new EventCorrelator(options.correlator);
    this.instance = options.instance ?? hostname();
    this.now = options.now ?? (() => new Date());
  }

  normal(obj: KubeObject, reason: string, message: string, gvk?: GroupVersionKind): Promise<void> {
    return this.event(obj, 'Normal', reason, message, gvk);
  }

  warning(obj: KubeObject, reason: string, message: string, gvk?: GroupVersionKind): Promise<void> {
    return this.event(obj, 'Warning', reason, message, gvk);
  }

  /** Records an event; the promise settles when it is written (or failed), and never rejects. */
  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, gvk?: GroupVersionKind): Promise<void> {
    let involvedObject: InvolvedObject;
    try {
      involvedObject = involvedObjectOf(obj, gvk);
    } catch (e) {
      this.report(e, { reason, message });
      return Promise.resolve();
    }
    const text = message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 3)}...` : message;
    const input: EventInput = { component: this.options.component, host: this.options.host, involvedObject, type, reason, message: text };
    const now = this.now();
    const c = this.correlator.observe(input, now);
    if (c.action === 'skip') return Promise.resolve();
    const prev = this.chains.get(c.key) ?? Promise.resolve();
    const next = prev.then(() => this.write(input, c, now));
    this.chains.set(c.key, next);
    void next.then(() => {
      if (this.chains.get(c.key) === next) this.chains.delete(c.key);
    });
    return next;
  }

  /** Resolves when every event recorded so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  private async write(input: EventInput, c: CorrelatedEvent, now: Date): Promise<void> {
    try {
      if (c.action === 'patch') {
        try {
          await this.client.patch(
            { apiVersion: 'v1', kind: 'Event', namespace: c.namespace, name: c.name },
            { count: c.count, lastTimestamp: c.lastTimestamp, message: c.message },
            { type: 'merge' },
          );
          return;
        } catch (e) {
          if (!(e instanceof NotFoundError)) throw e;
          // the Event expired (1 h TTL) or was deleted: create it again under a new name, keeping the count
          c = { ...c, name: this.correlator.rename(c.key, input.involvedObject.name, now) };
        }
      }
      try {
        await this.createEvent(input, c, now);
      } catch (e) {
        if (c.action === 'create') this.correlator.forget(c.key);
        throw e;
      }
    } catch (e) {
      this.report(e, { reason: input.reason, message: input.message, involvedObject: input.involvedObject });
    }
  }

  /** Creates the Event; a name another recorder took in the same millisecond gets one new name and a second try. */
  private async createEvent(input: EventInput, c: CorrelatedEvent, now: Date): Promise<void> {
    try {
      await this.client.create(this.toEvent(input, c));
    } catch (e) {
      if (!(e instanceof AlreadyExistsError)) throw e;
      const name = this.correlator.rename(c.key, input.involvedObject.name, now);
      await this.client.create(this.toEvent(input, { ...c, name }));
    }
  }

  private toEvent(input: EventInput, c: CorrelatedEvent): CoreEvent {
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: c.name, namespace: c.namespace },
      involvedObject: input.involvedObject,
      type: input.type,
      reason: input.reason,
      message: c.message,
      count: c.count,
      firstTimestamp: c.firstTimestamp,
      lastTimestamp: c.lastTimestamp,
      source: input.host ? { component: input.component, host: input.host } : { component: input.component },
      reportingComponent: input.component,
      reportingInstance: this.instance,
    };
  }

  private report(err: unknown, event: { reason: string; message: string; involvedObject?: InvolvedObject }): void {
    try {
      this.options.onError?.(err, event);
    } catch {
      // an error handler that throws must not break the caller either
    }
  }
}
