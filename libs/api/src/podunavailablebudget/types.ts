/**
 * PodUnavailableBudget (namespaced), `policy.kruise.io/v1alpha1` — the first kind of that group in Regatta. Field
 * names, JSON types and optionality as OpenKruise (`apis/policy/v1alpha1/podunavailablebudget_types.go`); the
 * schemas are the source of both the static types and the CRD.
 */
import { Type, type Static, type TRecord, type TString } from '@sinclair/typebox';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, Time } from '../schemas/scalars.js';

/** The API group of OpenKruise's policy kinds. */
export const KRUISE_POLICY_GROUP = 'policy.kruise.io';
export const POLICY_V1ALPHA1 = `${KRUISE_POLICY_GROUP}/v1alpha1`;

export const PUB_KIND = 'PodUnavailableBudget';
export const PUB_PLURAL = 'podunavailablebudgets';
export const PUB_API_VERSION = POLICY_V1ALPHA1;

/** The pod operations a budget guards (upstream `PubOperation`). */
export const PUB_OPERATIONS = ['UPDATE', 'DELETE', 'EVICT', 'RESIZE'] as const;
export type PubOperation = (typeof PUB_OPERATIONS)[number];

/** Annotations and labels with a meaning to the budget (upstream's keys; `Protected` is Regatta's). */
export const PubKeys = {
  /** On a PUB: the operations it guards, `DELETE,EVICT,UPDATE` (default: those three). */
  ProtectOperations: 'kruise.io/pub-protect-operations',
  /** On a PUB: the replicas to count instead of the workloads' `spec.replicas`. */
  ProtectTotalReplicas: 'pub.kruise.io/protect-total-replicas',
  /** On a pod: `"true"` opts its operations out of every budget. */
  NoProtect: 'pub.kruise.io/no-protect',
  /** On a pod: the name of the budget that selects it (upstream `PodRelatedPubAnnotation`). */
  RelatedPub: 'kruise.io/related-pub',
  /** Pod label prefix: a label `unavailable-pod.kruise.io/<x>` marks the pod unavailable (upstream `appspub`). */
  UnavailablePodLabelPrefix: 'unavailable-pod.kruise.io/',
  /**
   * Regatta's own pod label: the pod is guarded by a budget. The pod webhook's objectSelector selects on it, so no
   * other pod's DELETE or UPDATE ever reaches the program (docs/adr/0080-pod-unavailable-budget-admission.md).
   */
  Protected: 'pub.regatta.dev/protected',
} as const;

export const TargetReferenceSchema = Type.Object({
  apiVersion: Type.Optional(Type.String({ description: 'API version of the referent.' })),
  kind: Type.Optional(Type.String({ description: 'Kind of the referent.' })),
  name: Type.Optional(Type.String({ description: 'Name of the referent.' })),
});
export type TargetReference = Static<typeof TargetReferenceSchema>;

export const PodUnavailableBudgetSpecSchema = Type.Object({
  // the pods the budget guards, by label
  selector: Type.Optional(LabelSelectorSchema),
  // the workload whose pods the budget guards; exclusive with selector
  targetRef: Type.Optional(TargetReferenceSchema),
  maxUnavailable: Type.Optional(
    IntOrString({
      description: 'At most this many selected pods unavailable after an operation (int or %).',
    }),
  ),
  minAvailable: Type.Optional(
    IntOrString({ description: 'At least this many selected pods available after an operation (int or %).' }),
  ),
});
export type PodUnavailableBudgetSpec = Static<typeof PodUnavailableBudgetSpecSchema>;

const TimeMap = (description: string): TRecord<TString, TString> =>
  Type.Record(Type.String(), Time(), { description });

export const PodUnavailableBudgetStatusSchema = Type.Object({
  observedGeneration: Type.Optional(Int64({ description: 'The generation the status was computed for.' })),
  disruptedPods: Type.Optional(
    TimeMap('Pods whose eviction or deletion was admitted but not yet observed, with the admission time.'),
  ),
  unavailablePods: Type.Optional(
    TimeMap('Pods updated in place (admitted) and not yet available again, with the admission time.'),
  ),
  unavailableAllowed: Int32({ description: 'Pod disruptions currently allowed.' }),
  currentAvailable: Int32({ description: 'Pods currently available.' }),
  desiredAvailable: Int32({ description: 'The minimum number of available pods desired.' }),
  totalReplicas: Int32({ description: 'The pods counted by the budget.' }),
});
export type PodUnavailableBudgetStatus = Static<typeof PodUnavailableBudgetStatusSchema>;

export const PodUnavailableBudgetSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(PodUnavailableBudgetSpecSchema),
  status: Type.Optional(PodUnavailableBudgetStatusSchema),
});
export type PodUnavailableBudget = Static<typeof PodUnavailableBudgetSchema>;
