/** Timings of the simulated kubelet, in milliseconds. */
export interface SimulatorTimings {
  /** From a pod being bound to its containers running (includes the first image pull). */
  podStartMs: number;
  /** A container restarted in place (its image changed) is not ready for this long. */
  containerRestartMs: number;
  /** Pulling an image through the node's image service. */
  imagePullMs: number;
  /** Containers stopping after a graceful delete, capped by the pod's grace period. */
  podStopMs: number;
  /** Node Lease renewal and Ready condition refresh. */
  heartbeatMs: number;
}

/** Fault switches; they can be changed while the simulator runs (`setFaults`). */
export interface SimulatorFaults {
  /** Images (exact reference or `*`-glob, e.g. `nginx:broken*`) whose pull fails: ErrImagePull / ImagePullBackOff. */
  failPullImages: string[];
  /** Images whose containers crash right after starting: CrashLoopBackOff, restartCount growing. */
  crashLoopImages: string[];
  /** Images whose containers start slowly: podStartMs × slowStartFactor. */
  slowStartImages: string[];
  slowStartFactor: number;
  /** Nodes reported NotReady (Ready=False, lease not renewed). */
  notReadyNodes: string[];
}

export interface NodeSimulatorOptions {
  kubeconfig: string;
  /** How many nodes, named `${namePrefix}1` … `${namePrefix}N`. */
  nodes: number;
  /** Default `node`. */
  namePrefix?: string;
  /** Zones spread round-robin over the nodes (label topology.kubernetes.io/zone). Default `zone-a,zone-b,zone-c`. */
  zones?: string[];
  /** Extra labels on every node. */
  labels?: Record<string, string>;
  capacity?: { cpu: string; memory: string; pods: string };
  timings?: Partial<SimulatorTimings>;
  faults?: Partial<SimulatorFaults>;
  /** Name of the default StorageClass the simulator provisions volumes for. Default `standard`; '' disables. */
  storageClass?: string;
  log?: (line: string) => void;
}

export const DEFAULT_TIMINGS: SimulatorTimings = {
  podStartMs: 500,
  containerRestartMs: 500,
  imagePullMs: 300,
  podStopMs: 200,
  heartbeatMs: 10_000,
};

export const DEFAULT_ZONES = ['zone-a', 'zone-b', 'zone-c'];
