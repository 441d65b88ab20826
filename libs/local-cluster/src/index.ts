export { cacheDir, locateBinaries, locateHelm, type Binaries } from './binaries.js';
export { buildControlPlane, type BuildOptions } from './build-control-plane.js';
export {
  CONTROL_PLANE_COMPONENTS,
  NODE_COMPONENTS,
  EXPECTED_BUILD_SECONDS,
  missingComponents,
  observeLine,
  renderProgress,
  startBuild,
  type BuildComponent,
  type BuildState,
} from './build-progress.js';
export {
  LocalCluster,
  newNatsAuth,
  readEndpoints,
  stopClusterInDir,
  ENDPOINTS_FILE,
  type ClusterEndpoints,
  type LocalClusterOptions,
  type NodeAgentsOption,
} from './cluster.js';
export {
  BUS_CONTROLLERS,
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_LEFT_OFF,
  controllerPublishAllow,
  natsConfig,
  NATS_SYNC_DEFAULT,
  newNodeAgentUser,
  nodeAgentPermissions,
  REQUEST_AUDIT_POLICY,
  WRITE_AUDIT_POLICY,
  type NatsAuth,
  type NatsClusterMember,
  type NatsSync,
  type NatsUser,
  type NodeAgentUser,
} from './components.js';
export {
  BinariesMissingError,
  ComponentStartError,
  LocalClusterError,
  UnknownProcessError,
  WaitTimeoutError,
} from './errors.js';
export { NATS_SERVER, NatsReloadError, reloadNatsAuth, withNodeAgent } from './nats-users.js';
export { PRIVATE_FILE_MODE, writePrivateFile } from './private-file.js';
export {
  LAUNCH_FILE,
  NoClusterError,
  PIDS_FILE,
  readLaunchRecords,
  readPidRecords,
  writeLaunchRecords,
  writePidRecords,
  type LaunchRecord,
  type ReadyProbe,
} from './records.js';
export { restartableNames, restartProcessInDir, type RestartOptions } from './restart.js';
export { createCertificateAuthority, type CertificateAuthority, type KeyPairPem } from '@regatta/runtime';
export { freePort, freePorts } from './ports.js';
export { alive, ManagedProcess, stopRecorded, type ProcessRecord, type ProcessSpec } from './process.js';
export { waitFor } from './wait.js';
export { startNatsServer, type NatsServerOptions } from './nats-server.js';
export {
  NATS_CLUSTER_NAME,
  natsServerConfig,
  planNatsServers,
  startNatsBus,
  waitForJetStreamCluster,
  type NatsBus,
  type NatsServerEndpoint,
} from './nats-cluster.js';
export * from './versions.js';
export { applyObjects, installCrds, registerWebhooks } from './resources.js';
export { waitForGarbageCollector } from './garbage-collector.js';
export {
  appEntryPath,
  entryCommand,
  NODE_ARGS_ENV,
  startProgram,
  startServingProgram,
  tsEntryCommand,
  type ServingProgram,
} from './programs.js';
export {
  CHART_DIR,
  REPO_ROOT,
  BUNDLED_CHART_DIR,
  bundledChartCopy,
  chartCopy,
  chartNotes,
  lintChart,
  parseManifests,
  templateChart,
  templateChartAsync,
  type Manifest,
} from './chart.js';
export {
  RBAC_KINDS,
  applyManifests,
  isClusterScoped,
  movedToNamespace,
  rbacOf,
  requestServiceAccountToken,
  tokenKubeconfig,
  withClusterNameSuffix,
  writeServiceAccountKubeconfig,
} from './program-rbac.js';
export {
  PROGRAMS_ADMIN_ENV,
  PROGRAMS_CLUSTER_SUFFIX,
  PROGRAMS_NAMESPACE,
  ProgramIdentityError,
  leaseNamespaceOf,
  programKubeconfig,
  programUser,
  programsRunAsAdmin,
  serviceAccountOf,
} from './program-identities.js';
export { missingNodeComponents, nodeBinaries, nodeComponentFolders, type NodeBinaries } from './node-binaries.js';
export { RealNode, RealNodeUnsupportedError, realNodeUnavailable, type RealNodeOptions } from './real-node.js';
export { NODE_KIND_LABEL, type NodeNetwork } from './real-node-config.js';
export { cleanupRealNodesInDir, realNodeLeftovers, realNodeStatesIn, type RealNodeState } from './real-node-teardown.js';
export { hostShareHolders, HOST_SHARE_ROOT, type HostSnapshot } from './real-node-host-share.js';
export {
  imagePushArgs,
  pushStandIns,
  registryPath,
  startRegistry,
  STAND_INS,
  type Registry,
  type StandIn,
} from './registry.js';
