/**
 * The two calls a ResourceDistribution admission webhook makes. OpenKruise has only the validating one
 * (`pkg/webhook/resourcedistribution/validating`); the mutating one is Regatta's stand-in for the conversion webhook
 * (docs/adr/0030-resourcedistribution-versions-and-secrets.md): the request version's namespace selector is copied to
 * the other version's name (or both removed), so either version reads its own field.
 */
import { type FieldError, isPlainObject } from '@regatta/kube';
import { validateResourceDistribution } from './validation.js';
import { selectorFieldOf, type ResourceDistributionVersion } from './version.js';

/** The object to store: the two selector names made equal, the request version's winning. Never throws. */
export function defaultResourceDistributionForAdmission<T>(obj: T, version: ResourceDistributionVersion): T {
  if (!isPlainObject(obj) || !isPlainObject(obj['spec']) || !isPlainObject(obj['spec']['targets'])) return obj;
  const out = structuredClone(obj) as Record<string, Record<string, Record<string, unknown>>>;
  const targets = out['spec']!['targets']!;
  const own = selectorFieldOf(version);
  const other = own === 'namespaceSelector' ? 'namespaceLabelSelector' : 'namespaceSelector';
  if (targets[own] == null) delete targets[other];
  else targets[other] = structuredClone(targets[own]);
  return out as T;
}

export interface ResourceDistributionAdmission {
  operation: 'CREATE' | 'UPDATE';
  object: unknown;
  /** The stored object (UPDATE). */
  oldObject?: unknown;
  version: ResourceDistributionVersion;
}

/** The validating webhook's pure rules (the dry-run is the webhook's); empty when allowed. */
export function validateResourceDistributionAdmission(req: ResourceDistributionAdmission): FieldError[] {
  return validateResourceDistribution(
    req.object,
    req.version,
    req.operation === 'UPDATE' ? req.oldObject : undefined,
  );
}
