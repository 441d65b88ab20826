export {
  CrrMessages,
  DAEMON_RESPONSE_TIMEOUT_MS,
  decideManager,
  formatSyncContainerStatuses,
  readinessKey,
  syncContainerStatuses,
  type ManagerDecision,
  type ManagerStep,
} from './manager.js';
export {
  bareContainerId,
  currentRecreateStates,
  manageRecreate,
  pickRequest,
  readSyncContainerStatuses,
  stopGraceSeconds,
  unreadyWaitMs,
  type KillContainer,
  type RecreateOutcome,
  type RuntimeContainer,
} from './daemon.js';
export { CONTROLLER_NAME } from './controller-name.js';
export { CrrReconciler, crrsForPodChange, type CrrReconcilerDeps } from './reconciler.js';
export {
  MUTATE_CRR_PATH,
  VALIDATE_CRR_PATH,
  apiServerPods,
  crrDefaulter,
  crrValidator,
  crrWebhookConfigurations,
  type PodGetter,
} from './webhooks.js';
export { RecreateDuty, type DutyLogger, type RecreateDutyOptions } from './duty.js';
export {
  MIN_STOP_GRACE_SECONDS,
  remainingGraceSeconds,
  runPreStopHook,
  type PreStopCri,
  type PreStopHandler,
  type PreStopTarget,
} from './pre-stop.js';
export { httpGetUrl, type HttpGetAction, type NamedPort } from './pre-stop-http.js';
export { newestByName, podContainers, runtimeContainerOf, type CriRuntime } from './runtime-view.js';
