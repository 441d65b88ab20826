export {
  DEFAULT_DASHBOARD_PORT,
  DashboardUsageError,
  TOKEN_HEADER,
  checkHost,
  checkMutation,
  dashboardUrl,
  isLoopbackHost,
  listenAddress,
  listenPort,
  type MutationRequest,
  type Refusal,
} from './guard.js';
export {
  waterfallView,
  workloadId,
  workloadItem,
  workloadRef,
  workloadsView,
  type WaterfallBar,
  type WaterfallView,
  type WorkloadItem,
  type WorkloadRef,
  type WorkloadsView,
} from './view.js';
export { readDetail, readTrace, readWorkloads, setPaused, type DashboardSource, type TraceAnswer, type WorkloadDetail } from './cluster.js';
export { APP_CSS, APP_JS, pageHtml, type PageConfig } from './page.js';
export { errorAnswer, startDashboard, type Dashboard, type DashboardOptions } from './server.js';
