export { cacheDir, locateBinaries, type Binaries } from './binaries.js';
export {
  LocalCluster,
  newNatsAuth,
  readEndpoints,
  stopClusterInDir,
  ENDPOINTS_FILE,
  PIDS_FILE,
  type ClusterEndpoints,
  type LocalClusterOptions,
} from './cluster.js';
export {
  CONTROLLER_MANAGER_CONTROLLERS,
  controllerPublishAllow,
  natsConfig,
  WRITE_AUDIT_POLICY,
  type NatsAuth,
  type NatsUser,
} from './components.js';
export { BinariesMissingError, ComponentStartError, LocalClusterError, WaitTimeoutError } from './errors.js';
export { createCertificateAuthority, type CertificateAuthority, type KeyPairPem } from '@regatta/runtime';
export { freePort, freePorts } from './ports.js';
export { alive, ManagedProcess, stopRecorded, type ProcessRecord, type ProcessSpec } from './process.js';
export { waitFor } from './wait.js';
export * from './versions.js';
export { applyObjects, installCrds, registerWebhooks } from './resources.js';
export {
  appEntryPath,
  startProgram,
  startServingProgram,
  tsEntryCommand,
  type ServingProgram,
} from './programs.js';
