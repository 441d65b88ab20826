// The rollout projection lives in libs/workload (shared with the controllers' rollout metrics, libs/kit).
export { rolloutProgress, type RolloutStatus as RolloutProgress, type Workload } from '@regatta/workload';
