/**
 * The validation rules of a Regatta kind that CEL can express, as a ValidatingAdmissionPolicy and its Deny binding
 * (admissionregistration.k8s.io/v1) the API server evaluates itself: they hold while the kind's program is down
 * (docs/adr/0088-admission-policies.md). Each rule names the webhook rule it mirrors and reports the field path and
 * text the webhook reports (`spec.replicas: Invalid value: -1: must be greater than or equal to 0`). The webhook
 * keeps every rule as well (defence in depth, and the rules that need look-ups or code); the parity tests run each
 * kind's validation table against both.
 *
 * The policy sees the object as written, not defaulted (no Regatta mutating webhook ran when the program is down):
 * every rule reads a missing field as its default, as the validators do. A rule whose CEL cannot be evaluated on an
 * ill-typed template (a preserved-unknown-fields subtree holding a string, say) fails, and `failurePolicy: Fail`
 * refuses the object: the webhook refuses such an object too, with a type error.
 */
import type { KubeObject } from '@regatta/kube';
import { WORKLOAD_WEBHOOK_MATCH_CONDITIONS } from '@regatta/runtime';

/** One webhook rule as CEL: the object is admitted when `expression` is true. */
export interface PolicyRule {
  /** The webhook's field path, written as the message starts (`spec.replicas`). */
  field: string;
  /** CEL over `object`, `oldObject`, `request` and the policy's `variables`; true admits. */
  expression: string;
  /** CEL string: the whole message (`'spec.replicas: Invalid value: ' + string(object.spec.replicas) + …`). */
  messageExpression: string;
}

export interface KindPolicy {
  /** `regatta-<name>-validation` names the policy and its binding (e.g. `cloneset`). */
  name: string;
  group: string;
  /** The plural, e.g. `clonesets`. */
  resource: string;
  /** The version the rules read; requests in another served version are converted to it (matchPolicy Equivalent). */
  version: string;
  /** Shared sub-expressions, in order (each may use the ones before it). */
  variables: readonly { name: string; expression: string }[];
  rules: readonly PolicyRule[];
}

export const POLICY_API_VERSION = 'admissionregistration.k8s.io/v1';

/** The policy's and binding's name. */
export const validationPolicyName = (name: string): string => `regatta-${name}-validation`;

/** A CEL string literal (single-quoted). */
export const celString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `has(a.b) && has(a.b.c)`: every step of `path` present under `base`. */
export function celHas(base: string, path: readonly string[]): string {
  const parts: string[] = [];
  let at = base;
  for (const p of path) {
    at = `${at}.${p}`;
    parts.push(`has(${at})`);
  }
  return parts.join(' && ');
}

/** `base.path` when present, `fallback` otherwise. */
export const celOr = (base: string, path: readonly string[], fallback: string): string =>
  `(${celHas(base, path)} ? ${base}.${path.join('.')} : ${fallback})`;

/** `v` unset (`''`) or one of `values`. */
export const celOneOf = (v: string, values: readonly string[]): string =>
  `${v} in ['', ${values.map(celString).join(', ')}]`;

/** The values a `field.NotSupported` error lists: `"a", "b"`. */
export const supportedValues = (values: readonly string[]): string => values.map((v) => `"${v}"`).join(', ');

/** A workload's `spec.updateStrategy.rollingUpdate`, as steps (celHas, celOr) and as the field path. */
export const ROLLING_UPDATE = ['spec', 'updateStrategy', 'rollingUpdate'] as const;
export const ROLLING_UPDATE_PATH = 'spec.updateStrategy.rollingUpdate';

/** Where a test installs a policy beside others: a name suffix and the namespaces its binding covers. */
export interface PolicyScope {
  suffix: string;
  namespaceSelector?: Record<string, unknown>;
  /** For a cluster-scoped kind, which namespaceSelector does not narrow. */
  objectSelector?: Record<string, unknown>;
}

/** The ValidatingAdmissionPolicy and its binding, in the order to apply them. */
export function validatingPolicyObjects(k: KindPolicy, scope?: PolicyScope): KubeObject[] {
  const name = validationPolicyName(k.name) + (scope?.suffix ?? '');
  return [
    {
      apiVersion: POLICY_API_VERSION,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          resourceRules: [
            {
              apiGroups: [k.group],
              apiVersions: [k.version],
              resources: [k.resource],
              operations: ['CREATE', 'UPDATE'],
              scope: '*',
            },
          ],
        },
        // as the webhooks: an object being deleted, or an update leaving spec, labels and annotations alone (a
        // finalizer removed, a status write), is admitted unevaluated
        matchConditions: WORKLOAD_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })),
        variables: k.variables.map((v) => ({ ...v })),
        validations: k.rules.map((r) => ({
          expression: r.expression,
          messageExpression: r.messageExpression,
          reason: 'Invalid',
        })),
      },
    } as KubeObject,
    {
      apiVersion: POLICY_API_VERSION,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: ['Deny'],
        ...(scope
          ? {
              matchResources: {
                ...(scope.namespaceSelector ? { namespaceSelector: scope.namespaceSelector } : {}),
                ...(scope.objectSelector ? { objectSelector: scope.objectSelector } : {}),
              },
            }
          : {}),
      },
    } as KubeObject,
  ];
}

/** Go's `strconv.ParseFloat` decimal syntax followed by `%` (OpenKruise's GetScaledValueFromIntOrPercent). */
export const PERCENT_RE = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?%$';

/** An int, or a percentage that parses. */
export const celIntOrPercentOk = (v: string): string =>
  `(type(${v}) == int || string(${v}).matches('${PERCENT_RE}'))`;

/**
 * Variables `<name>` (the raw int-or-string, `fallback` when absent), `<name>Ok` (it parses) and `<name>Value` (scaled
 * against `total`, rounded up; 0 when it does not parse), as libs/api's `kruiseScaledValue(v, total, true)`.
 */
export function intOrPercentVariables(
  name: string,
  base: string,
  path: readonly string[],
  fallback: string,
  total: string,
): { name: string; expression: string }[] {
  const v = `variables.${name}`;
  const pct = `variables.${name}Percent`;
  return [
    { name, expression: celOr(base, path, fallback) },
    { name: `${name}Ok`, expression: celIntOrPercentOk(v) },
    {
      name: `${name}Percent`,
      expression: `type(${v}) == int || !variables.${name}Ok ? 0.0 : double(string(${v}).substring(0, size(string(${v})) - 1)) * double(${total}) / 100.0`,
    },
    {
      name: `${name}Value`,
      expression: `type(${v}) == int ? int(${v}) : !variables.${name}Ok ? 0 : int(${pct}) + (${pct} > double(int(${pct})) ? 1 : 0)`,
    },
  ];
}

/** The reason an int-or-string does not parse, as Go's error text. */
export const celIntOrPercentError = (v: string): string =>
  `(string(${v}).endsWith('%') ? 'strconv.ParseFloat: parsing "' + string(${v}).substring(0, size(string(${v})) - 1) + '": invalid syntax' : 'invalid type: string is not a percentage')`;

/** The value as field errors print it: an int bare, a string quoted. */
export const celBadValue = (v: string): string =>
  `(type(${v}) == int ? string(${v}) : '"' + string(${v}) + '"')`;
