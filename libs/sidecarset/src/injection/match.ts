/**
 * Which SidecarSets a pod gets (OpenKruise `pkg/control/sidecarcontrol/util.go` `PodMatchedSidecarSet`, and the
 * canary rule of `pkg/webhook/pod/mutating/sidecarset.go`): not injection-paused, the namespace selected, the
 * (non-empty) selector matching the pod's labels; a canary SidecarSet replaces its base.
 */
import { SidecarSetAnnotations, SidecarSetLabels } from '@regatta/api';
import { type CompiledSelector, compileLabelSelector, type Labels } from '@regatta/kube';
import type { AnySidecarSet, Pod } from './types.js';

/** A pod is injected only while active: not being deleted, not Succeeded/Failed (`kubecontroller.IsPodActive`). */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

/** The namespace selector a SidecarSet applies, v1alpha1's `spec.namespace` first (as upstream's conversion does). */
export function namespaceSelectorOf(s: AnySidecarSet): AnySidecarSet['spec']['namespaceSelector'] {
  if (s.spec.namespace) return { matchLabels: { [SidecarSetLabels.NamespaceName]: s.spec.namespace } };
  return s.spec.namespaceSelector;
}

/** Whether the SidecarSet selects the pod (namespace labels as read from the cache; undefined = unknown namespace). */
export function podMatchesSidecarSet(
  pod: Pod,
  s: AnySidecarSet,
  namespaceLabels: Labels | undefined,
): boolean {
  const nsSelector = namespaceSelectorOf(s);
  if (nsSelector) {
    // upstream reads the Namespace; an unreadable one is not selected
    if (namespaceLabels === undefined) return false;
    if (!safeMatches(nsSelector, namespaceLabels)) return false;
  }
  const compiled = compiledSelector(s.spec.selector);
  return !!compiled && !compiled.everything && compiled.matches(pod.metadata?.labels ?? {});
}

/** The canary SidecarSets' bases, which are not injected when their canary is (`apps.kruise.io/sidecarset-base`). */
export function withoutCanaryBases<T extends AnySidecarSet>(matched: readonly T[]): T[] {
  const bases = new Set(
    matched
      .filter((s) => s.metadata?.annotations?.[SidecarSetAnnotations.Canary] === 'true')
      .map((s) => s.metadata?.annotations?.[SidecarSetAnnotations.Base])
      .filter((b): b is string => !!b),
  );
  return matched.filter((s) => !bases.has(s.metadata?.name ?? ''));
}

/** §5.2 steps 1 and 3: the SidecarSets to inject into `pod`, by name order. */
export function matchSidecarSets(
  pod: Pod,
  sidecarSets: readonly AnySidecarSet[],
  namespaceLabels: Labels | undefined,
): AnySidecarSet[] {
  const matched = sidecarSets
    .filter((s) => !s.spec.injectionStrategy?.paused && podMatchesSidecarSet(pod, s, namespaceLabels))
    .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  return withoutCanaryBases(matched);
}

type Selector = Parameters<typeof compileLabelSelector>[0];

/**
 * Selectors compiled (validated, sorted) once per selector object, not once per admission request: a cached
 * SidecarSet is replaced whole when it changes, so its selector object stands for one version of it.
 */
const compiledSelectors = new WeakMap<object, CompiledSelector | undefined>();

/** The selector compiled; undefined for none or an invalid one, which matches nothing. */
export function compiledSelector(selector: Selector): CompiledSelector | undefined {
  if (!selector) return undefined;
  if (compiledSelectors.has(selector)) return compiledSelectors.get(selector);
  let compiled: CompiledSelector | undefined;
  try {
    compiled = compileLabelSelector(selector);
  } catch {
    // an invalid selector matches nothing (upstream returns the parse error; validation refuses such SidecarSets)
    compiled = undefined;
  }
  compiledSelectors.set(selector, compiled);
  return compiled;
}

function safeMatches(selector: Selector, labels: Labels): boolean {
  const c = compiledSelector(selector);
  return !!c && c.matches(labels);
}
