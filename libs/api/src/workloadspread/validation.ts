/**
 * WorkloadSpread validation, as OpenKruise's validating webhook
 * (`pkg/webhook/workloadspread/validating/workloadspread_validation.go`): the same rules with the JSON paths of the
 * fields. CREATE and UPDATE check the spec; UPDATE also refuses a changed `targetRef`; a `targetRef` another
 * WorkloadSpread of the namespace already names is refused.
 *
 * Not checked (docs/workloadspread.md): a subset `patch` against the workload's pod template (upstream validates the
 * patched pod spec when the workload exists), and custom workloads (upstream's whitelist ConfigMap): only the five
 * kinds below are accepted.
 *
 * Any JSON value is accepted and nothing throws: the JSON types of the fields read are checked first.
 */
import {
  type FieldError,
  type FieldPath,
  fieldErrors,
  fieldPath,
  validateLabelSelector,
} from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { groupOf, sameTarget } from '../core/target-reference.js';
import { type Shape, shapeErrors, shapes as s, typeError, withoutNullMembers } from '../core/shape.js';
import type { NodeSelectorTerm, Toleration } from '../uniteddeployment/node-selection.js';
import {
  WORKLOAD_SPREAD_SCHEDULE_STRATEGY_TYPES,
  type WorkloadSpreadTargetReference,
  type WorkloadSpread,
  type WorkloadSpreadSpec,
  type WorkloadSpreadSubset,
} from './types.js';

/** How long a subset stays unschedulable before it is tried again (upstream `MaxScheduledFailedDuration`). */
export const MAX_SCHEDULED_FAILED_SECONDS = 300;

/** The workloads a WorkloadSpread may target: kind → API groups (upstream `pkg/util/workloadspread` workloads). */
export const WORKLOAD_SPREAD_TARGET_KINDS: Readonly<Record<string, readonly string[]>> = {
  CloneSet: ['apps.kruise.io'],
  Deployment: ['apps'],
  ReplicaSet: ['apps'],
  Job: ['batch'],
  StatefulSet: ['apps', 'apps.kruise.io'],
};

const requirement = s.object({ key: s.string, operator: s.string, values: s.array(s.string) });
const term = s.object({ matchExpressions: s.array(requirement), matchFields: s.array(requirement) });
const stringMap = s.map(s.string);

export const WORKLOAD_SPREAD_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({ name: s.string, namespace: s.string, labels: stringMap, annotations: stringMap }),
  spec: s.object({
    targetRef: s.object({ apiVersion: s.string, kind: s.string, name: s.string }),
    targetFilter: s.object({ selector: s.any, replicasPathList: s.array(s.string) }),
    subsets: s.array(
      s.object({
        name: s.string,
        requiredNodeSelectorTerm: term,
        preferredNodeSelectorTerms: s.array(s.object({ weight: s.int, preference: term })),
        tolerations: s.array(
          s.object({ key: s.string, operator: s.string, value: s.string, effect: s.string, tolerationSeconds: s.int }),
        ),
        maxReplicas: s.intOrString,
        patch: s.object(),
      }),
    ),
    scheduleStrategy: s.object({
      type: s.string,
      adaptive: s.object({ disableSimulationSchedule: s.bool, rescheduleCriticalSeconds: s.int }),
    }),
  }),
});

const NODE_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

function termErrors(t: NodeSelectorTerm, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [field, list] of [['matchExpressions', t.matchExpressions], ['matchFields', t.matchFields]] as const) {
    (list ?? []).forEach((r, i) => {
      const p = path.child(field).index(i);
      if (!r.key) errs.push(fieldErrors.required(p.child('key'), ''));
      if (!NODE_OPERATORS.includes(r.operator)) errs.push(fieldErrors.notSupported(p.child('operator'), r.operator, NODE_OPERATORS));
      const n = r.values?.length ?? 0;
      if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0) {
        errs.push(fieldErrors.required(p.child('values'), 'must be specified when `operator` is \'In\' or \'NotIn\''));
      }
      if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0) {
        errs.push(fieldErrors.forbidden(p.child('values'), 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
      }
      if ((r.operator === 'Gt' || r.operator === 'Lt') && (n !== 1 || !/^-?\d+$/.test(r.values?.[0] ?? ''))) {
        errs.push(fieldErrors.required(p.child('values'), 'must be specified single value when `operator` is \'Lt\' or \'Gt\''));
      }
    });
  }
  return errs;
}

function tolerationErrors(ts: readonly Toleration[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  ts.forEach((t, i) => {
    const p = path.index(i);
    const op = t.operator ?? 'Equal';
    if (op !== 'Equal' && op !== 'Exists') errs.push(fieldErrors.notSupported(p.child('operator'), op, ['Equal', 'Exists']));
    if (op === 'Exists' && t.value) errs.push(fieldErrors.invalid(p.child('operator'), t.value, 'value must be empty when `operator` is \'Exists\''));
    if (!t.key && op !== 'Exists') errs.push(fieldErrors.invalid(p.child('operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds != null && t.effect !== 'NoExecute') {
      errs.push(fieldErrors.invalid(p.child('effect'), t.effect, 'effect must be \'NoExecute\' when `tolerationSeconds` is set'));
    }
    const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
    if (t.effect && !effects.includes(t.effect)) errs.push(fieldErrors.notSupported(p.child('effect'), t.effect, effects));
  });
  return errs;
}

function targetRefErrors(ref: WorkloadSpreadTargetReference | undefined, path: FieldPath): FieldError[] {
  if (!ref) return [fieldErrors.required(path, 'no targetRef defined in WorkloadSpread')];
  if (!ref.apiVersion || !ref.kind || !ref.name) {
    return [fieldErrors.invalid(path, ref, 'empty TargetReference is not valid for WorkloadSpread.')];
  }
  const groups = WORKLOAD_SPREAD_TARGET_KINDS[ref.kind];
  if (!groups) return [fieldErrors.invalid(path, ref, "TargetReference's GroupKind is not permitted.")];
  if (!groups.includes(groupOf(ref.apiVersion))) {
    return [fieldErrors.invalid(path, ref, `TargetReference is not valid for ${ref.kind}.`)];
  }
  return [];
}

/** A percentage's value (`"30%"` → 30), or undefined when it is not one. */
function percentOf(v: string): number | undefined {
  const m = /^(\d+)%$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

function subsetsErrors(ws: WorkloadSpread, subsets: readonly WorkloadSpreadSubset[] | undefined, path: FieldPath): FieldError[] {
  if (!subsets || subsets.length === 0) return [fieldErrors.required(path, 'subsets number must >= 1 in WorkloadSpread')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  let firstType: 'int' | 'string' | undefined;
  let percentSum = 0;
  for (const [i, subset] of subsets.entries()) {
    const p = path.index(i);
    if (!subset.name) errs.push(fieldErrors.invalid(p.child('name'), subset.name ?? '', ''));
    else {
      if (names.has(subset.name)) errs.push(fieldErrors.invalid(p.child('name'), subset.name, `duplicated subset name ${subset.name}`));
      names.add(subset.name);
    }
    if (subset.requiredNodeSelectorTerm) errs.push(...termErrors(subset.requiredNodeSelectorTerm, p.child('requiredNodeSelectorTerm')));
    (subset.preferredNodeSelectorTerms ?? []).forEach((t, j) => {
      const tp = p.child('preferredNodeSelectorTerms').index(j);
      if (t.weight < 1 || t.weight > 100) errs.push(fieldErrors.invalid(tp.child('weight'), t.weight, 'must be in the range 1-100'));
      errs.push(...termErrors(t.preference ?? {}, tp.child('preference')));
    });
    if (subset.tolerations) errs.push(...tolerationErrors(subset.tolerations, p.child('tolerations')));
    const max = subset.maxReplicas;
    if (max == null) continue;
    const type = typeof max === 'number' ? 'int' : 'string';
    if (firstType === undefined) firstType = type;
    else if (type !== firstType) {
      errs.push(fieldErrors.invalid(p.child('maxReplicas'), max, 'the maxReplicas type of all subsets must be the same'));
      return errs;
    }
    if (ws.spec.targetRef?.kind === 'StatefulSet' && type !== 'int') {
      errs.push(fieldErrors.invalid(p.child('maxReplicas'), max, 'the maxReplicas type must be Int for StatefulSet'));
      return errs;
    }
    const value = typeof max === 'number' ? max : percentOf(max);
    if (value === undefined || value < 0) {
      errs.push(fieldErrors.invalid(p.child('maxReplicas'), max, 'maxReplicas is not valid for subset'));
      return errs;
    }
    if (type === 'string') {
      percentSum += value;
      if (percentSum > 100) {
        errs.push(fieldErrors.invalid(p.child('maxReplicas'), max, "the sum of all subset's maxReplicas exceeds 100% is no permitted"));
        return errs;
      }
    }
  }
  if (firstType === 'string' && percentSum < 100 && subsets[subsets.length - 1]!.maxReplicas != null) {
    errs.push(
      fieldErrors.invalid(path.index(0).child('maxReplicas'), subsets[0]!.maxReplicas, 'maxReplicas sum of all subsets must equal 100% when type is specified as percent'),
    );
  }
  return errs;
}

function strategyErrors(spec: WorkloadSpreadSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = spec.scheduleStrategy ?? {};
  const type = strategy.type ?? '';
  if (type !== '' && !(WORKLOAD_SPREAD_SCHEDULE_STRATEGY_TYPES as readonly string[]).includes(type)) {
    errs.push(fieldErrors.invalid(path.child('type'), type, "ScheduleStrategy's type is not valid"));
  }
  const adaptive = strategy.adaptive;
  if (!adaptive) return errs;
  const seconds = adaptive.rescheduleCriticalSeconds;
  if (type !== 'Adaptive') {
    errs.push(fieldErrors.invalid(path.child('type'), seconds ?? null, "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"));
  }
  const subsets = spec.subsets ?? [];
  if (subsets.length > 1 && subsets[subsets.length - 1]!.maxReplicas != null) {
    errs.push(fieldErrors.invalid(path.child('adaptive'), seconds ?? null, "the last subset's maxReplicas must be not specified when using adaptive scheduleStrategy"));
  }
  // a pod must not go round the unschedulable subsets before the first one is tried again (upstream's bound)
  const allowed = subsets.length > 1 ? Math.trunc((MAX_SCHEDULED_FAILED_SECONDS - 5) / (subsets.length - 1)) : 2 ** 31 - 1;
  if (seconds != null && (seconds < 0 || seconds > allowed)) {
    errs.push(
      fieldErrors.invalid(path.child('adaptive', 'rescheduleCriticalSeconds'), seconds, `rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > ${allowed} is not permitted`),
    );
  }
  return errs;
}

/** Type errors of a whole WorkloadSpread (the object itself must be a JSON object). */
export function workloadSpreadShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, WORKLOAD_SPREAD_SHAPE, fieldPath());
}

/** The spec rules (CREATE and UPDATE): empty when valid. */
export function validateWorkloadSpread(obj: unknown): FieldError[] {
  const typeErrors = workloadSpreadShapeErrors(obj);
  if (typeErrors.length > 0) return typeErrors;
  const ws = withoutNullMembers(obj) as WorkloadSpread;
  const spec = ws.spec ?? ({} as WorkloadSpreadSpec);
  const path = fieldPath('spec');
  return [
    ...validateObjectMeta(ws.metadata, true, fieldPath('metadata')),
    ...targetRefErrors(spec.targetRef, path.child('targetRef')),
    ...subsetsErrors({ ...ws, spec }, spec.subsets, path.child('subsets')),
    ...strategyErrors(spec, path.child('scheduleStrategy')),
    ...(spec.targetFilter?.selector ? validateLabelSelector(spec.targetFilter.selector, path.child('targetFilter', 'selector')) : []),
  ];
}

/** UPDATE: the target cannot change. */
export function validateWorkloadSpreadUpdate(obj: WorkloadSpread, old: WorkloadSpread): FieldError[] {
  const a = obj.spec?.targetRef;
  const b = old.spec?.targetRef;
  if (a && b && !sameTarget(a, b)) {
    return [fieldErrors.invalid(fieldPath('spec', 'targetRef'), a, 'change TargetReference is not permitted for WorkloadSpread')];
  }
  return [];
}

/** A WorkloadSpread of the namespace (other than this one) that already targets the same workload. */
export function validateWorkloadSpreadConflict(obj: WorkloadSpread, others: readonly WorkloadSpread[]): FieldError[] {
  const other = others.find((o) => o.metadata?.name !== obj.metadata?.name && sameTarget(o.spec?.targetRef, obj.spec?.targetRef));
  if (!other) return [];
  return [
    fieldErrors.invalid(fieldPath('spec', 'targetRef'), obj.spec.targetRef, `ws.spec.targetRef is in conflict with other WorkloadSpread ${other.metadata?.name ?? ''}`),
  ];
}
