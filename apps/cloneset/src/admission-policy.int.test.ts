// CloneSet's ValidatingAdmissionPolicy against its webhook validator, on the real API server with no cloneset program
// running: the same verdicts for the table of admission-policy.cases.ts (docs/adr/0088-admission-policies.md).
import { type CloneSet, defaultCloneSetForAdmission, validateCloneSet, validateCloneSetUpdate } from '@regatta/api';
import { formatFieldError } from '@regatta/kube';
import { describePolicyParity } from '@regatta/testing';
import { CLONESET_PARITY_CASES, CLONESET_PROBE, cloneSetAdmissionPolicies } from '@regatta/cloneset';

describePolicyParity('CloneSet: the policy and the webhook give the same verdicts', {
  policies: (suffix, namespaceSelector) => cloneSetAdmissionPolicies({ suffix, namespaceSelector }),
  webhook: (object, old) => {
    const oldCs = old ? defaultCloneSetForAdmission(old as CloneSet) : undefined;
    const cs = defaultCloneSetForAdmission(object as CloneSet, oldCs);
    return (oldCs ? validateCloneSetUpdate(cs, oldCs) : validateCloneSet(cs)).map(formatFieldError);
  },
  probe: CLONESET_PROBE,
  cases: CLONESET_PARITY_CASES,
});
