/**
 * The registry of the kinds Regatta's controllers read (docs/adr/0071-one-typed-kind-registry.md): each entry is the
 * kind table's (`KIND_TABLE` of `@regatta/kube`: group, version, plural, scope, written once) with the TypeScript
 * type of its objects. The kit types a reader declared for `KINDS.pods` as a reader of `Pod`; the bus registers and
 * the watcher mirrors these same values. A new kind: one line in `KIND_TABLE`, one here.
 */
import { KIND_TABLE, apiVersionOf, atVersion, kind, type Kind, type KubeObject } from '@regatta/kube';
import type { BroadcastJob } from './broadcastjob/types.js';
import type { AdvancedCronJob } from './advancedcronjob/types.js';
import type { Job } from './advancedcronjob/job-types.js';
import type { CloneSet } from './cloneset/types.js';
import type { ContainerRecreateRequest } from './containerrecreaterequest/types.js';
import type { Pod } from './core/pod-types.js';
import type { DaemonSet } from './daemonset/types.js';
import type { ImagePullJob } from './imagepulljob/types.js';
import type { NodeImage } from './nodeimage/types.js';
import type { PodUnavailableBudget } from './podunavailablebudget/types.js';
import type { ResourceDistribution } from './resourcedistribution/types.js';
import type { SidecarSet } from './sidecarset/types.js';
import type { StatefulSet } from './statefulset/types.js';
import type { UnitedDeployment } from './uniteddeployment/types.js';
import type { WorkloadSpread } from './workloadspread/types.js';

const T = KIND_TABLE;

/** The kinds Regatta's controllers read, by short name, typed. Native kinds without a type here are `KubeObject`. */
export const KINDS = {
  pods: kind<Pod>()(T.pods),
  nodes: kind<KubeObject>()(T.nodes),
  namespaces: kind<KubeObject>()(T.namespaces),
  persistentvolumeclaims: kind<KubeObject>()(T.persistentvolumeclaims),
  configmaps: kind<KubeObject>()(T.configmaps),
  secrets: kind<KubeObject>()(T.secrets),
  controllerrevisions: kind<KubeObject>()(T.controllerrevisions),
  clonesets: kind<CloneSet>()(T.clonesets),
  statefulsets: kind<StatefulSet>()(T.statefulsets),
  daemonsets: kind<DaemonSet>()(T.daemonsets),
  sidecarsets: kind<SidecarSet>()(T.sidecarsets),
  resourcedistributions: kind<ResourceDistribution>()(T.resourcedistributions),
  uniteddeployments: kind<UnitedDeployment>()(T.uniteddeployments),
  // the native kinds a UnitedDeployment's subsets may be
  appsstatefulsets: kind<KubeObject>()(T.appsstatefulsets),
  deployments: kind<KubeObject>()(T.deployments),
  imagepulljobs: kind<ImagePullJob>()(T.imagepulljobs),
  nodeimages: kind<NodeImage>()(T.nodeimages),
  broadcastjobs: kind<BroadcastJob>()(T.broadcastjobs),
  advancedcronjobs: kind<AdvancedCronJob>()(T.advancedcronjobs),
  jobs: kind<Job>()(T.jobs),
  containerrecreaterequests: kind<ContainerRecreateRequest>()(T.containerrecreaterequests),
  replicasets: kind<KubeObject>()(T.replicasets),
  podunavailablebudgets: kind<PodUnavailableBudget>()(T.podunavailablebudgets),
  workloadspreads: kind<WorkloadSpread>()(T.workloadspreads),
} as const satisfies Record<string, Kind<KubeObject>>;

/**
 * Kinds the watcher may mirror besides {@link KINDS}: UnitedDeployment at v1alpha1 (a registration may name it;
 * libs/mirror catalogue.ts).
 */
export const OTHER_MIRRORED_KINDS: readonly Kind[] = [atVersion(KINDS.uniteddeployments, 'v1alpha1')];

/** A pod's `apiVersion` and `kind`, from the registry: the client's refs to pods (`{ ...POD_GVK, namespace, name }`). */
export const POD_GVK = { apiVersion: apiVersionOf(KINDS.pods), kind: KINDS.pods.kind } as const;
