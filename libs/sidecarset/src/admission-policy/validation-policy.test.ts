// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD: its golden file is
// rendered from SIDECARSET_POLICY (UPDATE_GOLDEN=1 rewrites it; libs/testing policy-golden.ts). Its CEL runs
// in the API server: apps/sidecarset/src/admission-policy.int.test.ts checks its verdicts against the
// webhook's on the table of validation-policy.cases.ts.
import { describePolicyGolden } from '@regatta/testing';
import { SIDECARSET_POLICY, sidecarSetAdmissionPolicies } from './validation-policy.js';

describePolicyGolden('the sidecarsets ValidatingAdmissionPolicy', {
  source: 'libs/sidecarset/src/admission-policy/validation-policy',
  policy: SIDECARSET_POLICY,
  objects: () => sidecarSetAdmissionPolicies(),
});
