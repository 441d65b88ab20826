/**
 * Keeps a controller's webhook configurations in step with what it serves: every few seconds each replica reads
 * them (a GET per object, no watch: controllers never watch the API server); the leader re-applies any that is
 * missing or whose webhooks drifted (URL or Service, caBundle, rules, matchConditions) or that lost its owner. Non-leaders only observe: the
 * configurations point at the leader's URL, and every replica serves with the shared certificate, so a follower is
 * ready once the configurations exist and trust that CA. See docs/adr/0013-webhook-ownership.md.
 *
 * Every configuration it applies carries its mark (the label {@link KEEPER_LABEL}: the program, and a hash of its
 * namespace scope); the leader deletes the configurations with its mark that it no longer wants (a configuration
 * left out of the declaration, the scope's or a gate's change), and only those (docs/adr/0085-stale-webhook-configurations.md).
 * A webhook entry left out of a configuration it still wants goes with the next apply (server-side apply drops the
 * list entries its field manager applied before and applies no more).
 */
import { createHash } from 'node:crypto';
import { type KubeClient, type KubeObject } from '@regatta/kube';
import { deepEqual, type Checker, type Logger, type Runnable } from '@regatta/runtime';
import { mapWebhooks } from './webhook-endpoint.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
const CONFIGURATION_KINDS = [
  ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
  ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
] as const;

/** The label that marks the configurations a keeper applied, so that it deletes those alone. */
export const KEEPER_LABEL = 'regatta.dev/webhook-keeper';

/**
 * The keeper's mark: `regatta-<name>`, and with a namespace scope a hash of its labels (programs of one name serving
 * different scopes keep different configurations, and must never delete each other's).
 */
export function keeperMark(
  program: string,
  scope: { matchLabels: Record<string, string> } | undefined,
): string {
  if (!scope) return program;
  const labels = Object.entries(scope.matchLabels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256').update(JSON.stringify(labels)).digest('hex').slice(0, 10);
  return `${program}.${hash}`;
}

/** The configuration with the keeper's mark among its labels. */
export function marked(obj: KubeObject, mark: string): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata?.labels, [KEEPER_LABEL]: mark } } };
}

/**
 * Whether `observed` holds everything `desired` says: objects field by field (fields `desired` leaves out are the
 * API server's defaults and ignored), arrays element by element and of the same length, scalars equal.
 */
export function holds(observed: unknown, desired: unknown): boolean {
  if (Array.isArray(desired)) {
    return (
      Array.isArray(observed) &&
      observed.length === desired.length &&
      desired.every((d, i) => holds(observed[i], d))
    );
  }
  if (typeof desired === 'object' && desired !== null) {
    if (typeof observed !== 'object' || observed === null || Array.isArray(observed)) return false;
    const o = observed as Record<string, unknown>;
    return Object.entries(desired).every(([k, v]) => v === undefined || holds(o[k], v));
  }
  return deepEqual(observed, desired);
}

/** The configuration without its webhooks' `clientConfig.url`: what a follower checks (the URL is the leader's). */
export function withoutUrls(obj: KubeObject): KubeObject {
  return mapWebhooks(obj, (w) => {
    const { url: _url, ...clientConfig } = w.clientConfig ?? {};
    return { ...w, clientConfig };
  });
}

/** Whether the observed configuration (undefined when absent) is in step with the desired one. */
export function inStep(
  observed: KubeObject | undefined,
  desired: KubeObject,
  { leader }: { leader: boolean },
): boolean {
  if (!observed) return false;
  const labels = desired.metadata?.labels;
  if (labels && !holds(observed.metadata?.labels ?? {}, labels)) return false;
  const owners = desired.metadata?.ownerReferences;
  if (owners && !holds(observed.metadata?.ownerReferences, owners)) return false;
  const want = leader ? desired : withoutUrls(desired);
  return holds((observed as { webhooks?: unknown }).webhooks, (want as { webhooks?: unknown }).webhooks);
}

export interface WebhookConfigurationKeeperOptions {
  client: Pick<KubeClient, 'getOrUndefined' | 'patch' | 'request'>;
  fieldManager: string;
  /**
   * The keeper's mark ({@link keeperMark}): given, every desired configuration is applied with it, and the leader
   * deletes the configurations carrying it that are not desired any more. Without one nothing is deleted.
   */
  mark?: string;
  /**
   * The configurations as they should be (pointing at this replica's URL); a function is called on every pass, for
   * configurations that follow the cluster (the SidecarSet pod webhook's entries follow the SidecarSets).
   */
  desired: readonly KubeObject[] | (() => readonly KubeObject[]);
  /** Whether this replica leads now (only the leader writes). */
  isLeader: () => boolean;
  /** Default 2 s. */
  intervalMs?: number;
  /** How often the leader looks for stale configurations while the desired names stay the same. Default 30 s. */
  sweepIntervalMs?: number;
  log: Logger;
  now?: () => number;
}

/** What a route may ask of the keeper (docs/adr/0040-sidecarset-effective-at-admission.md). */
export interface WebhookConfigurationsNow {
  /**
   * Runs a pass now, after any running one, and resolves with its result: true once the API server holds the
   * configurations as declared at the time of the call; false when there is no keeper yet or this replica does not
   * lead and they are not in step. Rejects when the API server cannot be read or written.
   */
  applyNow(): Promise<boolean>;
}

/** The handle a program gives its routes before its keeper exists (the keeper starts once the server listens). */
export class LateWebhookConfigurations implements WebhookConfigurationsNow {
  #keeper: WebhookConfigurationKeeper | undefined;

  bind(keeper: WebhookConfigurationKeeper): void {
    this.#keeper = keeper;
  }

  async applyNow(): Promise<boolean> {
    return this.#keeper ? this.#keeper.syncOnce() : false;
  }
}

/** The loop, as a runnable on every replica (not leader-elected: followers observe, for readiness). */
export class WebhookConfigurationKeeper implements Runnable {
  readonly name = 'webhook-configurations';
  #inStep = false;
  #wake: (() => void) | undefined;
  #woken = false;

  constructor(private readonly options: WebhookConfigurationKeeperOptions) {}

  /** Ready once the configurations exist and trust the shared CA (and, on the leader, point at it). */
  readyCheck(): Checker {
    return () => {
      if (!this.#inStep) throw new Error('webhook configurations not in step yet');
    };
  }

  /** Runs the next pass now (this replica just became the leader: re-point the configurations at once). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Runs the next pass now if the desired configurations differ from those of the last pass (a change in the caches
   * they follow: a new SidecarSet gets its pod webhook entry at once, not at the next poll).
   */
  wakeIfChanged(): void {
    if (this.#lastDesired === undefined || JSON.stringify(this.#desired()) !== this.#lastDesired) this.wake();
  }

  #lastDesired: string | undefined;

  #desired(): readonly KubeObject[] {
    const desired =
      typeof this.options.desired === 'function' ? this.options.desired() : this.options.desired;
    const mark = this.options.mark;
    return mark === undefined ? desired : desired.map((c) => marked(c, mark));
  }

  /** The desired names of the last sweep and when it ran (undefined: none yet, or not leading since). */
  #lastSweep: { names: string; at: number } | undefined;

  #passes: Promise<unknown> = Promise.resolve();

  /**
   * One pass: read every configuration, re-apply (leader only) those missing or drifted. True when all in step.
   * Passes never overlap: one asked for while another runs (the loop's, or an admission handler's through
   * {@link WebhookConfigurationsNow}) starts after it, with the desired configurations as they are then, so a pass
   * computed before a change can never overwrite one computed after it.
   */
  syncOnce(): Promise<boolean> {
    const pass = this.#passes.then(() => this.#pass());
    this.#passes = pass.catch(() => undefined);
    return pass;
  }

  async #pass(): Promise<boolean> {
    const { client, log, fieldManager } = this.options;
    const desired = this.#desired();
    this.#lastDesired = JSON.stringify(desired);
    let all = true;
    for (const want of desired) {
      const ref = { apiVersion: ADMISSION, kind: want.kind ?? '', name: want.metadata?.name ?? '' };
      const leader = this.options.isLeader();
      const seen = await client.getOrUndefined(ref);
      if (inStep(seen, want, { leader })) continue;
      if (!leader) {
        all = false;
        continue;
      }
      await client.patch(ref, want, { type: 'apply', force: true, fieldManager });
      log.info(
        { kind: ref.kind, name: ref.name, recreated: seen === undefined },
        'webhook configuration applied',
      );
    }
    // a sweep that fails (the API server, or RBAC without deletecollection) leaves stale ones for the next pass; it
    // never holds up what the pass applied
    if (this.options.isLeader())
      await this.#sweep(desired).catch((err: unknown) =>
        log.warn({ err }, 'could not delete stale webhook configurations; retrying'),
      );
    else this.#lastSweep = undefined;
    return all;
  }

  /**
   * Deletes the configurations with this keeper's mark that are not desired (leader only): at once when the desired
   * names changed or this replica just took the lead, else at most every `sweepIntervalMs`. One DELETE of the
   * collection per kind, selecting the mark by label and leaving out the desired names by field: the controller
   * still lists nothing (its ClusterRole has `deletecollection`, not `list`).
   */
  async #sweep(desired: readonly KubeObject[]): Promise<void> {
    const { client, log, mark } = this.options;
    if (mark === undefined) return;
    const names = desired.map((c) => `${c.kind}/${c.metadata?.name}`).sort();
    const key = names.join(',');
    const now = (this.options.now ?? Date.now)();
    const last = this.#lastSweep;
    if (last && last.names === key && now - last.at < (this.options.sweepIntervalMs ?? 30_000)) return;
    for (const [kind, resource] of CONFIGURATION_KINDS) {
      const kept = desired.filter((c) => c.kind === kind).map((c) => `metadata.name!=${c.metadata?.name}`);
      const gone = await client.request<{ items?: KubeObject[] } | undefined>(
        'DELETE',
        `/apis/${ADMISSION}/${resource}`,
        {
          query: {
            labelSelector: `${KEEPER_LABEL}=${mark}`,
            ...(kept.length > 0 ? { fieldSelector: kept.join(',') } : {}),
          },
        },
      );
      for (const item of gone?.items ?? [])
        log.info({ kind, name: item.metadata?.name }, 'stale webhook configuration deleted');
    }
    this.#lastSweep = { names: key, at: now };
  }

  async start(signal: AbortSignal): Promise<void> {
    const interval = this.options.intervalMs ?? 2_000;
    let failures = 0;
    while (!signal.aborted) {
      try {
        this.#inStep = await this.syncOnce();
        failures = 0;
      } catch (err) {
        failures++;
        this.options.log.warn(
          { err, failures },
          'could not keep the webhook configurations in step; retrying',
        );
      }
      if (this.#woken) {
        this.#woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          this.#wake = undefined;
          this.#woken = false;
          resolve();
        };
        const t = setTimeout(done, failures ? Math.min(interval * 2 ** failures, 10_000) : interval);
        this.#wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}
