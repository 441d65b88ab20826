export * from './identity.js';
export * from './ordinals.js';
export * from './pod-state.js';
export * from './retention.js';
export * from './revision-choice.js';
export * from './rolling-update.js';
export * from './status.js';
export * from './update-order.js';
