/**
 * The distribution round (`pkg/controller/resourcedistribution/resourcedistribution_controller.go`): read the
 * distribution from the API server (the bus carries an embedded Secret's data only as a keyed hash, libs/bus
 * `trimForMirror`), match namespaces, write the copies in slow-start batches, delete the copies of namespaces that no
 * longer match, write the status, and return an error for Get/Create/Update/Delete failures (retried with back-off;
 * conflicts and missing namespaces are not retried: namespace events and spec changes re-evaluate them).
 *
 * Which copies are up to date is read from the caches (ownership, resourceVersion); a copy's content is read from
 * the API server only when its resourceVersion or the distribution's hash moved since this process last wrote or
 * checked it (a Secret's data is never on the bus). Traces: one span per round, a child per namespace written.
 */
import {
  RESOURCE_DISTRIBUTION_API_VERSION,
  RESOURCE_DISTRIBUTION_KIND,
  ResourceDistributionAnnotations,
  decodeResource,
  isSupportedResource,
  resourceHashCode,
  type ResourceDistribution,
} from '@regatta/api';
import { FieldPath, isAlreadyExists, isNotFound, refuseInvalidSpec, type EventRecorder, type KubeClient, type KubeObject } from '@regatta/kube';
import type { Reader } from '@regatta/kit';
import type { ReconcileContext, Reconciler, Request, Result } from '@regatta/runtime';
import { withSpan } from '@regatta/telemetry';
import { writeStatus } from '@regatta/workload';
import type { Tracer } from '@opentelemetry/api';
import { inSlowStartBatches } from './batches.js';
import { desiredCopy, isControlledByDistribution, needsUpdate } from './copies.js';
import { DistributionFailedError } from './errors.js';
import { namespacesForDistribution } from './matching.js';
import { specProblem } from './spec-guard.js';
import { distributionStatus, statusChanged, type NamespaceFailure } from './status.js';

export interface ResourceDistributionReconcilerDeps {
  namespaces: Reader<KubeObject>;
  secrets: Reader<KubeObject>;
  configmaps: Reader<KubeObject>;
  client: KubeClient;
  tracer: Tracer;
  /** The InvalidSpec Warning of a distribution that fails validation (spec-guard.ts). */
  recorder: Pick<EventRecorder, 'warning'>;
  /** Feature gate ResourceDistributionGate: off → the controller does nothing. */
  enabled: boolean;
  now?: () => Date;
}

const NOT_EXISTS = 'namespace not found or is terminating';
const CONFLICT = 'conflict with existing resources because of the same namespace, group, version, kind and name';
/** Conditions that make the round fail (and be retried). */
const RETRIED = new Set(['GetResourceFailed', 'CreateResourceFailed', 'UpdateResourceFailed', 'DeleteResourceFailed']);

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class ResourceDistributionReconciler implements Reconciler {
  /** `<kind>/<namespace>/<name>` → `<distribution uid>|<hash>|<resourceVersion>` of a copy known to be up to date. */
  readonly #verified = new Map<string, string>();

  constructor(private readonly d: ResourceDistributionReconcilerDeps) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    if (!this.d.enabled) return {};
    const rd = await this.d.client.getOrUndefined<ResourceDistribution>({
      apiVersion: RESOURCE_DISTRIBUTION_API_VERSION,
      kind: RESOURCE_DISTRIBUTION_KIND,
      name: req.name,
    });
    if (!rd || rd.metadata?.deletionTimestamp) return {};
    const problem = specProblem(rd);
    // nothing to retry until the distribution changes; the event tells the user what to fix
    if (problem) return refuseInvalidSpec(rd, 'ResourceDistribution', problem, this.d.recorder, ctx.log);
    const decoded = decodeResource(rd.spec?.resource, FieldPath.root('spec', 'resource'));
    if (!decoded.resource || !isSupportedResource(decoded.resource)) {
      ctx.log.warn({ name: req.name }, 'spec.resource cannot be distributed; waiting for a spec change');
      return {};
    }
    const resource = decoded.resource;
    const hash = resourceHashCode(rd.spec.resource);
    const existing = this.d.namespaces.list().map((n) => ({
      name: n.metadata?.name ?? '',
      labels: n.metadata?.labels ?? {},
    }));
    const { matched, unmatched } = namespacesForDistribution(rd.spec.targets ?? {}, existing);

    const failures: NamespaceFailure[] = [];
    let succeeded = 0;
    await withSpan(
      'resourcedistribution.distribute',
      {
        'resourcedistribution.name': req.name,
        'resourcedistribution.kind': String(resource['kind']),
        'resourcedistribution.matched': matched.length,
        'resourcedistribution.unmatched': unmatched.length,
      },
      async () => {
        const distributed = await inSlowStartBatches(matched, (ns) => this.distributeTo(rd, resource, hash, ns));
        for (const f of distributed) {
          if (f) failures.push(f);
          else succeeded++;
        }
        const cleaned = await inSlowStartBatches(unmatched, (ns) => this.cleanIn(rd, resource, ns));
        for (const f of cleaned) if (f) failures.push(f);
      },
      { tracer: this.d.tracer },
    );

    const status = distributionStatus(
      { desired: matched.length, succeeded, failures, ...generationOf(rd) },
      rd.status,
      (this.d.now ?? (() => new Date()))(),
    );
    await writeStatus(this.d.client, {
      kind: { apiVersion: RESOURCE_DISTRIBUTION_API_VERSION, kind: RESOURCE_DISTRIBUTION_KIND },
      workload: rd,
      status,
      changed: (stored, next) => statusChanged(stored as ResourceDistribution['status'], next),
    });
    const retried = failures.filter((f) => RETRIED.has(f.condition));
    if (retried.length > 0) throw new DistributionFailedError(req.name, retried);
    return {};
  }

  private readerOf(resource: Record<string, unknown>): Reader<KubeObject> {
    return resource['kind'] === 'Secret' ? this.d.secrets : this.d.configmaps;
  }

  private namespaceUsable(ns: string): boolean {
    const obj = this.d.namespaces.get(undefined, ns) as (KubeObject & { status?: { phase?: string } }) | undefined;
    return !!obj && !obj.metadata?.deletionTimestamp && obj.status?.phase !== 'Terminating';
  }

  private async distributeTo(
    rd: ResourceDistribution,
    resource: Record<string, unknown>,
    hash: string,
    ns: string,
  ): Promise<NamespaceFailure | undefined> {
    if (!this.namespaceUsable(ns)) return { namespace: ns, condition: 'NamespaceNotExists', message: NOT_EXISTS };
    const name = String((resource['metadata'] as KubeObject['metadata'])?.name ?? '');
    const ref = { apiVersion: String(resource['apiVersion']), kind: String(resource['kind']), namespace: ns, name };
    const key = `${ref.kind}/${ns}/${name}`;
    const stamp = (rv: string | undefined) => `${rd.metadata?.uid}|${hash}|${rv}`;
    const cached = this.readerOf(resource).get(ns, name);
    if (cached && !isControlledByDistribution(cached, rd)) {
      return { namespace: ns, condition: 'ConflictOccurred', message: CONFLICT };
    }
    if (cached && this.#verified.get(key) === stamp(cached.metadata?.resourceVersion)) return undefined;

    let live: KubeObject | undefined;
    // a copy this program wrote that the cache does not show yet is read, not created again
    if (cached || this.#verified.has(key)) {
      try {
        live = await this.d.client.getOrUndefined(ref);
      } catch (err) {
        return { namespace: ns, condition: 'GetResourceFailed', message: message(err) };
      }
    }
    if (!live) {
      try {
        const created = await this.write(ns, 'create', () =>
          this.d.client.create(desiredCopy(rd, resource, ns, hash)),
        );
        this.#verified.set(key, stamp(created.metadata?.resourceVersion));
        return undefined;
      } catch (err) {
        if (!isAlreadyExists(err)) return { namespace: ns, condition: 'CreateResourceFailed', message: message(err) };
      }
      try {
        live = await this.d.client.get(ref);
      } catch (err) {
        return { namespace: ns, condition: 'GetResourceFailed', message: message(err) };
      }
    }
    if (!isControlledByDistribution(live, rd)) return { namespace: ns, condition: 'ConflictOccurred', message: CONFLICT };
    const desired = desiredCopy(rd, resource, ns, hash, live);
    const annotated = live.metadata?.annotations?.[ResourceDistributionAnnotations.ResourceHashCode] === hash;
    if (!annotated || needsUpdate(live as Record<string, unknown>, desired)) {
      try {
        const updated = await this.write(ns, 'update', () => this.d.client.replace(desired));
        this.#verified.set(key, stamp(updated.metadata?.resourceVersion));
      } catch (err) {
        return { namespace: ns, condition: 'UpdateResourceFailed', message: message(err) };
      }
    } else {
      this.#verified.set(key, stamp(live.metadata?.resourceVersion));
    }
    return undefined;
  }

  private async cleanIn(
    rd: ResourceDistribution,
    resource: Record<string, unknown>,
    ns: string,
  ): Promise<NamespaceFailure | undefined> {
    if (!this.namespaceUsable(ns)) return undefined;
    const name = String((resource['metadata'] as KubeObject['metadata'])?.name ?? '');
    const cached = this.readerOf(resource).get(ns, name);
    if (!cached || !isControlledByDistribution(cached, rd)) return undefined;
    const ref = { apiVersion: String(resource['apiVersion']), kind: String(resource['kind']), namespace: ns, name };
    try {
      await this.write(ns, 'delete', () =>
        this.d.client.delete(ref, { preconditions: { uid: cached.metadata?.uid ?? '' } }),
      );
      this.#verified.delete(`${ref.kind}/${ns}/${name}`);
    } catch (err) {
      if (!isNotFound(err)) return { namespace: ns, condition: 'DeleteResourceFailed', message: message(err) };
    }
    return undefined;
  }

  /** One API write in a namespace, as a child span of the round. */
  private write<T>(ns: string, action: 'create' | 'update' | 'delete', fn: () => Promise<T>): Promise<T> {
    return withSpan(
      'resourcedistribution.write',
      { 'resourcedistribution.namespace': ns, 'resourcedistribution.action': action },
      fn,
      { tracer: this.d.tracer },
    );
  }
}

function generationOf(rd: ResourceDistribution): { generation?: number } {
  const g = rd.metadata?.generation;
  return typeof g === 'number' ? { generation: g } : {};
}
