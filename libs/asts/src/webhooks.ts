/**
 * Advanced StatefulSet admission: defaulting and validation (OpenKruise `pkg/webhook/statefulset/mutating` and
 * `validating`) through `@regatta/api`'s admission entries, as handlers for the runtime's WebhookServer, and the
 * configurations that register them. One path serves v1beta1 and v1alpha1 (one schema).
 */
import {
  type StatefulSet,
  type StatefulSetValidationContext,
  type StorageClassInfo,
  statefulSetAdmissionDefaults,
  statefulSetAdmissionErrors,
} from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  WORKLOAD_WEBHOOK_MATCH_CONDITIONS,
} from '@regatta/runtime';
import {
  type WorkloadWebhookConfigurations,
  workloadAdmissionAnswer,
  workloadWebhookConfigurationsOf,
} from '@regatta/workload';

export const MUTATE_STATEFULSET_PATH = '/mutate-apps-kruise-io-v1beta1-statefulset';
export const VALIDATE_STATEFULSET_PATH = '/validate-apps-kruise-io-v1beta1-statefulset';

/** The feature gates the webhooks read (the program's; OpenKruise's defaults when omitted). */
export interface StatefulSetWebhookGates {
  StatefulSetAutoDeletePVC?: boolean;
  StatefulSetAutoResizePVCGate?: boolean;
}

/** The mutating handler: OpenKruise's StatefulSet defaults (template defaults on CREATE or when the template changed). */
export function statefulSetDefaulter(gates: StatefulSetWebhookGates = {}): MutatingHandler<StatefulSet> {
  return (input: AdmissionInput<StatefulSet>) =>
    statefulSetAdmissionDefaults(
      {
        operation: input.operation,
        object: input.object ?? null,
        oldObject: input.oldObject ?? null,
      },
      {
        ...(gates.StatefulSetAutoDeletePVC === undefined
          ? {}
          : { autoDeletePVC: gates.StatefulSetAutoDeletePVC }),
        ...(gates.StatefulSetAutoResizePVCGate === undefined
          ? {}
          : { autoResizePVC: gates.StatefulSetAutoResizePVCGate }),
      },
    );
}

interface StorageClassObject extends KubeObject {
  allowVolumeExpansion?: boolean;
}

/** The cluster's StorageClasses, read live (the webhook asks only on an UPDATE that may resize claims). */
export function storageClassesFrom(client: Pick<KubeClient, 'listAll'>): () => Promise<StorageClassObject[]> {
  return async () =>
    (await client.listAll<StorageClassObject>({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass' }))
      .items;
}

/**
 * `getStorageClass` over listed classes: by name, or for no name the default class (annotation
 * `storageclass.kubernetes.io/is-default-class: "true"`, the newest when several; OpenKruise `GetDefaultStorageClass`).
 */
export function storageClassLookup(
  classes: readonly StorageClassObject[],
): (name: string | undefined) => StorageClassInfo | null {
  const info = (c: StorageClassObject): StorageClassInfo => ({
    name: c.metadata?.name ?? '',
    ...(c.allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion: c.allowVolumeExpansion }),
  });
  return (name) => {
    if (name !== undefined) {
      const c = classes.find((x) => x.metadata?.name === name);
      return c ? info(c) : null;
    }
    let best: StorageClassObject | undefined;
    for (const c of classes) {
      if (c.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] !== 'true') continue;
      if (!best || (c.metadata?.creationTimestamp ?? '') > (best.metadata?.creationTimestamp ?? '')) best = c;
    }
    return best ? info(best) : null;
  };
}

/** Whether an UPDATE's claim templates are checked (the gate and `OnPodRollingUpdate`): only then are classes read. */
function checksClaimTemplates(input: AdmissionInput<StatefulSet>, gates: StatefulSetWebhookGates): boolean {
  const spec = (input.object as { spec?: { volumeClaimUpdateStrategy?: { type?: unknown } } } | undefined)
    ?.spec;
  return (
    input.operation === 'UPDATE' &&
    gates.StatefulSetAutoResizePVCGate === true &&
    spec?.volumeClaimUpdateStrategy?.type === 'OnPodRollingUpdate'
  );
}

/**
 * The validating handler: every rule of `statefulSetAdmissionErrors`; 422 naming the fields. With the gate
 * `StatefulSetAutoResizePVCGate`, an UPDATE of an `OnPodRollingUpdate` set has its claim templates checked, the
 * storage classes read through `storageClasses`.
 */
export function statefulSetValidator(
  gates: StatefulSetWebhookGates = {},
  storageClasses?: () => Promise<StorageClassObject[]>,
): ValidatingHandler<StatefulSet> {
  return async (input: AdmissionInput<StatefulSet>): Promise<ValidationResult> => {
    const ctx: StatefulSetValidationContext = { autoResizePVC: gates.StatefulSetAutoResizePVCGate === true };
    if (storageClasses && checksClaimTemplates(input, gates))
      ctx.getStorageClass = storageClassLookup(await storageClasses());
    const errors = statefulSetAdmissionErrors(
      {
        operation: input.operation,
        object: input.object,
        oldObject: input.oldObject,
      },
      ctx,
    );
    return workloadAdmissionAnswer('StatefulSet', input, errors);
  };
}

/** The CEL conditions under which the API server calls the webhooks (runtime's, shared by the workload kinds). */
export const STATEFULSET_WEBHOOK_MATCH_CONDITIONS = WORKLOAD_WEBHOOK_MATCH_CONDITIONS;

/** The Mutating- and ValidatingWebhookConfiguration objects for Advanced StatefulSets served at `baseUrl`. */
export const statefulSetWebhookConfigurations: WorkloadWebhookConfigurations =
  workloadWebhookConfigurationsOf({
    controller: 'asts',
    resource: 'statefulsets',
    versions: ['v1alpha1', 'v1beta1'],
    mutating: { name: 'mstatefulset.kb.io', path: MUTATE_STATEFULSET_PATH },
    validating: { name: 'vstatefulset.kb.io', path: VALIDATE_STATEFULSET_PATH },
    // each version's object reaches the webhook as written (its own rules)
    matchPolicy: 'Exact',
  });
