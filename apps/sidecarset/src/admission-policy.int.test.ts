// SidecarSet's ValidatingAdmissionPolicy against its webhook validator, on the real API server with no sidecarset
// program running: the same verdicts for the table of libs/sidecarset admission-policy/validation-policy.cases.ts
// (docs/adr/0088-admission-policies.md). SidecarSets are cluster-scoped: the test's policy is bound to its objects.
import { type SidecarSet, defaultSidecarSet, validateSidecarSetAdmission } from '@regatta/api';
import { formatFieldError } from '@regatta/kube';
import { SIDECARSET_PARITY_CASES, SIDECARSET_PROBE, sidecarSetAdmissionPolicies } from '@regatta/sidecarset';
import { describePolicyParity } from '@regatta/testing';

describePolicyParity('SidecarSet: the policy and the webhook give the same verdicts', {
  clusterScoped: true,
  policies: (suffix, objectSelector) => sidecarSetAdmissionPolicies({ suffix, objectSelector }),
  webhook: (object, old) =>
    validateSidecarSetAdmission(
      old
        ? { operation: 'UPDATE', object: defaultSidecarSet(object as SidecarSet), oldObject: defaultSidecarSet(old as SidecarSet), version: 'v1beta1' }
        : { operation: 'CREATE', object: defaultSidecarSet(object as SidecarSet), version: 'v1beta1' },
      { others: [], revisions: [], patchPodMetadataDefaultsAllowed: false },
    ).map(formatFieldError),
  probe: SIDECARSET_PROBE,
  cases: SIDECARSET_PARITY_CASES,
});
