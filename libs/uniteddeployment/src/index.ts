// Errors
export { ReplicaAllocationError, SubsetReplicasError, UnitedDeploymentError } from './errors.js';

// Replica allocation (pure)
export * from './allocation/index.js';

// Admission (pure defaulting and validation, the handlers and their configurations)
export * from './webhooks/index.js';
