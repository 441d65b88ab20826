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
  /** How long a (non-restartable) init container runs before it completes with exit code 0. */
  initContainerMs: number;
  /** How long a container of a crash-looping image runs before it exits with code 1. */
  crashRunMs: number;
  /** First CrashLoopBackOff delay; it doubles per restart up to 8× (kubelet: 10 s up to 5 min). */
  crashBackoffMs: number;
  /** First ImagePullBackOff delay; it doubles per failed attempt up to 8×. */
  imagePullBackoffMs: number;
  /**
   * kubelet's PLEG relist period: a pod's next sync waits for a relist that began after its previous sync ended, so
   * a container image change that comes right after a status report is acted on one period after that report.
   */
  plegRelistMs: number;
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

/**
 * The part of OpenKruise's kruise-daemon the simulator plays on its nodes, switched like upstream's feature gates.
 * It acts only on pods controlled by an `apps.kruise.io` workload or injected by a SidecarSet (annotation
 * `kruise.io/sidecarset-hash`), as upstream.
 */
export interface KruiseDaemonGates {
  /**
   * Gate `DaemonWatchingPod`: report annotation `apps.kruise.io/runtime-containers-meta` (container ID, restart
   * count, hashes of each created container). `plainHash` is always 0: the simulator has no kubelet container hash.
   */
  daemonWatchingPod: boolean;
  /**
   * Gate `InPlaceUpdateEnvFromMetadata` (needs `daemonWatchingPod`): report `extractedEnvFromMetadataHash` (the
   * label/annotation env the running container was started with) and, while the pod's `InPlaceUpdateReady`
   * condition is False, kill a running container whose hash differs from the pod's current labels/annotations, so
   * that it restarts in place with the new values (as an image change does: restartCount+1, new containerID, not
   * ready for `containerRestartMs`).
   */
  inPlaceUpdateEnvFromMetadata: boolean;
}

export const DEFAULT_KRUISE_DAEMON: KruiseDaemonGates = {
  daemonWatchingPod: true,
  inPlaceUpdateEnvFromMetadata: true,
};

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
  /** Mark that StorageClass as the cluster default (`storageclass.kubernetes.io/is-default-class`). Default true. */
  defaultStorageClass?: boolean;
  log?: (line: string) => void;
  /** Taints put on every node (e.g. to keep other workloads off a test's private nodes). */
  taints?: { key: string; value?: string; effect: string }[];
  /** Delete the nodes and their leases on `stop()` (tests that share a cluster). Default false: a restarted
   * simulator picks up its nodes and their pods. */
  removeNodesOnStop?: boolean;
  /** Record kubelet-style Events (Pulling, Pulled, Created, Started, Killing, BackOff, Failed). Default true. */
  events?: boolean;
  /**
   * Also run Nodes that no simulator claims (no `sim.regatta.dev/name-prefix` annotation), e.g. one made with
   * `kubectl create`; default false. Nodes annotated with this simulator's prefix, or named `<namePrefix>…` and
   * unclaimed, are run either way (see node-adoption.ts).
   */
  adoptNodes?: boolean;
  /**
   * Serve each node's container runtime as a CRI ImageService (gRPC, `runtime.v1`) on the unix socket
   * `<criSocketDir>/<node>.sock` (cri-server.ts); unset: no sockets.
   */
  criSocketDir?: string;
  /** kruise-daemon gates (see `KruiseDaemonGates`); omitted ones default to true, like upstream's. */
  kruiseDaemon?: Partial<KruiseDaemonGates>;
}

export const DEFAULT_TIMINGS: SimulatorTimings = {
  podStartMs: 500,
  containerRestartMs: 500,
  imagePullMs: 300,
  podStopMs: 200,
  heartbeatMs: 10_000,
  initContainerMs: 100,
  crashRunMs: 300,
  crashBackoffMs: 1_000,
  imagePullBackoffMs: 1_000,
  plegRelistMs: 1_000,
};

export const DEFAULT_ZONES = ['zone-a', 'zone-b', 'zone-c'];
