/**
 * SidecarSet admission (OpenKruise `pkg/webhook/sidecarset/mutating` and `validating`) over @regatta/api's entries:
 * defaults and hash annotations, with the admission warnings (`spec.volumeTemplates` moved into `spec.volumes`,
 * v1alpha1 `spec.namespace` converted), then every validation rule against the other SidecarSets and revisions.
 */
import {
  SidecarSetLabels,
  type SidecarSet,
  type SidecarSetVersion,
  defaultSidecarSetForAdmission,
  validateSidecarSetAdmission,
} from '@regatta/api';
import { type KubeObject } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  Mutation,
  NOT_BEING_DELETED,
  fieldErrorCauses,
  invalid,
  kindWebhookConfigurations,
} from '@regatta/runtime';

export const MUTATE_SIDECARSET_PATH = '/mutate-apps-kruise-io-sidecarset';
export const VALIDATE_SIDECARSET_PATH = '/validate-apps-kruise-io-sidecarset';

const versionOf = (input: AdmissionInput): SidecarSetVersion =>
  input.kind.version === 'v1alpha1' ? 'v1alpha1' : 'v1beta1';

export function sidecarSetDefaulter(): MutatingHandler<SidecarSet> {
  return (input) => {
    if (!input.object || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return undefined;
    const { object, warnings } = defaultSidecarSetForAdmission(input.object, versionOf(input));
    return new Mutation(withCustomVersionLabel(object, input.oldObject), warnings);
  };
}

/**
 * v1beta1 `spec.customVersion` mirrored on the v1alpha1 label `apps.kruise.io/sidecarset-custom-version`. The CRD
 * converts versions without a webhook (docs/adr/0025-sidecarset-api.md), so the v1alpha1 view the program's cache
 * reads prunes `spec.customVersion`: without the label its revisions would carry no custom version and
 * `injectionStrategy.revision.customVersion` would find none. The label is set when the field is, and removed when a
 * request clears a field the label mirrored.
 */
export function withCustomVersionLabel(obj: SidecarSet, old: SidecarSet | null): SidecarSet {
  const custom = obj.spec?.customVersion;
  const labels = { ...obj.metadata?.labels };
  if (custom) labels[SidecarSetLabels.CustomVersion] = custom;
  else if (old?.spec?.customVersion && labels[SidecarSetLabels.CustomVersion] === old.spec.customVersion)
    delete labels[SidecarSetLabels.CustomVersion];
  else return obj;
  return { ...obj, metadata: { ...obj.metadata, labels } };
}

export interface SidecarSetValidatorSources {
  sidecarSets(): readonly SidecarSet[];
  /** The cached revisions. */
  revisions(): readonly KubeObject[];
  /**
   * The SidecarSet's revisions as the API server holds them, read when `injectionStrategy.revision` names none of
   * the cached ones (the cache may lag the revision a client just listed).
   */
  storedRevisions?(sidecarSet: string): Promise<readonly KubeObject[]>;
  /**
   * Called with every SidecarSet allowed (not on dry runs) before the answer is sent: the pod webhook's entry for it
   * is applied then (docs/adr/0040-sidecarset-effective-at-admission.md).
   */
  admitted?(set: SidecarSet): Promise<void>;
  patchPodMetadataDefaultsAllowed: boolean;
}

export function sidecarSetValidator(src: SidecarSetValidatorSources): ValidatingHandler<SidecarSet> {
  return async (input): Promise<ValidationResult> => {
    const obj = input.object;
    if (!obj || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return { allowed: true };
    const validate = (revisions: readonly KubeObject[]) =>
      validateSidecarSetAdmission(
        {
          operation: input.operation as 'CREATE' | 'UPDATE',
          object: obj,
          ...(input.oldObject ? { oldObject: input.oldObject } : {}),
          version: versionOf(input),
        },
        {
          others: src.sidecarSets(),
          revisions: revisions as never,
          patchPodMetadataDefaultsAllowed: src.patchPodMetadataDefaultsAllowed,
        },
      );
    const cached = src.revisions();
    let errors = validate(cached);
    if (errors.length > 0 && obj.spec?.injectionStrategy?.revision && src.storedRevisions) {
      errors = validate([...cached, ...(await src.storedRevisions(obj.metadata?.name ?? ''))]);
    }
    if (errors.length === 0) {
      if (!input.dryRun) await src.admitted?.(obj);
      return { allowed: true };
    }
    return invalid(
      { group: 'apps.kruise.io', kind: 'SidecarSet', name: input.name ?? obj.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/**
 * The Mutating- and ValidatingWebhookConfiguration for SidecarSets (the validating one with side effects but on dry
 * runs: it applies the pod webhook's entry for the SidecarSet it allows). SidecarSets are cluster-scoped, so a namespace
 * scope (REGATTA_NAMESPACE_SELECTOR) cannot select them: when scoped, only SidecarSets carrying the scope's labels
 * are admitted through this program (objectSelector), so a scoped program never gates another's SidecarSets.
 */
export function sidecarSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): KubeObject[] {
  const { mutating, validating } = kindWebhookConfigurations(
    'sidecarset',
    [
      {
        resource: 'sidecarsets',
        scope: 'Cluster',
        versions: ['v1alpha1', 'v1beta1'],
        mutating: { name: 'msidecarset.kb.io', path: MUTATE_SIDECARSET_PATH },
        validating: { name: 'vsidecarset.kb.io', path: VALIDATE_SIDECARSET_PATH },
        matchConditions: [NOT_BEING_DELETED],
      },
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
  // the validating webhook writes the pod webhook's configuration, except on dry runs
  const withSideEffects = {
    ...validating,
    webhooks: ((validating as { webhooks?: Record<string, unknown>[] }).webhooks ?? []).map((w) => ({
      ...w,
      sideEffects: 'NoneOnDryRun',
    })),
  } as KubeObject;
  return [mutating, withSideEffects];
}
