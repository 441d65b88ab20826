/**
 * The admission configuration of the budget program (docs/adr/0080-pod-unavailable-budget-admission.md): the pod
 * webhooks reach it only for pods a budget guards, and the PodUnavailableBudget validation.
 *
 * - `vpod.kb.io` (pods DELETE, and UPDATE when PodUnavailableBudgetUpdateGate is on): `objectSelector` on the
 *   `pub.regatta.dev/protected` label the controller puts on guarded pods. For DELETE the API server matches the
 *   stored pod (oldObject), for UPDATE the old or the new one. A match condition lets through updates that change
 *   neither the spec nor add an unavailable label (upstream `IsPodUnavailableChanged`) without a call.
 * - `vpodstatus.kb.io` (pods/status UPDATE, with the update gate): the same selector, and a match condition that
 *   passes only the write turning `InPlaceUpdateReady` False — where a CloneSet's in-place update begins, so the budget
 *   is spent (or refused) before the pod turns unavailable.
 * - `vpodeviction.kb.io` (pods/eviction CREATE): the object of an eviction is the Eviction, not the pod, so an
 *   objectSelector on pod labels never matches it (k8s.io/apiserver `predicates/object/matcher.go`) and the eviction's
 *   own delete skips admission (`pkg/registry/core/pod/storage/eviction.go`: `rest.ValidateAllObjectFunc`). The
 *   entry's match condition lists the guarded pods by namespace and name instead, and the entry is left out while no
 *   pod is guarded.
 * - `vpodunavailablebudget.kb.io`: PodUnavailableBudget CREATE and UPDATE.
 */
import { PUB_PLURAL, PubKeys } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { NOT_BEING_DELETED, webhookConfigurationName } from '@regatta/runtime';

export const VALIDATE_POD_PATH = '/validate-pod-pub';
export const VALIDATE_PUB_PATH = '/validate-policy-kruise-io-v1alpha1-podunavailablebudget';
export const POD_WEBHOOK_NAME = 'vpod.kb.io';
export const EVICTION_WEBHOOK_NAME = 'vpodeviction.kb.io';
export const POD_STATUS_WEBHOOK_NAME = 'vpodstatus.kb.io';
export const PUB_WEBHOOK_NAME = 'vpodunavailablebudget.kb.io';

/** CEL: the object carries an `unavailable-pod.kruise.io/*` label. */
const unavailableLabel = (o: 'object' | 'oldObject') =>
  `(has(${o}.metadata.labels) && ${o}.metadata.labels.exists(k, k.startsWith('${PubKeys.UnavailablePodLabelPrefix}')))`;

/** Updates that may make the pod unavailable (a changed spec, a new unavailable label); DELETE always. */
export const POD_MAY_BECOME_UNAVAILABLE = {
  name: 'may-become-unavailable',
  expression:
    "request.operation != 'UPDATE' || object.spec != oldObject.spec || " +
    `(${unavailableLabel('object')} && !${unavailableLabel('oldObject')})`,
} as const;

/** CEL: the object's `InPlaceUpdateReady` condition is False. */
const inPlaceUnready = (o: 'object' | 'oldObject') =>
  `(has(${o}.status) && has(${o}.status.conditions) && ` +
  `${o}.status.conditions.exists(c, c.type == 'InPlaceUpdateReady' && c.status == 'False'))`;

/** The status write that starts an in-place update. */
export const STARTS_IN_PLACE_UPDATE = {
  name: 'starts-in-place-update',
  expression: `${inPlaceUnready('object')} && !${inPlaceUnready('oldObject')}`,
} as const;

/** A CEL string literal of a Kubernetes name (DNS characters only; JSON escaping is CEL's too). */
const lit = (s: string): string => JSON.stringify(s);

/** The match condition of the eviction entry: the request names a guarded pod. */
export function guardedPodsCondition(guarded: ReadonlyMap<string, ReadonlySet<string>>): {
  name: string;
  expression: string;
} {
  const keys = [...guarded.entries()]
    .flatMap(([ns, names]) => [...names].map((n) => `${ns}/${n}`))
    .sort()
    .map((k) => `${lit(k)}: true`);
  return {
    name: 'guarded-pod',
    expression: `request.namespace + '/' + request.name in {${keys.join(', ')}}`,
  };
}

export interface PubWebhookOptions {
  /** PodUnavailableBudgetUpdateGate: pod UPDATEs are guarded too. */
  guardUpdates: boolean;
  /** Guarded pods by namespace (the eviction entry's condition). */
  guarded: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The ValidatingWebhookConfiguration `regatta-podunavailablebudget[-scope]`. */
export function pubWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope: { matchLabels: Record<string, string> } | undefined,
  o: PubWebhookOptions,
): KubeObject[] {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const scope = namespaceScope ? { namespaceSelector: { matchLabels: namespaceScope.matchLabels } } : {};
  const common = {
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
  };
  const podHook = {
    name: POD_WEBHOOK_NAME,
    clientConfig: { url: `${baseUrl}${VALIDATE_POD_PATH}`, caBundle },
    ...scope,
    objectSelector: { matchLabels: { [PubKeys.Protected]: 'true' } },
    rules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: o.guardUpdates ? ['UPDATE', 'DELETE'] : ['DELETE'],
        resources: ['pods'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: [{ ...POD_MAY_BECOME_UNAVAILABLE }],
    ...common,
  };
  const statusHook = {
    ...podHook,
    name: POD_STATUS_WEBHOOK_NAME,
    rules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['UPDATE'],
        resources: ['pods/status'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: [{ ...STARTS_IN_PLACE_UPDATE }],
  };
  const anyGuarded = [...o.guarded.values()].some((s) => s.size > 0);
  const evictionHook = {
    name: EVICTION_WEBHOOK_NAME,
    clientConfig: { url: `${baseUrl}${VALIDATE_POD_PATH}`, caBundle },
    ...scope,
    rules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['CREATE'],
        resources: ['pods/eviction'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: [guardedPodsCondition(o.guarded)],
    ...common,
  };
  const pubHook = {
    name: PUB_WEBHOOK_NAME,
    clientConfig: { url: `${baseUrl}${VALIDATE_PUB_PATH}`, caBundle },
    ...scope,
    rules: [
      {
        apiGroups: ['policy.kruise.io'],
        apiVersions: ['v1alpha1'],
        operations: ['CREATE', 'UPDATE'],
        resources: [PUB_PLURAL],
        scope: 'Namespaced',
      },
    ],
    matchConditions: [{ ...NOT_BEING_DELETED }],
    ...common,
  };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: webhookConfigurationName('podunavailablebudget', namespaceScope) },
      webhooks: [
        pubHook,
        podHook,
        ...(o.guardUpdates ? [statusHook] : []),
        ...(anyGuarded ? [evictionHook] : []),
      ],
    } as KubeObject,
  ];
}
