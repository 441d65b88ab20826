/**
 * The `Cascading` rules that need lookups, as a validating webhook of the deletionprotection program
 * (apps/deletionprotection): Namespaces (active pods, Bound claims), CustomResourceDefinitions (their objects),
 * Advanced DaemonSets and BroadcastJobs (the active pods they control). Its configuration lets only DELETEs of objects
 * labelled `policy.kruise.io/delete-protection: Cascading` reach it (objectSelector), so nothing else ever waits on the
 * program; those fail closed (failurePolicy Fail). Upstream: `pkg/webhook/namespace/validating`,
 * `pkg/webhook/customresourcedefinition/validating`, `pkg/webhook/util/deletionprotection`.
 */
import type { EventRecorder, KubeObject } from '@regatta/kube';
import {
  webhookConfigurationName,
  type AdmissionInput,
  type Logger,
  type ValidatingHandler,
  type ValidationResult,
} from '@regatta/runtime';
import {
  DELETION_PROTECTION_KEY,
  PROTECTION_CASCADING,
  crdDeletionProblem,
  crdListVersion,
  crdNeedsObjects,
  namespaceDeletionProblem,
  podOwnerDeletionProblem,
  refusalMessage,
  replicasOf,
  workloadDeletionProblem,
} from './decisions.js';

export const VALIDATE_DELETION_PROTECTION_PATH = '/validate-deletion-protection';

/** A DELETE has no `object`: an object already being deleted is let through without a call (upstream answers so too). */
export const OLD_NOT_BEING_DELETED = {
  name: 'not-being-deleted',
  expression: '!has(oldObject.metadata.deletionTimestamp)',
} as const;

/** What the webhook reads: the bus caches for pods and claims, the API server for a CRD's objects. */
export interface DeletionLookups {
  podsInNamespace(namespace: string): readonly KubeObject[];
  claimsInNamespace(namespace: string): readonly KubeObject[];
  /** Pods whose controller reference has this uid. */
  podsControlledBy(uid: string): readonly KubeObject[];
  /** Every object of a CRD (`group`, `version`, `plural`, `kind`), from the API server. */
  crdObjects(crd: {
    group: string;
    version: string;
    plural: string;
    kind: string;
  }): Promise<readonly KubeObject[]>;
}

export interface DeletionProtectionOptions {
  lookups: DeletionLookups;
  /**
   * `ResourcesDeletionProtection`; off, every DELETE is admitted (a configuration left from when it was on still
   * reaches the program until it is deleted). Default on.
   */
  enabled?: boolean;
  /** `DeletionProtectionForCRDCascadingGate`. */
  crdCascading: boolean;
  log?: Logger;
  recorder?: Pick<EventRecorder, 'warning'>;
}

interface CrdSpec {
  spec?: { group?: string; names?: { plural?: string; kind?: string } };
}

/** The reason to refuse the DELETE in `input`, or undefined. Kinds it does not protect are admitted. */
export async function deletionProblem(
  input: AdmissionInput<KubeObject>,
  o: Pick<DeletionProtectionOptions, 'lookups' | 'crdCascading'>,
): Promise<string | undefined> {
  if (input.operation !== 'DELETE' || input.subResource) return undefined;
  const old = input.oldObject;
  if (!old) return undefined;
  switch (input.kind.kind) {
    case 'Namespace': {
      const ns = old.metadata?.name ?? input.name ?? '';
      return namespaceDeletionProblem(old, o.lookups.podsInNamespace(ns), o.lookups.claimsInNamespace(ns));
    }
    case 'CustomResourceDefinition': {
      const gates = { crdCascading: o.crdCascading };
      if (!crdNeedsObjects(old, gates)) return crdDeletionProblem(old, [], gates);
      const spec = (old as CrdSpec).spec;
      const version = crdListVersion(old);
      if (!spec?.group || !spec.names?.plural || !spec.names.kind || !version)
        return crdDeletionProblem(old, [], gates);
      const objects = await o.lookups.crdObjects({
        group: spec.group,
        version,
        plural: spec.names.plural,
        kind: spec.names.kind,
      });
      return crdDeletionProblem(old, objects, gates);
    }
    case 'DaemonSet':
    case 'BroadcastJob': {
      const uid = old.metadata?.uid;
      return podOwnerDeletionProblem(old, uid ? o.lookups.podsControlledBy(uid) : []);
    }
    default:
      // the workloads with spec.replicas are the ValidatingAdmissionPolicy's; answered the same if one reaches here
      return workloadDeletionProblem(old, replicasOf(old));
  }
}

/** The validating handler: 403 with upstream's reason and Regatta's name, a log line and a Warning Event. */
export function deletionProtectionValidator(o: DeletionProtectionOptions): ValidatingHandler<KubeObject> {
  return async (input): Promise<ValidationResult> => {
    if (o.enabled === false) return { allowed: true };
    const problem = await deletionProblem(input, o);
    if (!problem) return { allowed: true };
    const message = refusalMessage(problem);
    const old = input.oldObject!;
    o.log?.info(
      {
        kind: input.kind.kind,
        namespace: input.namespace,
        name: input.name,
        user: input.userInfo.username,
        problem,
      },
      'deletion refused by deletion protection',
    );
    if (o.recorder && !input.dryRun)
      void o.recorder.warning(old, 'DeletionProtected', message).catch(() => undefined);
    return { allowed: false, status: { code: 403, reason: 'Forbidden', message } };
  };
}

/**
 * The ValidatingWebhookConfiguration: DELETE of Namespaces, CustomResourceDefinitions, Advanced DaemonSets and
 * BroadcastJobs labelled `Cascading` only. The webhooks' names say whose they are: when the program cannot be reached,
 * the API server's refusal names the webhook (`vnamespace.deletionprotection.regatta.dev`). With a namespace scope (REGATTA_NAMESPACE_SELECTOR), namespaced kinds are
 * matched by their namespace, Namespaces by their own labels and CRDs by the scope's labels on the CRD.
 */
export function deletionProtectionWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): KubeObject[] {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const cascading = { [DELETION_PROTECTION_KEY]: PROTECTION_CASCADING };
  const scope = namespaceScope?.matchLabels;
  const hook = (
    name: string,
    rule: { apiGroups: string[]; apiVersions: string[]; resources: string[]; scope: string },
    selectors: { objectSelector: { matchLabels: Record<string, string> }; namespaceSelector?: unknown },
  ) => ({
    name,
    clientConfig: { url: `${baseUrl}${VALIDATE_DELETION_PROTECTION_PATH}`, caBundle },
    rules: [{ ...rule, operations: ['DELETE'] }],
    ...selectors,
    matchConditions: [{ ...OLD_NOT_BEING_DELETED }],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
  });
  const namespaced = scope ? { namespaceSelector: { matchLabels: scope } } : {};
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: webhookConfigurationName('deletionprotection', namespaceScope) },
      webhooks: [
        hook(
          'vnamespace.deletionprotection.regatta.dev',
          { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], scope: 'Cluster' },
          { objectSelector: { matchLabels: cascading }, ...namespaced },
        ),
        hook(
          'vcustomresourcedefinition.deletionprotection.regatta.dev',
          {
            apiGroups: ['apiextensions.k8s.io'],
            apiVersions: ['v1'],
            resources: ['customresourcedefinitions'],
            scope: 'Cluster',
          },
          { objectSelector: { matchLabels: { ...cascading, ...scope } } },
        ),
        hook(
          'vworkload.deletionprotection.regatta.dev',
          {
            apiGroups: ['apps.kruise.io'],
            apiVersions: ['*'],
            resources: ['daemonsets', 'broadcastjobs'],
            scope: 'Namespaced',
          },
          { objectSelector: { matchLabels: cascading }, ...namespaced },
        ),
      ],
    } as KubeObject,
  ];
}
