/**
 * SidecarSet validation, as OpenKruise's validating webhook (`pkg/webhook/sidecarset/validating/
 * sidecarset_create_update_handler.go`): the same rules and messages, with the JSON paths of the fields. A v1alpha1
 * object is validated converted to v1beta1, as upstream does. Rules that need other objects (the other SidecarSets,
 * the revisions, the patchPodMetadata whitelist) take them from {@link SidecarSetValidationContext}: the function
 * stays pure, the webhook lists them.
 *
 * Where Regatta differs (docs/adr/0025-sidecarset-api.md), always stricter: `updateStrategy.type`, `upgradeType` and
 * `patchPolicy` must be known values; `HotUpgrade` needs `hotUpgradeEmptyImage` (upstream injects a container
 * without image, and the API server then refuses the pod); selector overlap is decided soundly
 * (`selector-overlap.ts`). One rule is lifted instead: a native sidecar (an init container with `restartPolicy:
 * Always`) is accepted with `RollingUpdate`, as Regatta upgrades it in place
 * (docs/adr/0090-native-sidecar-in-place-upgrade.md).
 *
 * Every entry point accepts any JSON value and never throws: the JSON types of the fields read are checked first
 * (`shape.ts`); an object with type errors gets those errors only.
 */
import {
  type FieldError,
  type FieldPath,
  type LabelSelector,
  fieldErrors,
  fieldPath,
  isQualifiedName,
  validateLabelSelector,
  validatePositiveIntOrPercent,
} from '@regatta/kube';
import { validateAnnotations, validateObjectMeta } from '../core/meta-validation.js';
import { validatePodSpecSubset } from '../core/pod-template-validation.js';
import { withoutNullMembers } from '../core/shape.js';
import { priorityStrategyProblem, scatterStrategyProblem } from '../cloneset/validation.js';
import {
  canaryErrors,
  conflictErrors,
  patchMetadataWhitelistProblem,
  type SidecarSetRevisionRef,
  type SidecarSetValidationContext,
} from './context-rules.js';
import { isNativeSidecar } from './hash.js';
import { parseResourceExpression } from './resource-expression.js';
import { sidecarSetShapeErrors } from './shape.js';
import { sidecarSetToV1beta1 } from './conversion.js';
import {
  POD_INJECT_POLICIES,
  SHARE_VOLUME_POLICY_TYPES,
  SIDECAR_UPGRADE_TYPES,
  SIDECARSET_INJECT_REVISION_POLICIES,
  SIDECARSET_PATCH_POLICIES,
  SIDECARSET_UPDATE_STRATEGY_TYPES,
  TARGET_CONTAINERS_MODES,
  type SidecarContainer,
  type SidecarSet,
  type SidecarSetSpec,
  type SidecarSetUpdateStrategy,
} from './types.js';
import { sidecarSetVersionOf } from './version.js';

export type { SidecarSetRevisionRef, SidecarSetValidationContext } from './context-rules.js';

export const SIDECARSET_NAME_MAX_LENGTH = 63;
const NAME_RE = /^[a-zA-Z0-9-]+$/;

function nameErrors(name: string | undefined, path: FieldPath): FieldError[] {
  if (!name) return [];
  const errs: FieldError[] = [];
  if (!NAME_RE.test(name)) {
    errs.push(
      fieldErrors.invalid(path, name, "sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')"),
    );
  }
  if (name.length > SIDECARSET_NAME_MAX_LENGTH) {
    errs.push(fieldErrors.invalid(path, name, `must be no more than ${SIDECARSET_NAME_MAX_LENGTH} characters`));
  }
  return errs;
}

/** `validateSelector`: a valid, non-empty selector. */
export function sidecarSelectorErrors(selector: LabelSelector, path: FieldPath): FieldError[] {
  const errs = validateLabelSelector(selector, path);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(fieldErrors.invalid(path, selector, 'empty selector is not valid for sidecarset.'));
  }
  return errs;
}

/** A partition that keeps pods back: any string, or a non-zero integer (upstream `intStrIsSet`). */
function partitionIsSet(p: SidecarSetUpdateStrategy['partition']): boolean {
  return p != null && (typeof p === 'string' || p !== 0);
}

function updateStrategyErrors(us: SidecarSetUpdateStrategy, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = us.type ?? 'RollingUpdate';
  if (!(SIDECARSET_UPDATE_STRATEGY_TYPES as readonly string[]).includes(type)) {
    errs.push(fieldErrors.notSupported(path.child('type'), type, SIDECARSET_UPDATE_STRATEGY_TYPES));
  }
  if (type !== 'RollingUpdate') return errs;
  if (partitionIsSet(us.partition) && us.selector != null) {
    errs.push(fieldErrors.invalid(path, us, 'Partition and Selector cannot be used together'));
  }
  if (us.selector != null) errs.push(...sidecarSelectorErrors(us.selector, path.child('selector')));
  if (us.partition != null) errs.push(...validatePositiveIntOrPercent(us.partition, path.child('partition')));
  if (us.maxUnavailable != null) errs.push(...validatePositiveIntOrPercent(us.maxUnavailable, path.child('maxUnavailable')));
  const priority = priorityStrategyProblem(us.priorityStrategy);
  if (priority) errs.push(fieldErrors.required(path.child('priorityStrategy'), priority));
  const scatter = scatterStrategyProblem(us.scatterStrategy);
  if (scatter) errs.push(fieldErrors.required(path.child('scatterStrategy'), scatter));
  return errs;
}

function fieldRefErrors(ref: { apiVersion?: string; fieldPath?: string }, path: FieldPath): FieldError[] {
  if (!ref.apiVersion) return [fieldErrors.required(path.child('apiVersion'), '')];
  if (!ref.fieldPath) return [fieldErrors.required(path.child('fieldPath'), '')];
  if (ref.apiVersion !== 'v1') {
    return [fieldErrors.invalid(path.child('fieldPath'), ref.fieldPath, `error converting fieldPath: unsupported pod version: ${ref.apiVersion}`)];
  }
  const m = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(ref.fieldPath);
  // only a subscripted label or annotation names a source container (upstream ConvertDownwardAPIFieldLabel)
  if (!m) {
    return [fieldErrors.invalid(path.child('fieldPath'), ref.fieldPath, `error converting fieldPath: field label not supported: ${ref.fieldPath}`)];
  }
  const key = m[2] ?? '';
  const msgs = isQualifiedName(m[1] === 'metadata.annotations' ? key.toLowerCase() : key);
  return msgs.map((msg) => fieldErrors.invalid(path, key, msg));
}

function resourcesPolicyErrors(c: SidecarContainer, path: FieldPath): FieldError[] {
  const policy = c.resourcesPolicy;
  if (!policy) return [];
  const res = c.resources;
  if (Object.keys(res?.limits ?? {}).length > 0 || Object.keys(res?.requests ?? {}).length > 0) {
    return [fieldErrors.invalid(path, policy, 'resourcesPolicy and resources cannot be configured together')];
  }
  const errs: FieldError[] = [];
  if (!(TARGET_CONTAINERS_MODES as readonly string[]).includes(policy.targetContainersMode)) {
    errs.push(fieldErrors.notSupported(path.child('targetContainersMode'), policy.targetContainersMode ?? '', TARGET_CONTAINERS_MODES));
  }
  const regex = policy.targetContainersNameRegex;
  if (!regex) errs.push(fieldErrors.required(path.child('targetContainersNameRegex'), 'invalid empty regex'));
  else {
    try {
      new RegExp(regex);
    } catch (e) {
      errs.push(fieldErrors.invalid(path.child('targetContainersNameRegex'), regex, `invalid regex pattern: ${(e as Error).message}`));
    }
  }
  const expr = policy.resourcesExpr ?? {};
  const exprPath = path.child('resourcesExpr');
  if (expr.limits == null && expr.requests == null) {
    errs.push(fieldErrors.invalid(exprPath, expr, 'at least one of limits or requests must be configured'));
    return errs;
  }
  for (const part of ['limits', 'requests'] as const) {
    for (const resource of ['cpu', 'memory'] as const) {
      const text = expr[part]?.[resource];
      if (!text) continue;
      const parsed = parseResourceExpression(text, resource);
      if (!parsed.ok) errs.push(fieldErrors.invalid(exprPath.child(part, resource), text, parsed.error));
    }
  }
  return errs;
}

function sidecarFieldErrors(c: SidecarContainer, path: FieldPath, init: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (init && c.resourcesPolicy && !isNativeSidecar(c)) {
    errs.push(fieldErrors.invalid(path.child('resourcesPolicy'), c.resourcesPolicy, 'resourcesPolicy is only supported for containers with RestartPolicy Always'));
  }
  if (!init) {
    const inject = c.podInjectPolicy ?? 'BeforeAppContainer';
    if (!(POD_INJECT_POLICIES as readonly string[]).includes(inject)) {
      errs.push(fieldErrors.invalid(path.child('podInjectPolicy'), inject, 'unsupported pod inject policy'));
    }
    const share = c.shareVolumePolicy?.type ?? 'disabled';
    if (!(SHARE_VOLUME_POLICY_TYPES as readonly string[]).includes(share)) {
      errs.push(fieldErrors.invalid(path.child('shareVolumePolicy'), c.shareVolumePolicy, 'unsupported share volume policy'));
    }
    const devices = c.shareVolumeDevicePolicy?.type;
    if (devices && !(SHARE_VOLUME_POLICY_TYPES as readonly string[]).includes(devices)) {
      errs.push(fieldErrors.invalid(path.child('shareVolumeDevicePolicy'), c.shareVolumeDevicePolicy, 'unsupported share volume policy'));
    }
    (c.transferEnv ?? []).forEach((t, i) => {
      const ref = t.sourceContainerNameFrom?.fieldRef;
      if (ref) errs.push(...fieldRefErrors(ref, path.child('transferEnv').index(i).child('sourceContainerNameFrom', 'fieldRef')));
    });
  }
  const upgrade = c.upgradeStrategy?.upgradeType ?? 'ColdUpgrade';
  const upgradePath = path.child('upgradeStrategy');
  if (!(SIDECAR_UPGRADE_TYPES as readonly string[]).includes(upgrade)) {
    errs.push(fieldErrors.notSupported(upgradePath.child('upgradeType'), upgrade, SIDECAR_UPGRADE_TYPES));
  } else if (upgrade === 'HotUpgrade' && !c.upgradeStrategy?.hotUpgradeEmptyImage) {
    errs.push(fieldErrors.required(upgradePath.child('hotUpgradeEmptyImage'), 'HotUpgrade needs the image of the idle twin container'));
  }
  errs.push(...resourcesPolicyErrors(c, path.child('resourcesPolicy')));
  return errs;
}

/** The sidecar containers, validated with the volumes as part of a pod (core/v1 rules: names, images, mounts…). */
function containerErrors(spec: SidecarSetSpec, path: FieldPath): FieldError[] {
  const inits = spec.initContainers ?? [];
  const containers = spec.containers ?? [];
  if (inits.length === 0 && containers.length === 0) {
    return [fieldErrors.required(path, 'no initContainer or container defined for SidecarSet')];
  }
  const errs: FieldError[] = [];
  inits.forEach((c, i) => errs.push(...sidecarFieldErrors(c, path.child('initContainers').index(i), true)));
  containers.forEach((c, i) => errs.push(...sidecarFieldErrors(c, path.child('containers').index(i), false)));
  // the pod checks need one app container; upstream validates its fake pod with a placeholder the same way
  const fakeContainers = containers.length > 0 ? containers : [{ name: 'regatta-placeholder', image: 'busybox' }];
  const podErrors = validatePodSpecSubset({ initContainers: inits, containers: fakeContainers, volumes: spec.volumes ?? [] }, path);
  errs.push(...podErrors);
  return errs;
}

function patchPodMetadataErrors(spec: SidecarSetSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (spec.patchPodMetadata ?? []).forEach((patch, i) => {
    const annotations = patch.annotations ?? {};
    if (Object.keys(annotations).length === 0) errs.push(fieldErrors.required(path, 'no annotations defined for SidecarSet'));
    else errs.push(...validateAnnotations(annotations, path.index(i).child('annotations')));
    if (!patch.patchPolicy) errs.push(fieldErrors.required(path, 'no patchPolicy defined for patchPodMetadata'));
    else if (!(SIDECARSET_PATCH_POLICIES as readonly string[]).includes(patch.patchPolicy)) {
      errs.push(fieldErrors.notSupported(path.index(i).child('patchPolicy'), patch.patchPolicy, SIDECARSET_PATCH_POLICIES));
    }
    for (const k of Object.keys(annotations)) {
      if (seen.has(k)) errs.push(fieldErrors.required(path, `patch annotation[${k}] already exist`));
      seen.add(k);
    }
  });
  return errs;
}

/** The rules on one object (no other object needed but the whitelist and the revisions of the context). */
function specErrors(scs: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const spec = scs.spec;
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  // upstream refuses RollingUpdate when an init container is a native sidecar ("The initContainer in-place upgrade
  // is not currently supported."); Regatta upgrades native sidecars in place (docs/adr/0090)
  if (spec.selector == null) errs.push(fieldErrors.required(path.child('selector'), 'no selector defined for SidecarSet'));
  else errs.push(...sidecarSelectorErrors(spec.selector, path.child('selector')));
  if (spec.namespaceSelector != null) errs.push(...sidecarSelectorErrors(spec.namespaceSelector, path.child('namespaceSelector')));

  const revision = spec.injectionStrategy?.revision;
  const revPath = path.child('injectionStrategy', 'revision');
  if (revision) {
    if (revision.revisionName == null && revision.customVersion == null) {
      errs.push(fieldErrors.invalid(revPath, revision, 'revisionName and customVersion cannot be empty simultaneously'));
    } else if (ctx.revisions && !ctx.revisions.some((r) => revisionMatches(r, scs.metadata?.name ?? '', revision))) {
      errs.push(fieldErrors.invalid(revPath, revision, 'Cannot find specific ControllerRevision'));
    }
    if (revision.policy && !(SIDECARSET_INJECT_REVISION_POLICIES as readonly string[]).includes(revision.policy)) {
      errs.push(fieldErrors.invalid(revPath.child('policy'), revision.policy, `Invalid policy ${revision.policy}, supported: [Always, Partial]`));
    }
  }
  errs.push(...updateStrategyErrors(spec.updateStrategy ?? {}, path.child('updateStrategy')));
  errs.push(...containerErrors(spec, path));
  const whitelist = patchMetadataWhitelistProblem(scs, ctx);
  if (whitelist) errs.push(fieldErrors.required(path.child('patchPodMetadata'), whitelist));
  errs.push(...patchPodMetadataErrors(spec, path.child('patchPodMetadata')));
  return errs;
}

function revisionMatches(r: SidecarSetRevisionRef, owner: string, want: { revisionName?: string; customVersion?: string }): boolean {
  const labels = r.metadata?.labels ?? {};
  if (labels['kruise.io/sidecarset-name'] !== owner) return false;
  if (want.revisionName != null) return r.metadata?.name === want.revisionName;
  return labels['apps.kruise.io/sidecarset-custom-version'] === want.customVersion;
}

/**
 * Every rule on a SidecarSet, `old` set for an UPDATE (then `update-validation.ts` adds the immutable-field rules).
 * The object is expected defaulted (admission runs the mutating webhook first); a missing default is read as its
 * default value. Empty when allowed.
 */
export function validateSidecarSetObject(obj: unknown, ctx: SidecarSetValidationContext = {}): FieldError[] {
  const version = ctx.version ?? sidecarSetVersionOf(obj);
  const typeErrors = sidecarSetShapeErrors(obj);
  if (typeErrors.length > 0) return typeErrors;
  const v1beta1 = version === 'v1alpha1' ? sidecarSetToV1beta1(obj) : obj;
  const raw = withoutNullMembers(v1beta1) as Partial<SidecarSet>;
  const scs: SidecarSet = { ...raw, spec: raw.spec ?? {} };
  const errs = validateObjectMeta(scs.metadata, false, fieldPath('metadata'));
  errs.push(...nameErrors(scs.metadata?.name, fieldPath('metadata', 'name')));
  errs.push(...specErrors(scs, ctx));
  errs.push(...canaryErrors(scs, ctx));
  if (errs.length > 0) return errs;
  return conflictErrors(scs, ctx);
}

/** CREATE: every rule. */
export function validateSidecarSet(obj: unknown, ctx: SidecarSetValidationContext = {}): FieldError[] {
  return validateSidecarSetObject(obj, ctx);
}
