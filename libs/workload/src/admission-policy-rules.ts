/**
 * The CEL rules the workload kinds (CloneSet, Advanced StatefulSet, Advanced DaemonSet) share, as their validators in
 * libs/api share them: replicas, selector present and not empty, the template's labels matched by the selector, the
 * pod's restartPolicy and activeDeadlineSeconds, the name's length on CREATE, the template labels the controller
 * sets itself, and an immutable selector. Messages are the webhook's (libs/kube field-errors format).
 *
 * Left to the webhook: the selector's own syntax (label keys and values, operators), the pod template's contents
 * (apimachinery's pod validation), and every rule that reads other objects (docs/adr/0088-admission-policies.md).
 */
import { type PolicyRule, celHas, celOr, celString } from './admission-policy.js';

export interface WorkloadRuleOptions {
  /** The word of upstream's empty-selector message: `cloneset`, `statefulset`, `daemonset`. */
  kindWord: string;
  /** The word of the activeDeadlineSeconds message: `cloneset`, `StatefulSet`, `DaemonSet`. */
  deadlineWord: string;
  /** The Kind in the reserved-label message (`is set by the CloneSet controller on its pods`). */
  kind: string;
  /** `spec.replicas` is validated (not for a DaemonSet). */
  replicas: boolean;
  /** The longest name on CREATE, if the kind limits it. */
  nameMaxLength?: number;
  /** Template labels the controller sets itself: forbidden unless the old object had the same value. */
  reservedTemplateLabels: readonly string[];
  /** The webhook's whole message when the selector changes on UPDATE (`spec: Forbidden: …`); none: mutable. */
  immutableSelector?: string;
}

/** Variables every workload rule reads (`variables.labels`, `variables.podSpec`, …). */
export const WORKLOAD_VARIABLES = [
  { name: 'template', expression: celOr('object', ['spec', 'template'], '{}') },
  { name: 'podSpec', expression: celOr('variables', ['template', 'spec'], '{}') },
  { name: 'labels', expression: celOr('variables', ['template', 'metadata', 'labels'], '{}') },
  {
    name: 'oldLabels',
    expression:
      `request.operation == 'UPDATE' && ${celHas('oldObject', ['spec', 'template', 'metadata', 'labels'])} ` +
      '? oldObject.spec.template.metadata.labels : {}',
  },
  { name: 'matchLabels', expression: celOr('object', ['spec', 'selector', 'matchLabels'], '{}') },
  { name: 'matchExpressions', expression: celOr('object', ['spec', 'selector', 'matchExpressions'], '[]') },
  {
    name: 'selectorEmpty',
    expression: 'size(variables.matchLabels) == 0 && size(variables.matchExpressions) == 0',
  },
  {
    // metav1.LabelSelectorAsSelector + Matches: every matchLabels pair and every expression
    name: 'selectorMatches',
    expression:
      'variables.matchLabels.all(k, k in variables.labels && variables.labels[k] == variables.matchLabels[k]) && ' +
      'variables.matchExpressions.all(e, ' +
      "e.operator == 'In' ? (e.key in variables.labels && has(e.values) && e.values.exists(v, v == variables.labels[e.key])) : " +
      "e.operator == 'NotIn' ? (!(e.key in variables.labels) || !has(e.values) || !e.values.exists(v, v == variables.labels[e.key])) : " +
      "e.operator == 'Exists' ? e.key in variables.labels : " +
      "e.operator == 'DoesNotExist' ? !(e.key in variables.labels) : true)",
  },
] as const;

/** `has(x.f) && x.f != null` for a field of a preserved-unknown-fields subtree (null counts as absent). */
const setIn = (base: string, field: string): string => `(has(${base}.${field}) && ${base}.${field} != null)`;

export function workloadRules(o: WorkloadRuleOptions): PolicyRule[] {
  const rules: PolicyRule[] = [];
  if (o.replicas) {
    rules.push({
      field: 'spec.replicas',
      expression: '!has(object.spec.replicas) || object.spec.replicas >= 0',
      messageExpression: "'spec.replicas: Invalid value: ' + string(object.spec.replicas) + ': must be greater than or equal to 0'",
    });
  }
  rules.push(
    {
      field: 'spec.selector',
      expression: 'has(object.spec.selector)',
      messageExpression: "'spec.selector: Required value'",
    },
    {
      field: 'spec.selector',
      expression: '!has(object.spec.selector) || !variables.selectorEmpty',
      messageExpression: celString(`spec.selector: Invalid value: {}: empty selector is invalid for ${o.kindWord}`),
    },
    {
      field: 'spec.template.metadata.labels',
      expression: '!has(object.spec.selector) || variables.selectorEmpty || variables.selectorMatches',
      messageExpression: celString('spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`'),
    },
    {
      field: 'spec.template.spec.restartPolicy',
      expression: `!${setIn('variables.podSpec', 'restartPolicy')} || variables.podSpec.restartPolicy in ['', 'Always']`,
      messageExpression:
        `'spec.template.spec.restartPolicy: Unsupported value: "' + string(variables.podSpec.restartPolicy) + '": supported values: "Always"'`,
    },
    {
      field: 'spec.template.spec.activeDeadlineSeconds',
      expression: `!${setIn('variables.podSpec', 'activeDeadlineSeconds')}`,
      messageExpression: celString(
        `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ${o.deadlineWord} is not Supported`,
      ),
    },
  );
  if (o.nameMaxLength !== undefined) {
    rules.push({
      field: 'metadata.name',
      expression: `request.operation != 'CREATE' || size(object.metadata.name) <= ${o.nameMaxLength}`,
      messageExpression: `'metadata.name: Invalid value: "' + object.metadata.name + '": must be no more than ${o.nameMaxLength} characters'`,
    });
  }
  if (o.reservedTemplateLabels.length > 0) {
    const keys = `[${o.reservedTemplateLabels.map(celString).join(', ')}]`;
    // ratcheted as the webhook: an object stored with the label (same value) can still be edited
    const bad = `${keys}.filter(k, k in variables.labels && !(k in variables.oldLabels && variables.oldLabels[k] == variables.labels[k]))`;
    rules.push({
      field: 'spec.template.metadata.labels',
      expression: `size(${bad}) == 0`,
      messageExpression:
        `'spec.template.metadata.labels[' + ${bad}[0] + ']: Forbidden: is set by the ${o.kind} controller on its pods; remove it from the template'`,
    });
  }
  if (o.immutableSelector !== undefined) {
    rules.push({
      field: 'spec',
      expression:
        "request.operation != 'UPDATE' || (" +
        `variables.matchLabels == ${celOr('oldObject', ['spec', 'selector', 'matchLabels'], '{}')} && ` +
        `variables.matchExpressions == ${celOr('oldObject', ['spec', 'selector', 'matchExpressions'], '[]')})`,
      messageExpression: celString(o.immutableSelector),
    });
  }
  return rules;
}
