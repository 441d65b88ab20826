export {
  INJECTION_POLICY_LABEL,
  injectionPolicyName,
  injectionPolicyObjects,
  notInjected,
  webhookOnlyReason,
  type PolicyCompileOptions,
} from './compile.js';
export {
  InjectionPolicyKeeper,
  servesMutatingAdmissionPolicy,
  type InjectionPolicyKeeperOptions,
  type MatchCondition,
} from './keeper.js';
export { SIDECARSET_POLICY, sidecarSetAdmissionPolicies } from './validation-policy.js';
export {
  SIDECARSET_PARITY_CASES,
  SIDECARSET_PROBE,
  sidecarSetCase,
  type SidecarSetValidationCase,
} from './validation-policy.cases.js';
