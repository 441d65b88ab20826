/**
 * Whether two label selectors can select the same object — OpenKruise's `util.IsSelectorOverlapping`
 * (`pkg/util/selector.go`), which the SidecarSet webhook uses to find SidecarSets that may inject into the same pod.
 *
 * Regatta decides it soundly: two selectors overlap unless their requirements on some key cannot hold together
 * (a value required by one and excluded by the other, disjoint `In` sets, `Exists` against `DoesNotExist`). Upstream
 * also calls `Exists` on a key the other selector never names disjoint, which misses real overlaps (a pod may carry
 * both labels); Regatta counts those as overlapping.
 */
import type { LabelSelector } from '@regatta/kube';

interface KeyConstraint {
  mustExist: boolean;
  mustNotExist: boolean;
  /** Values allowed (undefined: any). */
  allowed?: Set<string>;
  forbidden: Set<string>;
}

function constrain(map: Map<string, KeyConstraint>, sel: LabelSelector | null | undefined): void {
  const at = (k: string): KeyConstraint => {
    let c = map.get(k);
    if (!c) map.set(k, (c = { mustExist: false, mustNotExist: false, forbidden: new Set() }));
    return c;
  };
  const allow = (c: KeyConstraint, values: readonly string[]): void => {
    c.mustExist = true;
    c.allowed = new Set(values.filter((v) => !c.allowed || c.allowed.has(v)));
  };
  for (const [k, v] of Object.entries(sel?.matchLabels ?? {})) allow(at(k), [v]);
  for (const r of sel?.matchExpressions ?? []) {
    const c = at(r.key);
    const values = r.values ?? [];
    if (r.operator === 'In') allow(c, values);
    else if (r.operator === 'NotIn') for (const v of values) c.forbidden.add(v);
    else if (r.operator === 'Exists') c.mustExist = true;
    else if (r.operator === 'DoesNotExist') c.mustNotExist = true;
  }
}

/** True when some set of labels could match both selectors (a nil or empty selector matches everything). */
export function selectorsOverlap(a: LabelSelector | null | undefined, b: LabelSelector | null | undefined): boolean {
  const map = new Map<string, KeyConstraint>();
  constrain(map, a);
  constrain(map, b);
  for (const c of map.values()) {
    if (c.mustExist && c.mustNotExist) return false;
    if (c.allowed && [...c.allowed].every((v) => c.forbidden.has(v))) return false;
  }
  return true;
}
