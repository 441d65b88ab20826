export { scenarioCluster } from './context.js';
export { eventsAbout } from './events.js';
export { rolloutTraceSpans, traceIdOf, traceSpans, type JaegerSpan } from './jaeger.js';
export { createNamespace, deleteCreatedNamespaces, randomId } from './namespaces.js';
export { recordPods, type PodRecorder } from './pod-recorder.js';
export {
  LIFECYCLE_STATE,
  POD,
  conditionOf,
  containerStatus,
  isReady,
  livePods,
  nameOf,
  setTemplateImage,
  specOf,
  imageOf,
  stateOf,
  uidOf,
  type Container,
  type ContainerStatus,
  type Pod,
} from './pods.js';
export {
  PROGRAM_LOGS,
  programLog,
  useScenarioPrograms,
  type ScenarioPrograms,
  type ServingProgram,
  type StartOptions,
} from './programs.js';
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
} from '@regatta/local-cluster';
export { holds, sleep, waitObserved, type Generational } from './waits.js';
export {
  useScenarioLayer,
  type ProgramOptions,
  type ScenarioLayer,
  type ScenarioLayerOptions,
} from './scenario-layer.js';
export {
  createTestNode,
  testNodeTaint,
  testNodeToleration,
  type TestNodeOptions,
  type TestNodeTaint,
} from './test-nodes.js';
export {
  answerOf,
  expectRestartedInPlace,
  readTrace,
  realNodeSkipReason,
  useRealNode,
  type RealNodeScenario,
  type TraceLine,
} from './real-node.js';
export {
  NGINX_UPDATE,
  expectInPlaceUpdate,
  expectWorkloadUpdatedInPlace,
  useRealNodeScenarios,
  type InPlaceUpdate,
  type InPlaceUpdateProof,
  type RealNodeScenarios,
  type WorkloadScenarios,
} from './real-node-scenarios.js';
export { runKubectl, type KubectlRun } from './kubectl.js';
export { describePolicyParity, type PolicyParityCase, type PolicyParityKind } from './policy-parity.js';
export { describePolicyGolden, type PolicyGoldenKind } from './policy-golden.js';
