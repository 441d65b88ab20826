// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD: its golden file is
// rendered from STATEFULSET_POLICY (UPDATE_GOLDEN=1 rewrites it; libs/testing policy-golden.ts). Its CEL runs
// in the API server: apps/asts/src/admission-policy.int.test.ts checks its verdicts against the webhook's on
// the table of admission-policy.cases.ts.
import { describePolicyGolden } from '@regatta/testing';
import { STATEFULSET_POLICY, statefulSetAdmissionPolicies } from './admission-policy.js';

describePolicyGolden('the statefulsets ValidatingAdmissionPolicy', {
  source: 'libs/asts/src/admission-policy',
  policy: STATEFULSET_POLICY,
  objects: () => statefulSetAdmissionPolicies(),
});
