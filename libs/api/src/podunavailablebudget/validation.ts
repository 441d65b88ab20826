/**
 * PodUnavailableBudget admission, as OpenKruise's webhook (`pkg/webhook/podunavailablebudget/validating/
 * pub_create_update_handler.go`), pure and with field paths: the annotations, the spec (selector xor targetRef,
 * maxUnavailable xor minAvailable, each a positive int or a percentage ≤ 100%), selector and targetRef immutable,
 * and no two budgets of a namespace guarding the same workload or the same labels.
 */
import {
  type FieldError,
  FieldPath,
  fieldErrors,
  validateLabelSelector,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '@regatta/kube';
import { isGroupVersion, sameTarget } from '../core/target-reference.js';
import { PUB_OPERATIONS, PubKeys, type PodUnavailableBudget } from './types.js';

const SPEC = FieldPath.root('spec');
const META = FieldPath.root('metadata');

function validateSpec(pub: PodUnavailableBudget): FieldError[] {
  const errs: FieldError[] = [];
  const spec = pub.spec ?? {};
  const both = SPEC.child('selector, targetRef');
  if (!spec.selector && !spec.targetRef) {
    errs.push(fieldErrors.required(both, 'no selector or targetRef defined in PodUnavailableBudget'));
  } else if (spec.selector && spec.targetRef) {
    errs.push(fieldErrors.required(both, 'selector and targetRef are mutually exclusive'));
  } else if (spec.targetRef) {
    const ref = spec.targetRef;
    if (!ref.apiVersion || !ref.name || !ref.kind)
      errs.push(
        fieldErrors.invalid(
          SPEC.child('TargetReference'),
          ref,
          'empty TargetReference is not valid for PodUnavailableBudget.',
        ),
      );
    else if (!isGroupVersion(ref.apiVersion))
      errs.push(
        fieldErrors.invalid(
          SPEC.child('TargetReference'),
          ref,
          `unexpected GroupVersion string: ${ref.apiVersion}`,
        ),
      );
  } else if (spec.selector) {
    errs.push(...validateLabelSelector(spec.selector, SPEC.child('selector')));
    const n =
      Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions ?? []).length;
    if (n === 0)
      errs.push(
        fieldErrors.invalid(
          SPEC.child('selector'),
          spec.selector,
          'empty selector is not valid for PodUnavailableBudget.',
        ),
      );
  }
  const amounts = SPEC.child('maxUnavailable, minAvailable');
  if (spec.maxUnavailable === undefined && spec.minAvailable === undefined) {
    errs.push(
      fieldErrors.required(amounts, 'no maxUnavailable or minAvailable defined in PodUnavailableBudget'),
    );
  } else if (spec.maxUnavailable !== undefined && spec.minAvailable !== undefined) {
    errs.push(fieldErrors.required(amounts, 'maxUnavailable and minAvailable are mutually exclusive'));
  } else {
    const [name, v] =
      spec.maxUnavailable !== undefined
        ? (['maxUnavailable', spec.maxUnavailable] as const)
        : (['minAvailable', spec.minAvailable!] as const);
    errs.push(...validatePositiveIntOrPercent(v, SPEC.child(name)));
    errs.push(...validateNotMoreThan100Percent(v, SPEC.child(name)));
  }
  return errs;
}

function validateAnnotations(pub: PodUnavailableBudget): FieldError[] {
  const errs: FieldError[] = [];
  const a = pub.metadata?.annotations ?? {};
  const ops = a[PubKeys.ProtectOperations];
  if (ops !== undefined && ops.split(',').some((o) => !(PUB_OPERATIONS as readonly string[]).includes(o)))
    errs.push(fieldErrors.internal(META, `annotation[${PubKeys.ProtectOperations}] is invalid`));
  const total = a[PubKeys.ProtectTotalReplicas];
  if (total !== undefined && !/^[+-]?\d+$/.test(total))
    errs.push(fieldErrors.internal(META, `annotation[${PubKeys.ProtectTotalReplicas}] is invalid`));
  return errs;
}

/** Two selectors that may select the same pods: upstream's loose overlap (a key both name with different values can not). */
export function selectorsLooselyOverlap(
  a: NonNullable<PodUnavailableBudget['spec']>['selector'],
  b: NonNullable<PodUnavailableBudget['spec']>['selector'],
): boolean {
  const la = a?.matchLabels ?? {};
  const lb = b?.matchLabels ?? {};
  for (const [k, v] of Object.entries(la)) if (k in lb && lb[k] !== v) return false;
  const values = (sel: typeof a, key: string): Set<string> | undefined => {
    const s = sel?.matchLabels?.[key];
    if (s !== undefined) return new Set([s]);
    const e = sel?.matchExpressions?.find((x) => x.key === key && x.operator === 'In');
    return e ? new Set(e.values ?? []) : undefined;
  };
  const keys = new Set([
    ...Object.keys(la),
    ...Object.keys(lb),
    ...(a?.matchExpressions ?? []).map((e) => e.key),
  ]);
  for (const k of keys) {
    const va = values(a, k);
    const vb = values(b, k);
    if (va && vb && ![...va].some((v) => vb.has(v))) return false;
  }
  return true;
}

/**
 * Every rule on a budget being created (`old` undefined) or updated; `others`: the namespace's other budgets.
 */
export function validatePodUnavailableBudget(
  pub: PodUnavailableBudget,
  old: PodUnavailableBudget | undefined,
  others: readonly PodUnavailableBudget[],
): FieldError[] {
  const errs = [...validateAnnotations(pub), ...validateSpec(pub)];
  if (
    old &&
    (JSON.stringify(old.spec?.selector ?? null) !== JSON.stringify(pub.spec?.selector ?? null) ||
      JSON.stringify(old.spec?.targetRef ?? null) !== JSON.stringify(pub.spec?.targetRef ?? null))
  )
    errs.push(
      fieldErrors.required(SPEC.child('selector, targetRef'), 'selector and targetRef cannot be modified'),
    );
  for (const other of others) {
    if (other.metadata?.name === pub.metadata?.name) continue;
    if (pub.spec?.targetRef && other.spec?.targetRef) {
      if (sameTarget(pub.spec.targetRef, other.spec.targetRef)) {
        errs.push(
          fieldErrors.invalid(
            SPEC.child('targetReference'),
            pub.spec.targetRef,
            `pub.spec.targetReference is in conflict with other PodUnavailableBudget ${other.metadata?.name ?? ''}`,
          ),
        );
        break;
      }
    } else if (pub.spec?.selector && other.spec?.selector) {
      if (selectorsLooselyOverlap(pub.spec.selector, other.spec.selector)) {
        errs.push(
          fieldErrors.invalid(
            SPEC.child('selector'),
            pub.spec.selector,
            `pub.spec.selector is in conflict with other PodUnavailableBudget ${other.metadata?.name ?? ''}`,
          ),
        );
        break;
      }
    }
  }
  return errs;
}
