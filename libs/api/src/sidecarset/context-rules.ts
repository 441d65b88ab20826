/**
 * The SidecarSet rules that need other objects (`pkg/webhook/sidecarset/validating`: `validateSidecarConflict`,
 * `validateSidecarSetCanaryAnnotations`; `pkg/control/sidecarcontrol/util.go` ValidateSidecarSetPatchMetadataWhitelist).
 * The webhook lists the objects and passes them in {@link SidecarSetValidationContext}; the rules are pure.
 */
import { type FieldError, compileLabelSelector, fieldErrors, fieldPath, jsonEqual, type LabelSelector } from '@regatta/kube';
import { SidecarSetAnnotations } from './keys.js';
import { selectorsOverlap } from './selector-overlap.js';
import type { SidecarSet } from './types.js';
import type { SidecarSetVersion } from './version.js';

/** A ControllerRevision of a SidecarSet, as far as `injectionStrategy.revision` needs it. */
export interface SidecarSetRevisionRef {
  metadata?: { name?: string; labels?: Record<string, string> };
}

/** One rule of the whitelist ConfigMap value (`kruise-configuration`, key `SidecarSet_PatchPodMetadata_WhiteList`). */
export interface PatchPodMetadataWhitelistRule {
  /** SidecarSets (by their labels) the rule applies to; unset = every SidecarSet. */
  selector?: LabelSelector;
  /** Regular expressions of the annotation keys allowed. */
  allowedAnnotationKeyExprs: string[];
}

/** The parsed whitelist: `{"rules": [...]}` (`pkg/util/configuration/types.go`). */
export interface PatchPodMetadataWhitelist {
  rules: PatchPodMetadataWhitelistRule[];
}

export interface SidecarSetValidationContext {
  /** The served version the object came in (admission: the request's resource version); default: its apiVersion. */
  version?: SidecarSetVersion;
  /**
   * Every SidecarSet in the cluster, v1beta1 (the object itself may be among them: it is skipped by name). Unset:
   * the conflict and canary-base rules are not checked.
   */
  others?: readonly SidecarSet[];
  /** The ControllerRevisions of SidecarSets (for `injectionStrategy.revision`). Unset: not checked. */
  revisions?: readonly SidecarSetRevisionRef[];
  /** The whitelist; unset when the ConfigMap or its key is absent. */
  patchPodMetadataWhitelist?: PatchPodMetadataWhitelist;
  /** Feature gate `SidecarSetPatchPodMetadataDefaultsAllowed` (default false). */
  patchPodMetadataDefaultsAllowed?: boolean;
}

/** Upstream `ValidateSidecarSetPatchMetadataWhitelist`: the problem with the patched annotation keys, or undefined. */
export function patchMetadataWhitelistProblem(scs: SidecarSet, ctx: SidecarSetValidationContext): string | undefined {
  const patches = scs.spec.patchPodMetadata ?? [];
  if (patches.length === 0) return undefined;
  const whitelist = ctx.patchPodMetadataWhitelist;
  if (!whitelist) return ctx.patchPodMetadataDefaultsAllowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  const exprs: RegExp[] = [];
  for (const rule of whitelist.rules ?? []) {
    if (rule.selector) {
      try {
        if (!compileLabelSelector(rule.selector).matches(scs.metadata?.labels)) continue;
      } catch (e) {
        return `invalid whitelist selector: ${(e as Error).message}`;
      }
    }
    for (const key of rule.allowedAnnotationKeyExprs ?? []) {
      try {
        exprs.push(new RegExp(key));
      } catch (e) {
        return `invalid whitelist expression ${key}: ${(e as Error).message}`;
      }
    }
  }
  if (exprs.length === 0) {
    return ctx.patchPodMetadataDefaultsAllowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  }
  for (const patch of patches) {
    for (const key of Object.keys(patch.annotations ?? {})) {
      if (!exprs.some((r) => r.test(key))) return `sidecarSet patch metadata annotation(${key}) is not allowed`;
    }
  }
  return undefined;
}

/** Whether two SidecarSets can inject into the same pod: overlapping namespace selectors and selectors. */
export function sidecarSetsOverlap(a: SidecarSet, b: SidecarSet): boolean {
  const nsA = a.spec.namespaceSelector;
  const nsB = b.spec.namespaceSelector;
  if (nsA != null && nsB != null && !selectorsOverlap(nsA, nsB)) return false;
  return selectorsOverlap(a.spec.selector, b.spec.selector);
}

const isCanary = (s: SidecarSet): boolean => s.metadata?.annotations?.[SidecarSetAnnotations.Canary] === 'true';
const baseOf = (s: SidecarSet): string | undefined => s.metadata?.annotations?.[SidecarSetAnnotations.Base];

/** A canary and its base replace each other in a pod, so their names may be the same. */
function canaryPair(a: SidecarSet, b: SidecarSet): boolean {
  return (isCanary(a) && baseOf(a) === b.metadata?.name) || (isCanary(b) && baseOf(b) === a.metadata?.name);
}

/**
 * Upstream `validateSidecarConflict`: container, init container, volume (with another definition) and non-Retain
 * patched annotation names already used by another SidecarSet that may inject into the same pods.
 */
export function conflictErrors(scs: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const name = scs.metadata?.name;
  const overlapping = (ctx.others ?? []).filter(
    (o) => o.metadata?.name !== name && !canaryPair(scs, o) && sidecarSetsOverlap(scs, o),
  );
  const errs: FieldError[] = [];
  const path = fieldPath('spec');
  const firstWith = (pick: (o: SidecarSet) => boolean): SidecarSet | undefined => overlapping.find(pick);
  for (const [list, field] of [
    [scs.spec.initContainers, 'initContainers'],
    [scs.spec.containers, 'containers'],
  ] as const) {
    for (const c of list ?? []) {
      const other = firstWith((o) => (o.spec[field] ?? []).some((x) => x.name === c.name));
      if (other) {
        errs.push(fieldErrors.invalid(path.child('containers'), c.name, `container ${c.name} already exist in ${other.metadata?.name ?? ''}`));
      }
    }
  }
  for (const v of scs.spec.volumes ?? []) {
    for (const o of overlapping) {
      const theirs = (o.spec.volumes ?? []).find((x) => x.name === v.name);
      if (theirs && !jsonEqual(theirs, v)) {
        errs.push(fieldErrors.invalid(path.child('volumes'), v.name, `volume ${v.name} is in conflict with sidecarset ${o.metadata?.name ?? ''}`));
        break;
      }
    }
  }
  for (const patch of scs.spec.patchPodMetadata ?? []) {
    if ((patch.patchPolicy ?? 'Retain') === 'Retain') continue;
    for (const key of Object.keys(patch.annotations ?? {})) {
      for (const o of overlapping) {
        const theirs = (o.spec.patchPodMetadata ?? []).find(
          (p) => (p.patchPolicy ?? 'Retain') !== 'Retain' && Object.hasOwn(p.annotations ?? {}, key),
        );
        if (theirs && (patch.patchPolicy === 'Overwrite' || theirs.patchPolicy === 'Overwrite')) {
          errs.push(fieldErrors.invalid(path.child('patchPodMetadata'), key, `annotation ${key} is in conflict with sidecarset ${o.metadata?.name ?? ''}`));
          break;
        }
      }
    }
  }
  return errs;
}

/**
 * Canary SidecarSets (`apps.kruise.io/sidecarset-canary: "true"` + `apps.kruise.io/sidecarset-base: <name>`): the
 * base must exist, must not be the canary itself nor another canary, and the canary must use `NotUpdate`. (The
 * base annotation's immutability is an UPDATE rule, `update-validation.ts`.)
 */
export function canaryErrors(scs: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  if (!isCanary(scs)) return [];
  const path = fieldPath('metadata');
  const annotations = scs.metadata?.annotations ?? {};
  const base = baseOf(scs);
  const errs: FieldError[] = [];
  if (!base) {
    errs.push(fieldErrors.invalid(path, annotations, `annotations[${SidecarSetAnnotations.Base}] is required for canary sidecarSet`));
  } else if (base === scs.metadata?.name) {
    errs.push(fieldErrors.invalid(path, annotations, 'base sidecarSet cannot be itself'));
  } else if (ctx.others) {
    const found = ctx.others.find((o) => o.metadata?.name === base);
    if (!found) {
      errs.push(fieldErrors.invalid(path, annotations, `fetch base sidecarSet[${base}] failed: sidecarsets.apps.kruise.io "${base}" not found`));
    } else if (isCanary(found)) {
      errs.push(fieldErrors.invalid(path, annotations, 'base sidecarSet cannot be canary'));
    }
  }
  if ((scs.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    errs.push(fieldErrors.invalid(path, annotations, 'RollingUpdate is not supported for canary sidecarSet'));
  }
  return errs;
}
