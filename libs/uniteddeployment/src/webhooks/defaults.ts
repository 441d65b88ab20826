/**
 * UnitedDeployment defaulting, as OpenKruise's mutating webhook (`pkg/webhook/uniteddeployment/mutating`,
 * `apis/apps/defaults/v1beta1.go` SetDefaultsUnitedDeploymentV1beta1): `replicas` 1, `revisionHistoryLimit` 10,
 * `updateStrategy.type` Manual with `manualUpdate: {}`, every unset `minReplicas` 0 when subsets use min/max but none
 * uses `replicas`, the pod-spec (and claim) defaults of a **StatefulSet** template only (on create, or when
 * `spec.template` changed, unless gate `TemplateNoDefaults`), and `status` cleared. Both versions get the same
 * defaults.
 *
 * Regatta shorthands for the seed article, each with an admission warning (docs/adr/0028-uniteddeployment-api.md):
 * `subsets[].nodeSelector` (see node-selector-shorthand.ts), and a missing `spec.selector`, taken from the
 * template's workload selector (or its pod labels).
 */
import { SUBSET_TEMPLATE_FIELDS, applyKruisePodSpecDefaults } from '@regatta/api';
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import { convertSubsetNodeSelectors } from './node-selector-shorthand.js';

type Obj = Record<string, unknown>;

const member = (o: Obj, key: string): Obj | undefined =>
  isPlainObject(o[key]) ? (o[key] as Obj) : undefined;

function ensureMember(o: Obj, key: string): Obj {
  const m = member(o, key);
  if (m) return m;
  const created: Obj = {};
  o[key] = created;
  return created;
}

function defaultStatefulSetTemplate(spec: Obj): void {
  const sts = member(member(spec, 'template') ?? {}, 'statefulSetTemplate');
  const stsSpec = sts && member(sts, 'spec');
  if (!stsSpec) return;
  const podTemplate = member(stsSpec, 'template');
  if (podTemplate) {
    if (podTemplate['spec'] == null) podTemplate['spec'] = { containers: [] };
    applyKruisePodSpecDefaults(podTemplate['spec']);
  }
  const claims = stsSpec['volumeClaimTemplates'];
  for (const vct of Array.isArray(claims) ? claims.filter(isPlainObject) : []) {
    const status = ensureMember(vct, 'status');
    if (!status['phase']) status['phase'] = 'Pending';
  }
}

function defaultSubsetBounds(spec: Obj): void {
  const topology = member(spec, 'topology');
  const subsets = Array.isArray(topology?.['subsets'])
    ? (topology['subsets'] as unknown[]).filter(isPlainObject)
    : [];
  const hasReplicas = subsets.some((s) => s['replicas'] != null);
  const hasCapacity = subsets.some((s) => s['minReplicas'] != null || s['maxReplicas'] != null);
  if (!hasCapacity || hasReplicas) return;
  for (const s of subsets) if (s['minReplicas'] == null) s['minReplicas'] = 0;
}

export interface UnitedDeploymentDefaultingOptions {
  /** Apply the StatefulSet template's pod and claim defaults (default true). */
  injectTemplateDefaults?: boolean;
}

/** A defaulted copy (the input is not changed; any JSON is accepted, non-objects are returned as they are). */
export function defaultUnitedDeployment<T>(obj: T, options: UnitedDeploymentDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  delete out['status'];
  if (!isPlainObject(out['spec'])) return out;
  const spec = out['spec'] as Obj;
  if (spec['replicas'] == null) spec['replicas'] = 1;
  if (spec['revisionHistoryLimit'] == null) spec['revisionHistoryLimit'] = 10;
  const strategy = ensureMember(spec, 'updateStrategy');
  if (!strategy['type']) strategy['type'] = 'Manual';
  if (strategy['type'] === 'Manual' && strategy['manualUpdate'] == null) strategy['manualUpdate'] = {};
  if (options.injectTemplateDefaults ?? true) defaultStatefulSetTemplate(spec);
  defaultSubsetBounds(spec);
  return out;
}

/**
 * Regatta's shorthand: a UnitedDeployment without `spec.selector` gets its template's workload selector
 * (`spec.template.<kind>Template.spec.selector`), or else the template's pod labels as `matchLabels`. Returns the
 * selector and where it came from, or undefined when there is nothing to take (the validation then asks for it).
 */
export function selectorFromTemplate(spec: unknown): { selector: Obj; from: string } | undefined {
  if (!isPlainObject(spec) || spec['selector'] != null) return undefined;
  const template = isPlainObject(spec['template']) ? spec['template'] : {};
  for (const field of SUBSET_TEMPLATE_FIELDS) {
    const t = template[field];
    if (!isPlainObject(t) || !isPlainObject(t['spec'])) continue;
    const ws = t['spec'];
    if (isPlainObject(ws['selector']) && Object.keys(ws['selector']).length > 0) {
      return { selector: cloneJson(ws['selector']), from: `spec.template.${field}.spec.selector` };
    }
    const labels =
      isPlainObject(ws['template']) && isPlainObject(ws['template']['metadata'])
        ? ws['template']['metadata']['labels']
        : undefined;
    if (isPlainObject(labels) && Object.keys(labels).length > 0) {
      return {
        selector: { matchLabels: cloneJson(labels) },
        from: `spec.template.${field}.spec.template.metadata.labels`,
      };
    }
  }
  return undefined;
}

export function selectorWarning(from: string): string {
  return `spec.selector is required by UnitedDeployment and was missing; defaulted from ${from}: write spec.selector instead`;
}

export interface AdmissionDefaultingRequest<T> {
  operation: 'CREATE' | 'UPDATE';
  object: T;
  oldObject?: unknown;
}

export interface AdmissionDefaultingOptions {
  /** Gate `TemplateNoDefaults` (default false): never default the StatefulSet template. */
  templateNoDefaults?: boolean;
}

/**
 * The mutating webhook: the shorthands (with their warnings), then {@link defaultUnitedDeployment}. Template defaults
 * are injected on CREATE, and on UPDATE only when `spec.template` changed (compared before defaulting, as upstream).
 */
export function defaultUnitedDeploymentForAdmission<T>(
  req: AdmissionDefaultingRequest<T>,
  options: AdmissionDefaultingOptions = {},
): { object: T; warnings: string[] } {
  const { object: converted, warnings } = convertSubsetNodeSelectors(req.object);
  if (isPlainObject(converted) && isPlainObject(converted['spec'])) {
    const found = selectorFromTemplate(converted['spec']);
    if (found) {
      (converted['spec'] as Obj)['selector'] = found.selector;
      warnings.push(selectorWarning(found.from));
    }
  }
  let inject = !options.templateNoDefaults;
  if (inject && req.operation === 'UPDATE') {
    const templateOf = (o: unknown) =>
      isPlainObject(o) && isPlainObject(o['spec']) ? o['spec']['template'] : undefined;
    inject = !jsonEqual(templateOf(req.object) ?? null, templateOf(req.oldObject) ?? null);
  }
  return { object: defaultUnitedDeployment(converted, { injectTemplateDefaults: inject }), warnings };
}
