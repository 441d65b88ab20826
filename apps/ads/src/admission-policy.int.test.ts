// Advanced DaemonSet's ValidatingAdmissionPolicy against its webhook validator, on the real API server with no
// daemonset program running: the same verdicts for the table of libs/ads admission-policy.cases.ts
// (docs/adr/0088-admission-policies.md).
import { defaultDaemonSet, validateDaemonSet, validateDaemonSetUpdate } from '@regatta/api';
import { DAEMONSET_PARITY_CASES, DAEMONSET_PROBE, daemonSetAdmissionPolicies } from '@regatta/ads';
import { formatFieldError } from '@regatta/kube';
import { describePolicyParity } from '@regatta/testing';

describePolicyParity('Advanced DaemonSet: the policy and the webhook give the same verdicts', {
  policies: (suffix, namespaceSelector) => daemonSetAdmissionPolicies({ suffix, namespaceSelector }),
  webhook: (object, old) => {
    const ds = defaultDaemonSet(object, 'v1beta1');
    return (old ? validateDaemonSetUpdate(ds, defaultDaemonSet(old, 'v1beta1'), { version: 'v1beta1' }) : validateDaemonSet(ds, { version: 'v1beta1' })).map(
      formatFieldError,
    );
  },
  probe: DAEMONSET_PROBE,
  cases: DAEMONSET_PARITY_CASES,
});
