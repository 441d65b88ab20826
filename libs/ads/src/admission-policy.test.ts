// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD: its golden file is
// rendered from DAEMONSET_POLICY (UPDATE_GOLDEN=1 rewrites it; libs/testing policy-golden.ts). Its CEL runs
// in the API server: apps/ads/src/admission-policy.int.test.ts checks its verdicts against the webhook's on
// the table of admission-policy.cases.ts.
import { describePolicyGolden } from '@regatta/testing';
import { DAEMONSET_POLICY, daemonSetAdmissionPolicies } from './admission-policy.js';

describePolicyGolden('the daemonsets ValidatingAdmissionPolicy', {
  source: 'libs/ads/src/admission-policy',
  policy: DAEMONSET_POLICY,
  objects: () => daemonSetAdmissionPolicies(),
});
