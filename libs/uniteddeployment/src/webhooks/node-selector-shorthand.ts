/**
 * The seed article's `topology.subsets[].nodeSelector` (a label map), which OpenKruise does not have: its CRD prunes
 * it, so the seed's zones would be ignored there. Regatta accepts it as a shorthand for
 * `nodeSelectorTerm.matchExpressions` with operator `In`, converts it in the mutating webhook (the stored object is a
 * valid OpenKruise UnitedDeployment) and says so in an admission warning naming the real field
 * (docs/adr/0028-uniteddeployment-api.md).
 */
import { cloneJson, isPlainObject } from '@regatta/kube';

type Obj = Record<string, unknown>;

export interface NodeSelectorConversion<T> {
  /** The object with every subset's `nodeSelector` moved into its `nodeSelectorTerm` (a copy; the input is unchanged). */
  object: T;
  /** One warning per converted subset (empty when nothing was converted). */
  warnings: string[];
}

/** The warning for subset `index` whose `nodeSelector` was converted. */
export function nodeSelectorWarning(index: number, selector: Readonly<Record<string, string>>): string {
  const at = `spec.topology.subsets[${index}]`;
  const terms = Object.entries(selector)
    .map(([k, v]) => `${k} In [${v}]`)
    .join(', ');
  return (
    `${at}.nodeSelector is not a UnitedDeployment field (OpenKruise ignores it); ` +
    `converted to ${at}.nodeSelectorTerm.matchExpressions (${terms}): write nodeSelectorTerm instead`
  );
}

function sameRequirement(a: unknown, key: string, value: string): boolean {
  if (!isPlainObject(a) || a['key'] !== key || a['operator'] !== 'In') return false;
  const values = a['values'];
  return Array.isArray(values) && values.length === 1 && values[0] === value;
}

/**
 * Moves each subset's `nodeSelector` into `nodeSelectorTerm.matchExpressions` (`{key, operator: In, values: [value]}`
 * per label, skipping requirements already there) and removes it. Members that are not a string map are left for
 * the validation to report. Any JSON is accepted.
 */
export function convertSubsetNodeSelectors<T>(obj: T): NodeSelectorConversion<T> {
  const out = cloneJson(obj);
  const warnings: string[] = [];
  if (!isPlainObject(out) || !isPlainObject(out['spec'])) return { object: out, warnings };
  const topology = (out['spec'] as Obj)['topology'];
  const subsets = isPlainObject(topology) ? topology['subsets'] : undefined;
  if (!Array.isArray(subsets)) return { object: out, warnings };
  subsets.forEach((subset: unknown, index) => {
    if (!isPlainObject(subset) || !('nodeSelector' in subset)) return;
    const selector = subset['nodeSelector'];
    if (selector == null) {
      delete subset['nodeSelector'];
      return;
    }
    if (!isPlainObject(selector) || !Object.values(selector).every((v) => typeof v === 'string')) return;
    const labels = selector as Record<string, string>;
    const term: Obj = isPlainObject(subset['nodeSelectorTerm']) ? subset['nodeSelectorTerm'] : {};
    const existing = Array.isArray(term['matchExpressions']) ? (term['matchExpressions'] as unknown[]) : [];
    const added = Object.entries(labels)
      .filter(([k, v]) => !existing.some((r) => sameRequirement(r, k, v)))
      .map(([key, value]) => ({ key, operator: 'In', values: [value] }));
    if (added.length > 0 || Object.keys(labels).length > 0) {
      term['matchExpressions'] = [...existing, ...added];
      subset['nodeSelectorTerm'] = term;
    }
    delete subset['nodeSelector'];
    if (Object.keys(labels).length > 0) warnings.push(nodeSelectorWarning(index, labels));
  });
  return { object: out, warnings };
}
