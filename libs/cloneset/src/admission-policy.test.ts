// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD: its golden file is
// rendered from CLONESET_POLICY (UPDATE_GOLDEN=1 rewrites it; libs/testing policy-golden.ts). Its CEL runs in
// the API server: apps/cloneset/src/admission-policy.int.test.ts checks its verdicts against the webhook's on
// the table of admission-policy.cases.ts.
import { describePolicyGolden } from '@regatta/testing';
import { CLONESET_POLICY, cloneSetAdmissionPolicies } from './admission-policy.js';

describePolicyGolden('the CloneSet ValidatingAdmissionPolicy', {
  source: 'libs/cloneset/src/admission-policy',
  policy: CLONESET_POLICY,
  objects: () => cloneSetAdmissionPolicies(),
});
