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
