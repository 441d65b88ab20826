/**
 * The subset template rules (OpenKruise `validateSubsetTemplateV1beta1` and the update checks,
 * `pkg/webhook/uniteddeployment/validating/uniteddeployment_validation.go`): exactly one template; for StatefulSet,
 * Advanced StatefulSet and Deployment templates the selector must match the template labels, `replicas` and (type
 * RollingUpdate) `partition` must not be set, and the pod template is checked. Updates may change only some fields
 * of the StatefulSet and Advanced StatefulSet template specs.
 *
 * Stricter than OpenKruise (docs/adr/0048-pod-templates-validated-as-pods.md): the pod spec of every subset
 * template kind gets the core pod-spec rules (`validatePodSpecSubset`), as the pods the subset creates would.
 * Upstream checks only labels and annotations of StatefulSet templates (Kubernetes'
 * `ValidatePodTemplateSpecForStatefulSet` leaves the pod spec out) and nothing of a CloneSet template, so a UD whose
 * subsets can never create a pod (or whose subset CloneSet or StatefulSet Regatta's own webhook refuses) was admitted.
 */
import {
  type CompiledSelector,
  type FieldError,
  type FieldPath,
  type LabelSelector,
  cloneJson,
  compileLabelSelector,
  fieldErrors,
  isPlainObject,
  jsonEqual,
  validateLabelSelector,
} from '@regatta/kube';
import {
  SUBSET_TEMPLATE_FIELDS,
  applyKruisePodSpecDefaults,
  validateAnnotations,
  validateLabels,
  validatePodSpecSubset,
  validatePodTemplateSpecSubset,
  type SubsetTemplate,
} from '@regatta/api';

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** The pod template as the webhook validates it: a copy with the pod-spec defaults (upstream `ConvertPodTemplateSpec`). */
function defaultedPodTemplate(template: unknown): Obj {
  const t = cloneJson(obj(template));
  if (t['spec'] == null) t['spec'] = {};
  applyKruisePodSpecDefaults(t['spec']);
  return t;
}

/**
 * The pod spec as the subset's pods get it: each named volume claim template is a PVC volume of the same name
 * (unless the spec has a volume of that name), so mounts may name claim templates. Wrong types are left as they are
 * for the shape check to report.
 */
function withClaimVolumes(podSpec: unknown, claims: unknown): unknown {
  if (!isPlainObject(podSpec) || !Array.isArray(claims)) return podSpec;
  const volumes: unknown[] = podSpec['volumes'] == null ? [] : (podSpec['volumes'] as unknown[]);
  if (!Array.isArray(volumes)) return podSpec;
  const have = new Set(volumes.map((v) => obj(v)['name']));
  const extra = claims
    .map((c) => obj(obj(c)['metadata'])['name'])
    .filter((n): n is string => typeof n === 'string' && n !== '' && !have.has(n))
    .map((name) => ({ name, persistentVolumeClaim: { claimName: name } }));
  return extra.length > 0 ? { ...podSpec, volumes: [...volumes, ...extra] } : podSpec;
}

/** The core pod-spec rules on a subset's (defaulted) pod template; `path` is the template's. */
function podSpecErrors(podTemplate: Obj, workloadSpec: Obj, path: FieldPath): FieldError[] {
  return validatePodSpecSubset(
    withClaimVolumes(podTemplate['spec'], workloadSpec['volumeClaimTemplates']),
    path.child('spec'),
  );
}

function labelsOf(meta: unknown): Record<string, string> {
  const labels = obj(meta)['labels'];
  return isPlainObject(labels) ? (labels as Record<string, string>) : {};
}

const MISMATCH = '`selector` does not match template `labels`';

function replicasAndPartitionErrors(spec: Obj, kindField: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec['replicas'] != null) {
    errs.push(
      fieldErrors.invalid(
        path.child('spec', 'replicas'),
        spec['replicas'],
        `replicas in ${kindField} will not be used`,
      ),
    );
  }
  const strategy = obj(spec['updateStrategy']);
  const partition = obj(strategy['rollingUpdate'])['partition'];
  if (kindField !== 'deploymentTemplate' && strategy['type'] === 'RollingUpdate' && partition != null) {
    errs.push(
      fieldErrors.invalid(
        path.child('spec', 'updateStrategy', 'rollingUpdate', 'partition'),
        partition,
        `partition in ${kindField} will not be used`,
      ),
    );
  }
  return errs;
}

/** `ValidatePodTemplateSpecForStatefulSet`: labels match, labels and annotations valid. */
function statefulSetPodTemplateErrors(
  template: Obj,
  selector: CompiledSelector,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj(template['metadata']);
  if (!selector.everything && !selector.matches(labelsOf(meta))) {
    errs.push(fieldErrors.invalid(path.child('metadata', 'labels'), meta['labels'] ?? null, MISMATCH));
  }
  errs.push(...validateLabels(meta['labels'], path.child('labels')));
  errs.push(...validateAnnotations(meta['annotations'], path.child('annotations')));
  return errs;
}

function restartPolicyErrors(template: Obj, path: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = obj(template['spec']);
  if (podSpec['restartPolicy'] !== 'Always') {
    errs.push(
      fieldErrors.notSupported(path.child('spec', 'restartPolicy'), podSpec['restartPolicy'] ?? '', [
        'Always',
      ]),
    );
  }
  if (podSpec['activeDeadlineSeconds'] != null) {
    errs.push(
      fieldErrors.forbidden(
        path.child('spec', 'activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${kind} is not Supported`,
      ),
    );
  }
  return errs;
}

const nonNegative = (v: unknown, path: FieldPath): FieldError[] =>
  typeof v === 'number' && v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

/**
 * apps/v1 `ValidateStatefulSetSpec` on the template spec as the UD webhook normalises it (selector = the UD's,
 * replicas 1, podManagementPolicy OrderedReady and type RollingUpdate when empty, partition removed).
 */
function statefulSetSpecErrors(
  spec: Obj,
  udSelector: LabelSelector | undefined,
  selector: CompiledSelector,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec['podManagementPolicy'] ?? 'OrderedReady';
  if (policy !== 'OrderedReady' && policy !== 'Parallel') {
    errs.push(
      fieldErrors.invalid(path.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"),
    );
  }
  const strategy = obj(spec['updateStrategy']);
  const type = strategy['type'] || 'RollingUpdate';
  if (type === 'OnDelete') {
    if (strategy['rollingUpdate'] != null) {
      errs.push(
        fieldErrors.invalid(
          path.child('updateStrategy', 'rollingUpdate'),
          strategy['rollingUpdate'],
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      );
    }
  } else if (type !== 'RollingUpdate') {
    errs.push(
      fieldErrors.invalid(path.child('updateStrategy'), strategy, "must be 'RollingUpdate' or 'OnDelete'"),
    );
  }
  errs.push(...nonNegative(spec['revisionHistoryLimit'], path.child('revisionHistoryLimit')));
  errs.push(...nonNegative(spec['minReadySeconds'], path.child('minReadySeconds')));
  errs.push(...nonNegative(obj(spec['ordinals'])['start'], path.child('ordinals', 'start')));
  if (
    udSelector == null ||
    (Object.keys(udSelector.matchLabels ?? {}).length === 0 &&
      (udSelector.matchExpressions ?? []).length === 0)
  ) {
    errs.push(
      fieldErrors.invalid(
        path.child('selector'),
        udSelector ?? null,
        'empty selector is invalid for statefulset',
      ),
    );
  }
  const template = defaultedPodTemplate(spec['template']);
  errs.push(...statefulSetPodTemplateErrors(template, selector, path.child('template')));
  errs.push(...podSpecErrors(template, spec, path.child('template')));
  errs.push(...restartPolicyErrors(template, path.child('template'), 'StatefulSet'));
  return errs;
}

/** Create rules of `spec.template` (`path` = `spec.template`). `selector` is the UD's (compiled; nothing if unset). */
export function subsetTemplateErrors(
  template: SubsetTemplate | undefined,
  udSelector: LabelSelector | undefined,
  selector: CompiledSelector,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const t = obj(template);
  const count = SUBSET_TEMPLATE_FIELDS.filter((f) => t[f] != null).length;
  const names = 'statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate';
  if (count < 1) errs.push(fieldErrors.required(path, `should provide one of ${names}`));
  else if (count > 1) errs.push(fieldErrors.invalid(path, template, `should provide only one of ${names}`));

  const labelsMismatch = (field: string, meta: unknown): FieldError[] =>
    selector.matches(labelsOf(meta))
      ? []
      : [fieldErrors.invalid(path.child(field, 'metadata', 'labels'), obj(meta)['labels'] ?? null, MISMATCH)];

  if (t['statefulSetTemplate'] != null) {
    const sts = obj(t['statefulSetTemplate']);
    const spec = obj(sts['spec']);
    errs.push(...labelsMismatch('statefulSetTemplate', sts['metadata']));
    errs.push(...replicasAndPartitionErrors(spec, 'statefulSetTemplate', path.child('statefulSetTemplate')));
    errs.push(
      ...statefulSetSpecErrors(spec, udSelector, selector, path.child('statefulSetTemplate', 'spec')),
    );
  } else if (t['advancedStatefulSetTemplate'] != null) {
    const asts = obj(t['advancedStatefulSetTemplate']);
    // upstream reports this one under statefulSetTemplate (sic)
    errs.push(...labelsMismatch('statefulSetTemplate', asts['metadata']));
    errs.push(
      ...replicasAndPartitionErrors(
        obj(asts['spec']),
        'advancedStatefulSetTemplate',
        path.child('advancedStatefulSetTemplate'),
      ),
    );
    const podTemplate = defaultedPodTemplate(obj(asts['spec'])['template']);
    const at = path.child('advancedStatefulSetTemplate', 'spec', 'template');
    errs.push(...statefulSetPodTemplateErrors(podTemplate, selector, at));
    errs.push(...podSpecErrors(podTemplate, obj(asts['spec']), at));
  } else if (t['deploymentTemplate'] != null) {
    const d = obj(t['deploymentTemplate']);
    errs.push(...labelsMismatch('deploymentTemplate', d['metadata']));
    errs.push(
      ...replicasAndPartitionErrors(obj(d['spec']), 'deploymentTemplate', path.child('deploymentTemplate')),
    );
    const podTemplate = defaultedPodTemplate(obj(d['spec'])['template']);
    const at = path.child('deploymentTemplate', 'spec', 'template');
    const meta = obj(podTemplate['metadata']);
    if (!selector.everything && !selector.matches(labelsOf(meta))) {
      errs.push(fieldErrors.invalid(at.child('metadata', 'labels'), meta['labels'] ?? null, MISMATCH));
    }
    errs.push(...validatePodTemplateSpecSubset(podTemplate, at));
    errs.push(...restartPolicyErrors(podTemplate, at, 'ReplicaSet'));
  } else if (t['cloneSetTemplate'] != null) {
    // what the CloneSet webhook would refuse of the subset CloneSet's pod template (restartPolicy Always when set)
    const spec = obj(obj(t['cloneSetTemplate'])['spec']);
    const podTemplate = defaultedPodTemplate(spec['template']);
    const at = path.child('cloneSetTemplate', 'spec', 'template');
    errs.push(...podSpecErrors(podTemplate, spec, at));
    const restartPolicy = obj(podTemplate['spec'])['restartPolicy'];
    if (restartPolicy !== 'Always') {
      errs.push(fieldErrors.notSupported(at.child('spec', 'restartPolicy'), restartPolicy ?? '', ['Always']));
    }
  }
  return errs;
}

/** The UD selector compiled for matching, or undefined when it is not usable (its errors are reported elsewhere). */
export function compileUdSelector(selector: LabelSelector | undefined): CompiledSelector | undefined {
  if (selector != null && validateLabelSelector(selector).length > 0) return undefined;
  return compileLabelSelector(selector ?? null);
}

function without(spec: Obj, keys: readonly string[]): Obj {
  const copy = { ...spec };
  for (const k of keys) delete copy[k];
  return copy;
}

/** The StatefulSet template spec as compared on update (normalised as on create). */
function normalisedStatefulSetSpec(spec: Obj): Obj {
  const s = cloneJson(spec);
  delete s['selector'];
  s['replicas'] = 1;
  if (!s['podManagementPolicy']) s['podManagementPolicy'] = 'OrderedReady';
  const strategy = obj(s['updateStrategy']);
  s['updateStrategy'] = strategy;
  if (!strategy['type']) strategy['type'] = 'RollingUpdate';
  if (isPlainObject(strategy['rollingUpdate'])) delete strategy['rollingUpdate']['partition'];
  return s;
}

/** Update rules of `spec.template` against the old one (`path` = `spec.template`). */
export function subsetTemplateUpdateErrors(
  template: SubsetTemplate | undefined,
  old: SubsetTemplate | undefined,
  path: FieldPath,
): FieldError[] {
  const t = obj(template);
  const o = obj(old);
  const errs: FieldError[] = [];
  if (t['statefulSetTemplate'] != null && o['statefulSetTemplate'] != null) {
    const spec = obj(obj(t['statefulSetTemplate'])['spec']);
    const oldSpec = obj(obj(o['statefulSetTemplate'])['spec']);
    const mutable = [
      'replicas',
      'template',
      'updateStrategy',
      'minReadySeconds',
      'ordinals',
      'persistentVolumeClaimRetentionPolicy',
    ];
    if (
      !jsonEqual(
        without(normalisedStatefulSetSpec(spec), mutable),
        without(normalisedStatefulSetSpec(oldSpec), mutable),
      )
    ) {
      errs.push(
        fieldErrors.forbidden(
          path.child('statefulSetTemplate', 'spec'),
          "updates to statefulsetTemplate spec for fields other than 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds' and 'ordinals' are forbidden",
        ),
      );
    }
    errs.push(...nonNegative(spec['replicas'], path.child('statefulSetTemplate', 'spec', 'replicas')));
  } else if (t['advancedStatefulSetTemplate'] != null && o['advancedStatefulSetTemplate'] != null) {
    const spec = obj(obj(t['advancedStatefulSetTemplate'])['spec']);
    const oldSpec = obj(obj(o['advancedStatefulSetTemplate'])['spec']);
    const mutable = ['replicas', 'template', 'updateStrategy'];
    if (!jsonEqual(without(spec, mutable), without(oldSpec, mutable))) {
      errs.push(
        fieldErrors.forbidden(
          path.child('advancedStatefulSetTemplate', 'spec'),
          "updates to advancedStatefulsetTemplate spec for fields other than 'template', and 'updateStrategy' are forbidden",
        ),
      );
    }
    errs.push(
      ...nonNegative(spec['replicas'], path.child('advancedStatefulSetTemplate', 'spec', 'replicas')),
    );
  } else if (t['deploymentTemplate'] != null && o['deploymentTemplate'] != null) {
    const spec = obj(obj(t['deploymentTemplate'])['spec']);
    errs.push(...nonNegative(spec['replicas'], path.child('deploymentTemplate', 'spec', 'replicas')));
  }
  return errs;
}
