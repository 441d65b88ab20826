/**
 * ResourceDistribution admission (OpenKruise `pkg/webhook/resourcedistribution/validating`): while the gate
 * ResourceDistributionGate is off every CREATE/UPDATE is refused with 403; otherwise the rules of @regatta/api's
 * `validateResourceDistributionAdmission`, then a server-side dry-run create of the resource in the controller's
 * namespace. The mutating webhook keeps the two versions' selector names equal (docs/adr/0030).
 */
import {
  RESOURCE_DISTRIBUTION_GATE,
  decodeResource,
  defaultResourceDistributionForAdmission,
  dryRunErrors,
  validateResourceDistributionAdmission,
  type DryRunFailure,
  type ResourceDistribution,
  type ResourceDistributionVersion,
} from '@regatta/api';
import {
  BadRequestError,
  FieldPath,
  ForbiddenError,
  InvalidError,
  isAlreadyExists,
  type KubeClient,
  type KubeObject,
} from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  NOT_BEING_DELETED,
  fieldErrorCauses,
  invalid,
  kindWebhookConfigurations,
} from '@regatta/runtime';

export const MUTATE_RESOURCEDISTRIBUTION_PATH = '/mutate-apps-kruise-io-resourcedistribution';
export const VALIDATE_RESOURCEDISTRIBUTION_PATH = '/validate-apps-kruise-io-resourcedistribution';

/** Where the resource is dry-run created (upstream: the Kruise namespace). */
export function dryRunNamespace(env: Readonly<Record<string, string | undefined>>): string {
  return env['REGATTA_RESOURCEDISTRIBUTION_NAMESPACE'] || env['POD_NAMESPACE'] || 'default';
}

const versionOf = (input: AdmissionInput): ResourceDistributionVersion =>
  input.kind.version === 'v1alpha1' ? 'v1alpha1' : 'v1beta1';

/** OpenKruise's answer while the gate is off. */
export const GATE_DISABLED: ValidationResult = {
  allowed: false,
  status: {
    code: 403,
    reason: 'Forbidden',
    message: `feature-gate ${RESOURCE_DISTRIBUTION_GATE} is not enabled`,
  },
};

export function resourceDistributionDefaulter(): MutatingHandler<ResourceDistribution> {
  return (input) => {
    if (!input.object || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return undefined;
    return defaultResourceDistributionForAdmission(input.object, versionOf(input));
  };
}

export interface ResourceDistributionValidatorSources {
  enabled: boolean;
  /** The dry-run create (the API server's own validation of the Secret or ConfigMap). */
  dryRun(resource: KubeObject): Promise<DryRunFailure>;
}

export function resourceDistributionValidator(
  src: ResourceDistributionValidatorSources,
): ValidatingHandler<ResourceDistribution> {
  return async (input): Promise<ValidationResult> => {
    if (input.operation !== 'CREATE' && input.operation !== 'UPDATE') return { allowed: true };
    if (!src.enabled) return GATE_DISABLED;
    const obj = input.object;
    const version = versionOf(input);
    const errors = validateResourceDistributionAdmission({
      operation: input.operation,
      object: obj,
      ...(input.oldObject ? { oldObject: input.oldObject } : {}),
      version,
    });
    if (errors.length === 0) {
      const path = FieldPath.root('spec', 'resource');
      const { resource } = decodeResource((obj as ResourceDistribution | undefined)?.spec?.resource, path);
      if (resource) errors.push(...dryRunErrors(await src.dryRun(resource as KubeObject), path));
    }
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'ResourceDistribution', name: input.name ?? obj?.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/** The dry-run through the API server, its failure mapped as upstream (AlreadyExists is fine). */
export function apiServerDryRun(client: KubeClient, namespace: string): (resource: KubeObject) => Promise<DryRunFailure> {
  return async (resource) => {
    const copy = structuredClone(resource);
    copy.metadata = { ...copy.metadata, namespace };
    delete copy.metadata.resourceVersion;
    try {
      await client.create(copy, { dryRun: true });
      return undefined;
    } catch (err) {
      if (isAlreadyExists(err)) return undefined;
      const msg = err instanceof Error ? err.message : String(err);
      if (err instanceof InvalidError || err instanceof BadRequestError) return { kind: 'invalid', message: msg };
      if (err instanceof ForbiddenError) return { kind: 'forbidden', message: msg };
      return { kind: 'other', message: msg };
    }
  };
}

/**
 * The Mutating- and ValidatingWebhookConfiguration for ResourceDistributions. They are cluster-scoped: when the
 * program is scoped (REGATTA_NAMESPACE_SELECTOR), only distributions carrying the scope's labels go through it.
 */
export function resourceDistributionWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): KubeObject[] {
  const { mutating, validating } = kindWebhookConfigurations(
    'resourcedistribution',
    [
      {
        resource: 'resourcedistributions',
        scope: 'Cluster',
        versions: ['v1alpha1', 'v1beta1'],
        mutating: { name: 'mresourcedistribution.kb.io', path: MUTATE_RESOURCEDISTRIBUTION_PATH },
        validating: { name: 'vresourcedistribution.kb.io', path: VALIDATE_RESOURCEDISTRIBUTION_PATH },
        matchConditions: [NOT_BEING_DELETED],
      },
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
  return [mutating, validating];
}
