/**
 * The OpenKruise e2e spec files `npm run compat` runs: one line per file, each with the Regatta controllers the
 * sandbox must run for it. As a controller lands, add its files (v1beta1/statefulset.go, daemonset.go,
 * sidecarset*.go, containerlaunchpriority.go, uniteddeployment.go, resourcedistribution.go, pullimages.go,
 * containerrecreate.go).
 * Paths are relative to upstream's `test/e2e/`.
 */
import { DAEMONSET_FEATURE_GATES } from '@regatta/ads';
import { ADVANCED_CRON_JOB_FEATURE_GATES } from '@regatta/advancedcronjob';
import { ASTS_FEATURE_GATES } from '@regatta/asts';
import { BROADCASTJOB_FEATURE_GATES } from '@regatta/broadcastjob';
import { CLONESET_FEATURE_GATES } from '@regatta/cloneset';
import { DELETION_PROTECTION_FEATURE_GATES } from '@regatta/deletionprotection';
import { IMAGEPULL_FEATURE_GATES } from '@regatta/imagepull';
import { PUB_FEATURE_GATES } from '@regatta/podunavailablebudget';
import { RESOURCE_DISTRIBUTION_FEATURE_GATES } from '@regatta/resourcedistribution';
import { SIDECARSET_FEATURE_GATES } from '@regatta/sidecarset';
import { UNITED_DEPLOYMENT_FEATURE_GATES } from '@regatta/uniteddeployment';
import { WORKLOADSPREAD_FEATURE_GATES } from '@regatta/workloadspread';

export interface SpecFile {
  /** The kind the file tests (a section of docs/compatibility.md). */
  kind: string;
  file: string;
  /** Regatta controllers (sandbox `--controllers` names) the specs need. */
  controllers: string[];
  /** The feature gates the controllers know, all on: what OpenKruise's e2e deployment runs with. */
  featureGates: Readonly<Record<string, boolean>>;
  /** More environment for the controllers, to match what the specs expect of a kruise-manager install. */
  env?: Readonly<Record<string, string>>;
  /** Namespaces a kruise-manager install has that the specs use (made after the sandbox is up). */
  namespaces?: readonly string[];
  /**
   * Nodes by name that OpenKruise's e2e kind cluster has and the specs use (added as simulated nodes after the
   * sandbox is up).
   */
  nodes?: readonly string[];
  /**
   * Wait, after the sandbox is up, until every Node has its NodeImage: the specs run on an installed kruise whose
   * NodeImage controller has long made them, and their BeforeEach counts them once (`ExpectNodes` in
   * `framework/v1alpha1/nodeimage_util.go`).
   */
  waitForNodeImages?: boolean;
}

/**
 * OpenKruise runs in `kruise-system`: its SidecarSet revisions live there (the e2e tester lists them in
 * `webhookutil.GetNamespace()`, `kruise-system` when POD_NAMESPACE is unset) and the specs write the
 * `kruise-configuration` ConfigMap there.
 */
const KRUISE_SYSTEM = 'kruise-system';
const SIDECARSET_INSTALL = {
  env: { REGATTA_SIDECARSET_REVISION_NAMESPACE: KRUISE_SYSTEM },
  namespaces: [KRUISE_SYSTEM],
} as const;

/**
 * Every gate on: OpenKruise's e2e installs kruise-manager with `--feature-gates=AllAlpha=true,AllBeta=true`
 * (upstream `config/manager/manager.yaml`, used by `make install-kruise` in its e2e workflows).
 */
export const allOn = (gates: Readonly<Record<string, boolean>>): Record<string, boolean> =>
  Object.fromEntries(Object.keys(gates).map((g) => [g, true]));

export const SPEC_FILES: readonly SpecFile[] = [
  {
    kind: 'CloneSet',
    file: 'apps/v1alpha1/cloneset.go',
    controllers: ['cloneset'],
    featureGates: allOn(CLONESET_FEATURE_GATES),
  },
  {
    // upstream has no other Advanced StatefulSet file under test/e2e (v1alpha1 has none)
    kind: 'Advanced StatefulSet',
    file: 'apps/v1beta1/statefulset.go',
    controllers: ['asts'],
    featureGates: allOn(ASTS_FEATURE_GATES),
  },
  {
    kind: 'Advanced DaemonSet',
    file: 'apps/v1alpha1/daemonset.go',
    controllers: ['ads'],
    featureGates: allOn(DAEMONSET_FEATURE_GATES),
  },
  {
    kind: 'Advanced DaemonSet',
    file: 'apps/v1beta1/daemonset.go',
    controllers: ['ads'],
    featureGates: allOn(DAEMONSET_FEATURE_GATES),
  },
  ...[
    'apps/v1alpha1/sidecarset.go',
    'apps/v1alpha1/sidecarset_hotupgrade.go',
    'apps/v1alpha1/sidecarset_resources_policy.go',
    'apps/v1beta1/sidecarset.go',
    'apps/v1beta1/sidecarset_hotupgrade.go',
    'apps/v1beta1/sidecarset_resources_policy.go',
  ].map((file) => ({
    kind: 'SidecarSet',
    file,
    controllers: ['sidecarset'],
    featureGates: allOn(SIDECARSET_FEATURE_GATES),
    ...SIDECARSET_INSTALL,
  })),
  {
    // the launch-priority barrier is written by the SidecarSet program's pod webhook and controller; the specs'
    // pods come from CloneSets and Deployments
    kind: 'Container launch priority',
    file: 'apps/v1alpha1/containerlaunchpriority.go',
    controllers: ['sidecarset', 'cloneset'],
    // one REGATTA_FEATURE_GATES for every program of the run: each accepts the others' gates (libs/runtime
    // `OPENKRUISE_FEATURE_GATES`), as kruise-manager's one --feature-gates serves all its controllers
    featureGates: allOn({ ...SIDECARSET_FEATURE_GATES, ...CLONESET_FEATURE_GATES }),
    ...SIDECARSET_INSTALL,
  },
  {
    // upstream has no v1beta1 file for it
    kind: 'ResourceDistribution',
    file: 'apps/v1alpha1/resourcedistribution.go',
    controllers: ['resourcedistribution'],
    featureGates: allOn(RESOURCE_DISTRIBUTION_FEATURE_GATES),
  },
  {
    // upstream has no v1beta1 file for it. The tester picks each UnitedDeployment's subset kind at random among
    // Deployment, CloneSet, StatefulSet and Advanced StatefulSet (`framework/v1alpha1/uniteddeployment.go`); the
    // native kinds are kube-controller-manager's.
    kind: 'UnitedDeployment',
    file: 'apps/v1alpha1/uniteddeployment.go',
    controllers: ['uniteddeployment', 'cloneset', 'asts'],
    featureGates: allOn({ ...UNITED_DEPLOYMENT_FEATURE_GATES, ...CLONESET_FEATURE_GATES, ...ASTS_FEATURE_GATES }),
    // the adaptive-scheduling specs label the kind cluster's worker by name (`SetNodeLabel` in
    // `framework/v1alpha1/uniteddeployment.go`) to make a subset unschedulable and schedulable again
    nodes: ['ci-testing-worker'],
  },
  ...['apps/v1alpha1/pullimages.go', 'apps/v1beta1/pullimages.go'].map((file) => ({
    // the sandbox starts one image pull agent per node with the imagepull controller
    kind: 'ImagePullJob',
    file,
    controllers: ['imagepull'],
    featureGates: allOn(IMAGEPULL_FEATURE_GATES),
    waitForNodeImages: true,
  })),
  {
    // the specs wait for real minutes ("*/1 * * * *"): the program runs on the system clock. The BroadcastJob spec
    // also waits for its BroadcastJob to complete: the BroadcastJob program runs beside it
    kind: 'AdvancedCronJob',
    file: 'apps/v1alpha1/advancedcronjob.go',
    controllers: ['advancedcronjob', 'broadcastjob'],
    featureGates: { ...allOn(ADVANCED_CRON_JOB_FEATURE_GATES), ...allOn(BROADCASTJOB_FEATURE_GATES) },
  },
  ...['apps/v1alpha1/broadcastjob.go', 'apps/v1beta1/broadcastjob.go'].map((file) => ({
    // the spec adds a fake node (a Node object with a NoSchedule taint the job tolerates) and marks its pod
    // Succeeded itself; the simulated nodes run the pods' `sleep 5`
    kind: 'BroadcastJob',
    file,
    controllers: ['broadcastjob'],
    featureGates: allOn(BROADCASTJOB_FEATURE_GATES),
  })),
  {
    // upstream has no v1beta1 file for it; its pods come from CloneSets; the sandbox's node agents run the recreate
    // duty with this controller
    kind: 'ContainerRecreateRequest',
    file: 'apps/v1alpha1/containerrecreate.go',
    controllers: ['containerrecreaterequest', 'cloneset'],
    featureGates: allOn(CLONESET_FEATURE_GATES),
  },
  {
    // Always, and Cascading on replicas, are ValidatingAdmissionPolicies the sandbox installs with the program; the
    // Namespace spec's pods come from a CloneSet
    kind: 'Deletion protection',
    file: 'policy/v1alpha1/deletionprotection.go',
    controllers: ['deletionprotection', 'cloneset'],
    featureGates: { ...allOn(DELETION_PROTECTION_FEATURE_GATES), ...allOn(CLONESET_FEATURE_GATES) },
  },
  {
    // the specs' pods come from Deployments (kube-controller-manager), CloneSets and a SidecarSet; the update gate is
    // on (AllAlpha), so in-place updates of guarded pods wait for budget
    kind: 'PodUnavailableBudget',
    file: 'policy/v1alpha1/podunavailablebudget.go',
    controllers: ['podunavailablebudget', 'cloneset', 'sidecarset'],
    featureGates: allOn({ ...PUB_FEATURE_GATES, ...CLONESET_FEATURE_GATES, ...SIDECARSET_FEATURE_GATES }),
    ...SIDECARSET_INSTALL,
  },
  {
    // in-place resource resize through pods/resize (docs/adr/0087-in-place-resource-resize.md): CloneSets, Advanced
    // StatefulSets and Advanced DaemonSets whose template changes requests/limits (InPlaceWorkloadVerticalScaling)
    kind: 'In-place resize',
    file: 'apps/v1alpha1/inplace_vpa.go',
    controllers: ['cloneset', 'asts', 'ads'],
    featureGates: allOn({ ...CLONESET_FEATURE_GATES, ...ASTS_FEATURE_GATES, ...DAEMONSET_FEATURE_GATES }),
  },
  {
    // the specs spread CloneSets, Deployments and an Advanced StatefulSet over nodes they label with fake zones
    kind: 'WorkloadSpread',
    file: 'apps/v1alpha1/workloadspread.go',
    controllers: ['workloadspread', 'cloneset', 'asts'],
    featureGates: { ...allOn(CLONESET_FEATURE_GATES), ...allOn(ASTS_FEATURE_GATES), ...allOn(WORKLOADSPREAD_FEATURE_GATES) },
  },
];

/** REGATTA_FEATURE_GATES for the sandbox's controllers: the gates of the files to run, `A=true,B=true`. */
export function featureGatesValue(files: readonly Pick<SpecFile, 'featureGates'>[]): string {
  const gates = new Map<string, boolean>();
  for (const f of files) for (const [g, on] of Object.entries(f.featureGates)) gates.set(g, on);
  return [...gates.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([g, on]) => `${g}=${on}`)
    .join(',');
}

/**
 * Specs that cannot run against simulated nodes, keyed `<file>:<spec text>`, with the reason shown in
 * docs/compatibility.md. Nothing here may hide a Regatta defect: a spec that fails because Regatta behaves
 * differently is a failure to fix, not an entry here.
 */
const STS = 'apps/v1beta1/statefulset.go';
const VPA = 'apps/v1alpha1/inplace_vpa.go';
/** Why the StatefulSet tester's pause/resume and probe-breaking helpers need a real kubelet. */
const EXEC_PAUSE =
  "needs `kubectl exec` into the pod (the StatefulSetTester's ResumeNextPod writes /data/statefulset-continue with `dd`) and an exec readiness probe (`test -f /data/statefulset-continue`) that reads the container's file system: simulated nodes serve no exec stream and have no container file system";
const EXEC_HTTP_PROBE =
  "needs `kubectl exec` into the pod (the StatefulSetTester's BreakHTTPProbe moves nginx's index.html away with `mv`) and an httpGet readiness probe answered by a real nginx: simulated nodes serve no exec stream and run no container process";

export const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  [`${STS}:should provide basic identity`]: `${EXEC_PAUSE}; it also checks the mount, hostname and data written through exec`,
  [`${STS}:should adopt matching orphans and release non-matching pods`]: EXEC_PAUSE,
  [`${STS}:should not deadlock when a pod's predecessor fails`]: EXEC_PAUSE,
  [`${STS}:should perform rolling updates and roll backs of template modifications with PVCs`]:
    EXEC_HTTP_PROBE,
  [`${STS}:should perform rolling updates and roll backs of template modifications`]: EXEC_HTTP_PROBE,
  [`${STS}:Scaling should happen in predictable order and halt if any stateful pod is unhealthy`]:
    EXEC_HTTP_PROBE,
  [`${STS}:Burst scaling should run to completion even with unhealthy pods`]: EXEC_HTTP_PROBE,
  // the same StatefulSetTester rolling update, with resources changed too (run with --real-nodes)
  [`${VPA}:should perform rolling updates(including resources) and roll backs with pvcs`]: EXEC_HTTP_PROBE,
  [`${VPA}:should perform rolling updates(including resources) and roll backs`]: EXEC_HTTP_PROBE,
};

/**
 * Why a spec is known to fail today (an issue or the analysis of its failure), keyed like NOT_APPLICABLE; shown
 * next to the failure in docs/compatibility.md. Remove the line when the spec passes.
 */
const SIDECARSET_FILES = ['apps/v1alpha1/sidecarset.go', 'apps/v1beta1/sidecarset.go'] as const;
/** Why a sidecar upgrade to OpenKruise's InvalidImage goes on past the state the spec waits for. */
const INVALID_IMAGE_RUNS =
  "the sandbox's node simulator pulls and runs OpenKruise's `InvalidImage` (`invalid.registry.k8s.io/invalid/alpine:3.1`, a Kubernetes e2e image meant never to pull): the upgraded pods become ready, so the rollout goes on past the state the spec waits for (updated but not ready) and the spec times out (seen in the pod descriptions of the failure log). Fix to make: the sandbox's simulator failing pulls of `invalid.registry.k8s.io/*` (its `failPullImages` fault)";
const perFile = (files: readonly string[], texts: readonly string[], why: string): [string, string][] =>
  files.flatMap((f) => texts.map((t): [string, string] => [`${f}:${t}`, why]));
const SIDECARSET_KNOWN: [string, string][] = [
  ...perFile(
    SIDECARSET_FILES,
    [
      'sidecarSet upgrade cold sidecar container failed image, and only update one pod',
      'sidecarSet upgrade cold sidecar container image, and maxUnavailable',
    ],
    INVALID_IMAGE_RUNS,
  ),
  ...perFile(
    ['apps/v1alpha1/sidecarset_hotupgrade.go', 'apps/v1beta1/sidecarset_hotupgrade.go'],
    ['sidecarSet upgrade hot sidecar container failed image'],
    INVALID_IMAGE_RUNS,
  ),
];

export const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SIDECARSET_KNOWN),
  'apps/v1alpha1/workloadspread.go:job-like custom workload':
    "the spec spreads an Advanced DaemonSet and a TFJob through upstream's custom-workload whitelist (the WorkloadSpread_Watch_Custom_Workload_WhiteList ConfigMap); Regatta's WorkloadSpread admits only CloneSet, Deployment, ReplicaSet, Job and Advanced StatefulSet targets (docs/workloadspread.md), so the spec's WorkloadSpread is refused",
};
