export { NodeSimulator, NodeNotRunError, DEFAULT_CAPACITY, nodeNamesFor } from './simulator.js';
export {
  DEFAULT_KRUISE_DAEMON,
  DEFAULT_TIMINGS,
  DEFAULT_ZONES,
  type KruiseDaemonGates,
  type NodeSimulatorOptions,
  type SimulatorFaults,
  type SimulatorTimings,
} from './options.js';
export { ImageService, ImagePullError, type PullOptions, type StoredImage } from './images.js';
export { imageIdOf, imageMatches, normalizeImage, parseImageRef, type ImageRef } from './image-ref.js';
export { EXIT_AFTER_ANNOTATION, EXIT_CODE_ANNOTATION } from './runtime-state.js';
export { PROVISIONER } from './volumes.js';
export {
  SIMULATED_LABEL,
  PREFIX_ANNOTATION,
  SIMULATED_RUNTIME_VERSION,
  UNSCHEDULABLE_TAINT,
  UNREACHABLE_TAINT,
} from './node-object.js';
export { CAPACITY_ANNOTATION, isRealNode, NODE_KIND_LABEL, NOT_READY_ANNOTATION } from './node-adoption.js';
export {
  NodeArgumentError,
  parseLabelArg,
  parseTaintArg,
  simulatedNodeManifest,
  type NodeManifestOptions,
} from './node-manifest.js';
export { CriServers, criImage, criSocketPath } from './cri-server.js';
