export * from './types.js';
export { NODE_IMAGE_CRD } from './crd.js';
