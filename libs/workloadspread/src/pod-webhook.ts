/**
 * The pod mutating webhook (OpenKruise `pkg/webhook/pod/mutating/workloadspread.go`, `pkg/util/workloadspread`
 * HandlePodCreation): at CREATE of a pod whose controller is a WorkloadSpread's target, choose its subset
 * (subset-choice.ts), record the choice in the WorkloadSpread's status — read from this process's last write or the
 * cache, whichever is newer; on a conflict read again from the API server, up to 5 times — and inject the subset into
 * the pod (inject.ts). A dry run places nothing and writes nothing. A pod no subset has room for is created as it is,
 * as upstream. The configuration (pod-webhook-configuration.ts) sends only targeted pods here.
 */
import type { Tracer } from '@opentelemetry/api';
import { WORKLOAD_SPREAD_API_VERSION, WORKLOAD_SPREAD_KIND, type Pod, type WorkloadSpread } from '@regatta/api';
import { ConflictError, NotFoundError, type KubeClient, type KubeObject, type OwnWrites } from '@regatta/kube';
import { isPodActive } from '@regatta/lifecycle';
import type { AdmissionInput, MutatingHandler } from '@regatta/runtime';
import { randomUUID } from 'node:crypto';
import { injectSubset } from './inject.js';
import { podVersion } from './matched.js';
import { placePod } from './subset-choice.js';
import { spreadForPod, targetReplicas, workloadOf, type TargetReaders } from './target.js';
import { endPlacementSpan, startPlacementSpan } from './trace.js';

/** Attempts of the status write before the pod is refused (upstream retry.DefaultBackoff: 4 steps; one more here). */
export const STATUS_WRITE_ATTEMPTS = 5;

export interface PodWebhookDeps {
  readers: TargetReaders & { workloadspreads: { list(opts?: { namespace?: string }): WorkloadSpread[] } };
  /** Spreads admitted but not cached yet (admitted.ts). */
  admitted: () => readonly WorkloadSpread[];
  client: Pick<KubeClient, 'get' | 'updateStatus'>;
  ownWrites: OwnWrites;
  tracer: Tracer;
  now?: () => Date;
}

function merged(cached: readonly WorkloadSpread[], admitted: readonly WorkloadSpread[]): WorkloadSpread[] {
  const names = new Set(cached.map((w) => `${w.metadata?.namespace}/${w.metadata?.name}`));
  return [...cached, ...admitted.filter((w) => !names.has(`${w.metadata?.namespace}/${w.metadata?.name}`))];
}

export function workloadSpreadPodDefaulter(deps: PodWebhookDeps): MutatingHandler<Pod> {
  const now = deps.now ?? (() => new Date());
  return async (input: AdmissionInput<Pod>) => {
    const pod = input.object;
    if (!pod || input.operation !== 'CREATE' || input.subResource || input.dryRun || !isPodActive(pod)) return undefined;
    const namespace = input.namespace || pod.metadata?.namespace || 'default';
    const spreads = merged(deps.readers.workloadspreads.list({ namespace }), deps.admitted());
    const found = spreadForPod(pod, namespace, spreads, (name) => deps.readers.replicasets.get(namespace, name));
    if (!found) return undefined;
    const podName = pod.metadata?.name || pod.metadata?.generateName || '';
    const span = startPlacementSpan(deps.tracer, found, podName);
    let attempts = 0;
    const ref = { apiVersion: WORKLOAD_SPREAD_API_VERSION, kind: WORKLOAD_SPREAD_KIND, namespace, name: found.metadata?.name ?? '' };
    try {
      // a spread admitted but not cached yet has no resourceVersion to write on: read it
      let ws = found.metadata?.resourceVersion ? deps.ownWrites.view(found) : await deps.client.get<WorkloadSpread>(ref);
      for (;;) {
        attempts++;
        const placement = placePod({
          ws,
          podName: pod.metadata?.name ?? '',
          version: podVersion(pod),
          replicas: targetReplicas(ws, workloadOf(deps.readers, ws)),
          now: now(),
          newUid: randomUUID,
          statefulSet: ws.spec.targetRef.kind === 'StatefulSet',
        });
        if (placement.updated) {
          try {
            deps.ownWrites.record(
              await deps.client.updateStatus({ ...placement.updated, apiVersion: WORKLOAD_SPREAD_API_VERSION, kind: WORKLOAD_SPREAD_KIND } as KubeObject),
            );
          } catch (err) {
            if (!(err instanceof ConflictError) || attempts >= STATUS_WRITE_ATTEMPTS) throw err;
            ws = await deps.client.get<WorkloadSpread>(ref);
            deps.ownWrites.record(ws);
            continue;
          }
        }
        endPlacementSpan(span, { ...(placement.subset ? { subset: placement.subset } : {}), attempts });
        if (!placement.subset) return undefined;
        return injectSubset(ws, pod, placement.subset, placement.uid);
      }
    } catch (error) {
      endPlacementSpan(span, { attempts, error });
      // the spread is gone: nothing to place in (its entry leaves the configuration at the keeper's next pass)
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
}
