// Errors
export { ReplicaAllocationError, SubsetReplicasError, UnitedDeploymentError } from './errors.js';

// Replica allocation (pure)
export * from './allocation/index.js';
