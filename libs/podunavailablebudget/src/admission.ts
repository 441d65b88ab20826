/**
 * The pod webhook of the budget (upstream `pkg/webhook/pod/validating/pod_unavailable_budget.go` and
 * `PodUnavailableBudgetValidatePod`): DELETE, eviction and (with the update gate) in-place UPDATE of a guarded pod
 * spend the budget or are refused with upstream's message; and the PodUnavailableBudget validation.
 */
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  PUB_KIND,
  PubKeys,
  validatePodUnavailableBudget,
  type Pod,
  type PodUnavailableBudget,
  type PubOperation,
} from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  type AdmissionInput,
  type ValidatingHandler,
  type ValidationResult,
  fieldErrorCauses,
  invalid,
} from '@regatta/runtime';
import {
  canResizeInPlace,
  decide,
  isPodUnavailableChanged,
  refusalMessage,
  spend,
  startsInPlaceUpdate,
} from './decision.js';
import { CONFLICT_STEPS, type BudgetStore } from './store.js';

/** The trace span of a refused pod operation. */
export const REFUSED_SPAN_NAME = 'podunavailablebudget.refuse';

export interface PodAdmissionDeps {
  store: BudgetStore;
  /** The pod an eviction names (the bus cache's copy, else the API server's). */
  getPod: (namespace: string, name: string) => Promise<Pod | undefined>;
  /** PodUnavailableBudgetDeleteGate / PodUnavailableBudgetUpdateGate. */
  gates: { guardDeletes: boolean; guardUpdates: boolean; inPlaceVerticalScaling?: boolean };
  tracer?: Tracer;
  /** Upstream's `PubPreventPodDeletion` Warning on the pod. */
  onRefused?: (pod: Pod, pubName: string, operation: PubOperation, message: string) => void;
  now?: () => Date;
}

const allow: ValidationResult = { allowed: true };

/** A refusal: 403 Forbidden with the message the API server passes on to the client. */
function forbidden(message: string): ValidationResult {
  return { allowed: false, status: { code: 403, reason: 'Forbidden', message } };
}

class Refused extends Error {}

/** Which pod and operation a request is about; undefined when the budget has nothing to say. */
async function operationOf(
  input: AdmissionInput<Pod>,
  deps: PodAdmissionDeps,
): Promise<{ pod: Pod; operation: PubOperation } | undefined> {
  switch (input.operation) {
    case 'UPDATE': {
      if (!deps.gates.guardUpdates) return undefined;
      const next = input.object;
      const old = input.oldObject;
      if (!next || !old || !next.metadata?.annotations?.[PubKeys.RelatedPub]) return undefined;
      // the status write that starts an in-place update (InPlaceUpdateReady → False): the budget is spent before the
      // pod turns unavailable, as upstream's workloads ask pub control first (docs/adr/0080)
      if (input.subResource === 'status')
        return startsInPlaceUpdate(old, next) ? { pod: old, operation: 'UPDATE' } : undefined;
      if (input.subResource) return undefined;
      if (!isPodUnavailableChanged(old, next)) return undefined;
      return { pod: old, operation: canResizeInPlace(old, next) ? 'RESIZE' : 'UPDATE' };
    }
    case 'DELETE':
      if (!deps.gates.guardDeletes || input.subResource || !input.oldObject) return undefined;
      return { pod: input.oldObject, operation: 'DELETE' };
    case 'CREATE': {
      if (!deps.gates.guardDeletes || input.subResource !== 'eviction') return undefined;
      const pod = await deps.getPod(input.namespace ?? '', input.name ?? '');
      return pod ? { pod, operation: 'EVICT' } : undefined;
    }
    default:
      return undefined;
  }
}

export function podBudgetValidator(deps: PodAdmissionDeps): ValidatingHandler<Pod> {
  const now = deps.now ?? (() => new Date());
  return async (input) => {
    const op = await operationOf(input, deps);
    if (!op) return allow;
    const { pod, operation } = op;
    const namespace = pod.metadata?.namespace ?? input.namespace ?? '';
    const pubName = pod.metadata?.annotations?.[PubKeys.RelatedPub];
    if (!pubName) return allow;
    const first = decide(pod, deps.store.newest(namespace, pubName), operation, deps.gates);
    if (first.kind === 'allow') return allow;
    try {
      await deps.store.changeStatus(namespace, pubName, (pub) => {
        // decided again on the newest copy: another request may have recorded the pod or spent the last unit
        if (decide(pod, pub, operation, deps.gates).kind === 'allow') return undefined;
        const r = spend(pub.status, pod.metadata?.name ?? '', operation, now());
        if (!r.ok) throw new Refused(r.refusal);
        return input.dryRun ? undefined : r.status;
      });
      return allow;
    } catch (e) {
      const reason =
        e instanceof Refused
          ? e.message
          : (e as { name?: string }).name === 'ConflictError'
            ? `couldn't update PodUnavailableBudget ${pubName} due to conflicts (${CONFLICT_STEPS} tries)`
            : undefined;
      if (reason === undefined) throw e;
      const message = refusalMessage(pubName, reason);
      refusedSpan(deps.tracer, pod, pubName, operation, message);
      deps.onRefused?.(pod, pubName, operation, message);
      return forbidden(message);
    }
  };
}

function refusedSpan(
  tracer: Tracer | undefined,
  pod: Pod,
  pubName: string,
  operation: PubOperation,
  message: string,
) {
  if (!tracer) return;
  const span = tracer.startSpan(REFUSED_SPAN_NAME, {
    kind: SpanKind.SERVER,
    attributes: {
      'k8s.namespace.name': pod.metadata?.namespace ?? '',
      'k8s.pod.name': pod.metadata?.name ?? '',
      'regatta.pub.name': pubName,
      'regatta.pub.operation': operation,
    },
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/** PodUnavailableBudget CREATE/UPDATE: upstream's rules with field paths (422). */
export function pubValidator(
  others: (namespace: string) => readonly PodUnavailableBudget[],
): ValidatingHandler<PodUnavailableBudget & KubeObject> {
  return (input) => {
    const obj = input.object;
    if (!obj) return allow;
    const ns = input.namespace ?? obj.metadata?.namespace ?? '';
    const errors = validatePodUnavailableBudget(
      obj,
      input.operation === 'UPDATE' ? (input.oldObject ?? undefined) : undefined,
      others(ns),
    );
    if (errors.length === 0) return allow;
    return invalid(
      { group: 'policy.kruise.io', kind: PUB_KIND, name: input.name ?? obj.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}
