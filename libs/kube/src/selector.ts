/**
 * Label selectors (metav1.LabelSelector): matching, validation and the query-string form, with the semantics of
 * apimachinery's `LabelSelectorAsSelector`:
 *
 * - a null / undefined selector selects **nothing**;
 * - an empty selector `{}` (no matchLabels, no matchExpressions) selects **everything**;
 * - otherwise every term must hold (matchLabels are `key=value` equalities, matchExpressions use In / NotIn /
 *   Exists / DoesNotExist; NotIn and DoesNotExist also hold when the key is absent).
 */
import { type FieldError, FieldPath, fieldErrors } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export const SELECTOR_OPERATORS: readonly SelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

export interface LabelSelectorRequirement {
  key: string;
  /** One of {@link SELECTOR_OPERATORS}; typed as string because it comes from user input. */
  operator: SelectorOperator | (string & {});
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** Labels of an object; a missing map is the same as an empty one. */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/** A selector that cannot be used: unknown operator, missing or forbidden values, malformed keys or values. */
export class InvalidSelectorError extends Error {
  readonly code = 'REGATTA_KUBE_INVALID_SELECTOR';

  constructor(
    readonly errors: FieldError[],
    message: string,
  ) {
    super(message);
    this.name = 'InvalidSelectorError';
  }
}

/** A selector validated once and ready to match many label sets. */
export interface CompiledSelector {
  /** True when the labels satisfy every term. */
  matches(labels: Labels): boolean;
  /** True for `{}`: selects everything. */
  readonly everything: boolean;
  /** True for a null / undefined selector: selects nothing. */
  readonly nothing: boolean;
  /** The `labelSelector` query-string form; throws for a selector that selects nothing (it has no string form). */
  toString(): string;
}

interface Requirement {
  key: string;
  op: SelectorOperator | 'Equals';
  values: string[];
}

const hasKey = (labels: Labels, key: string): boolean => labels != null && Object.hasOwn(labels, key);

function requirementMatches(r: Requirement, labels: Labels): boolean {
  switch (r.op) {
    case 'Equals':
    case 'In':
      return hasKey(labels, r.key) && r.values.includes((labels as Record<string, string>)[r.key] ?? '');
    case 'NotIn':
      return !hasKey(labels, r.key) || !r.values.includes((labels as Record<string, string>)[r.key] ?? '');
    case 'Exists':
      return hasKey(labels, r.key);
    case 'DoesNotExist':
      return !hasKey(labels, r.key);
  }
}

function requirementString(r: Requirement): string {
  switch (r.op) {
    case 'Equals':
      return `${r.key}=${r.values[0] ?? ''}`;
    case 'In':
      return `${r.key} in (${[...r.values].sort().join(',')})`;
    case 'NotIn':
      return `${r.key} notin (${[...r.values].sort().join(',')})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
  }
}

/**
 * Checks a selector as `metav1validation.ValidateLabelSelector` does (with label values in expressions checked
 * too): operators, values required for In/NotIn and forbidden for Exists/DoesNotExist, keys qualified names, values
 * valid label values. A null / undefined selector is valid (whether it is *required* is the caller's rule).
 */
export function validateLabelSelector(
  selector: LabelSelector | null | undefined,
  path: FieldPath | string = 'selector',
): FieldError[] {
  if (selector == null) return [];
  const root = typeof path === 'string' ? FieldPath.root(path) : path;
  const errs: FieldError[] = [];

  const labelsPath = root.child('matchLabels');
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErrors.invalid(labelsPath, k, msg));
    if (typeof v !== 'string') {
      errs.push(fieldErrors.invalid(labelsPath.key(k), v, 'must be a string'));
      continue;
    }
    for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(labelsPath, v, msg));
  }

  (selector.matchExpressions ?? []).forEach((req, i) => {
    const p = root.child('matchExpressions').index(i);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(fieldErrors.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            fieldErrors.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        }
        break;
      default:
        errs.push(fieldErrors.invalid(p.child('operator'), req.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(req.key ?? '')) errs.push(fieldErrors.invalid(p.child('key'), req.key, msg));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(String(v))) errs.push(fieldErrors.invalid(p.child('values').index(j), v, msg));
    });
  });
  return errs;
}

/** Validates once and returns a matcher; throws {@link InvalidSelectorError} for an unusable selector. */
export function compileLabelSelector(selector: LabelSelector | null | undefined): CompiledSelector {
  if (selector == null) {
    return {
      matches: () => false,
      everything: false,
      nothing: true,
      toString: () => {
        throw new InvalidSelectorError(
          [],
          'a null label selector selects nothing and has no query-string form; skip the list instead of listing everything',
        );
      },
    };
  }
  const errs = validateLabelSelector(selector);
  if (errs.length > 0) {
    const first = errs[0];
    throw new InvalidSelectorError(
      errs,
      `invalid label selector: ${first ? `${first.field}: ${first.detail}` : ''}` +
        `${errs.length > 1 ? ` (and ${errs.length - 1} more)` : ''}; fix the selector`,
    );
  }
  const reqs: Requirement[] = [];
  for (const [key, v] of Object.entries(selector.matchLabels ?? {})) reqs.push({ key, op: 'Equals', values: [v] });
  for (const e of selector.matchExpressions ?? []) {
    reqs.push({ key: e.key, op: e.operator as SelectorOperator, values: [...(e.values ?? [])] });
  }
  // apimachinery keeps requirements sorted by key; Array.prototype.sort is stable, so matchLabels stay first on ties
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const str = reqs.map(requirementString).join(',');
  return {
    matches: (labels) => reqs.every((r) => requirementMatches(r, labels)),
    everything: reqs.length === 0,
    nothing: false,
    toString: () => str,
  };
}

/** True when the labels are selected; throws {@link InvalidSelectorError} for an unusable selector. */
export function labelSelectorMatches(selector: LabelSelector | null | undefined, labels: Labels): boolean {
  return compileLabelSelector(selector).matches(labels);
}

/**
 * The `labelSelector` query parameter, e.g. `a=b,c in (d,e),!f` (terms sorted by key, values sorted). `{}` gives
 * `''` (everything). Throws {@link InvalidSelectorError} for a null selector, which selects nothing.
 */
export function labelSelectorToString(selector: LabelSelector | null | undefined): string {
  return compileLabelSelector(selector).toString();
}

/**
 * True when the selector has no terms at all — `{}`, `{matchLabels: {}}`, and also null / undefined. Use it for the
 * webhooks' "empty selector is invalid" rule; use {@link selectsEverything} for matching semantics.
 */
export function isSelectorEmpty(selector: LabelSelector | null | undefined): boolean {
  if (selector == null) return true;
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** True only for a non-null selector without terms (`{}`), which selects every object. */
export function selectsEverything(selector: LabelSelector | null | undefined): boolean {
  return selector != null && isSelectorEmpty(selector);
}

/** A selector equivalent to `matchLabels: labels` (like `labels.SelectorFromSet`). */
export function selectorFromLabels(labels: Readonly<Record<string, string>>): LabelSelector {
  return { matchLabels: { ...labels } };
}
