export * from './types.js';
export { POD_UNAVAILABLE_BUDGET_CRD } from './crd.js';
export { selectorsLooselyOverlap, validatePodUnavailableBudget } from './validation.js';
export { BUDGET_RETRY_MS, isBudgetRefusal } from './refusal.js';
