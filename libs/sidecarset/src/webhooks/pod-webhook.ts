/**
 * The pod mutating webhook (OpenKruise `pkg/webhook/pod/mutating/pod_create_update_handler.go`): on CREATE, sidecar
 * injection (`sidecarset.go`), then container launch priority (`container_launch_priority_initialization.go`).
 * UPDATE is not registered: upstream's open-source UPDATE path injects nothing (docs/sidecarset.md).
 *
 * A SidecarSet that fails its own admission rules (stored while the SidecarSet webhook was off or bypassed; the
 * upgrade reconciler refuses it with an `InvalidSpec` event, spec-guard.ts) is not injected either: a pod created
 * meanwhile gets the sidecars of the valid SidecarSets only (docs/reliability-checks.md, R2 with the webhooks removed).
 */
import { SpecGuard, toRfc3339, type Labels } from '@regatta/kube';
import type { AdmissionInput, MutatingHandler } from '@regatta/runtime';
import { injectSidecars } from '../injection/inject.js';
import type { AnySidecarSet, Pod, SidecarSetRevision } from '../injection/types.js';
import { withLaunchBarriers } from '../launch-priority/barrier-env.js';
import { specProblem } from '../spec-guard.js';

export const MUTATE_POD_PATH = '/mutate-pod';

/** What the handler reads (caches). */
export interface PodWebhookSources {
  /** The cached SidecarSets, with those admitted but not cached yet (docs/adr/0040-sidecarset-effective-at-admission.md). */
  sidecarSets(): readonly AnySidecarSet[] | Promise<readonly AnySidecarSet[]>;
  namespaceLabels(namespace: string): Labels | undefined;
  revisions(): readonly SidecarSetRevision[];
  /** Feature gate `EnableSortSidecarContainerByName`. */
  sortContainersByName?: boolean;
  now?: () => Date;
}

const nameOf = (s: AnySidecarSet): string => s.metadata?.name ?? '';

/**
 * The SidecarSets that pass their admission rules (each checked once per generation). The guard forgets a deleted
 * SidecarSet's verdict the first time it remembers more SidecarSets than there are.
 */
export function validSidecarSets(
  sets: readonly AnySidecarSet[],
  guard: SpecGuard<AnySidecarSet>,
): AnySidecarSet[] {
  const valid = sets.filter((s) => guard.problem(nameOf(s), s) === undefined);
  if (guard.size > sets.length) guard.retainOnly(new Set(sets.map(nameOf)));
  return valid;
}

export function podDefaulter(src: PodWebhookSources): MutatingHandler<Pod> {
  const guard = new SpecGuard<AnySidecarSet>(specProblem);
  return async (input: AdmissionInput<Pod>) => {
    const pod = input.object;
    if (!pod || input.operation !== 'CREATE') return undefined;
    const namespace = input.namespace || pod.metadata?.namespace || 'default';
    const withNamespace: Pod = { ...pod, metadata: { ...pod.metadata, namespace } };
    const injected = injectSidecars({
      pod: withNamespace,
      sidecarSets: validSidecarSets(await src.sidecarSets(), guard),
      namespaceLabels: src.namespaceLabels(namespace),
      revisions: src.revisions(),
      now: toRfc3339(src.now?.() ?? new Date()),
      sortContainersByName: src.sortContainersByName ?? false,
    });
    const afterInjection = injected ?? pod;
    const ordered = withLaunchBarriers(afterInjection);
    const result = ordered ?? injected;
    if (!result) return undefined;
    // the namespace is the request's; the object keeps what the client sent
    const metadata = { ...result.metadata };
    if (pod.metadata?.namespace === undefined) delete metadata.namespace;
    return { ...result, metadata };
  };
}
