// Advanced StatefulSet's ValidatingAdmissionPolicy against its webhook validator, on the real API server with no
// statefulset program running: the same verdicts for the table of libs/asts admission-policy.cases.ts
// (docs/adr/0088-admission-policies.md).
import { type StatefulSet, defaultStatefulSetForAdmission, statefulSetAdmissionErrors } from '@regatta/api';
import { STATEFULSET_PARITY_CASES, STATEFULSET_PROBE, statefulSetAdmissionPolicies } from '@regatta/asts';
import { formatFieldError } from '@regatta/kube';
import { describePolicyParity } from '@regatta/testing';

describePolicyParity('Advanced StatefulSet: the policy and the webhook give the same verdicts', {
  policies: (suffix, namespaceSelector) => statefulSetAdmissionPolicies({ suffix, namespaceSelector }),
  webhook: (object, old) => {
    const oldSts = old ? defaultStatefulSetForAdmission(old as StatefulSet) : undefined;
    const sts = defaultStatefulSetForAdmission(object as StatefulSet, oldSts);
    return statefulSetAdmissionErrors(
      oldSts ? { operation: 'UPDATE', object: sts, oldObject: oldSts } : { operation: 'CREATE', object: sts },
    ).map(formatFieldError);
  },
  probe: STATEFULSET_PROBE,
  cases: STATEFULSET_PARITY_CASES,
});
