export {
  convertSubsetNodeSelectors,
  nodeSelectorWarning,
  type NodeSelectorConversion,
} from './node-selector-shorthand.js';
export {
  defaultUnitedDeployment,
  defaultUnitedDeploymentForAdmission,
  selectorFromTemplate,
  selectorWarning,
  type AdmissionDefaultingOptions,
  type AdmissionDefaultingRequest,
  type UnitedDeploymentDefaultingOptions,
} from './defaults.js';
export {
  unitedDeploymentSpecErrors,
  unitedDeploymentUpdateErrors,
  validateUnitedDeployment,
  validateUnitedDeploymentUpdate,
} from './validation.js';
export { subsetReplicasErrors } from './replicas-rules.js';
export { nodeSelectorTermErrors, tolerationsErrors } from './node-rules.js';
export {
  MUTATE_UNITED_DEPLOYMENT_PATH,
  VALIDATE_UNITED_DEPLOYMENT_PATH,
  unitedDeploymentDefaulter,
  unitedDeploymentValidator,
  unitedDeploymentWebhookConfigurations,
  type UnitedDeploymentWebhookGates,
} from './handlers.js';
