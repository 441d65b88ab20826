{{/*
What each controller needs, in one place: the CRDs it serves (files/crds, generated from libs/api by `npm run crds`),
what the watcher lists and watches for it (libs/mirror/src/catalogue.ts CONTROLLER_READS; a controller reads through
the bus and gets no list/watch of its own), and what it writes (the writes of its libraries: pods, claims, revisions,
status; `leaseNamespaceWrites` only in the Lease namespace). Gets are for the fresh reads before a write (libs/workload claim-control, libs/revision, libs/inplace-update).
The kit's own needs (events, webhook configurations, the Lease and the webhook certificate Secret) are in
_rbac.tpl.
*/}}
{{- define "regatta.catalogue" -}}
cloneset:
  # image pre-download creates ImagePullJobs (and the watcher mirrors them): their CRD must exist
  crds: [clonesets, imagepulljobs]
  reads:
    - { group: apps.kruise.io, resource: clonesets }
    - { group: "", resource: pods }
    - { group: "", resource: persistentvolumeclaims }
    - { group: apps, resource: controllerrevisions }
    - { group: "", resource: namespaces }
    - { group: apps.kruise.io, resource: imagepulljobs }
  writes:
    # pods are never PUT: in-place updates and identity fixes are JSON patches on the version read (docs/adr/0060)
    - { apiGroups: [""], resources: [pods], verbs: [get, create, patch, delete] }
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # in-place resource resize (gate InPlaceWorkloadVerticalScaling, docs/adr/0087-in-place-resource-resize.md)
    - { apiGroups: [""], resources: [pods/resize], verbs: [patch] }
    # claims: created with their pod; handed to a terminating pod and deleted by the clean-up (sync/pvc-cleanup.ts)
    - { apiGroups: [""], resources: [persistentvolumeclaims], verbs: [create, update, delete] }
    - { apiGroups: [apps], resources: [controllerrevisions], verbs: [get, create, update, patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [clonesets], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [clonesets/status], verbs: [patch] }
    # owner references with blockOwnerDeletion (pods and revisions owned by the CloneSet, claims owned by their pod)
    # need update on the owner's finalizers where OwnerReferencesPermissionEnforcement is on (libs/kube owner.ts)
    - { apiGroups: [apps.kruise.io], resources: [clonesets/finalizers], verbs: [update] }
    - { apiGroups: [""], resources: [pods/finalizers], verbs: [update] }
    # image pre-download (gate PreDownloadImageFor…): the rollout's ImagePullJobs, deleted once it is over
    - { apiGroups: [apps.kruise.io], resources: [imagepulljobs], verbs: [create, delete] }
asts:
  # image pre-download creates ImagePullJobs (and the watcher mirrors them): their CRD must exist
  crds: [statefulsets, imagepulljobs]
  reads:
    - { group: apps.kruise.io, resource: statefulsets }
    - { group: "", resource: pods }
    - { group: "", resource: persistentvolumeclaims }
    - { group: apps, resource: controllerrevisions }
    - { group: "", resource: namespaces }
    - { group: apps.kruise.io, resource: imagepulljobs }
  writes:
    # pods are never PUT: in-place updates and identity fixes are JSON patches on the version read (docs/adr/0060)
    - { apiGroups: [""], resources: [pods], verbs: [get, create, patch, delete] }
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # in-place resource resize (gate InPlaceWorkloadVerticalScaling, docs/adr/0087-in-place-resource-resize.md)
    - { apiGroups: [""], resources: [pods/resize], verbs: [patch] }
    # claims: created with their pod; owner references (retention policy) and sizes (resize) patched
    # (sync/pod-control.ts, sync/claim-resize.ts); deleting them is left to the garbage collector, but setting an owner
    # reference needs delete where OwnerReferencesPermissionEnforcement is on
    - { apiGroups: [""], resources: [persistentvolumeclaims], verbs: [create, patch, delete] }
    - { apiGroups: [apps], resources: [controllerrevisions], verbs: [get, create, update, patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [statefulsets], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [statefulsets/status], verbs: [patch] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/kube owner.ts)
    - { apiGroups: [apps.kruise.io], resources: [statefulsets/finalizers], verbs: [update] }
    # claim resize (StatefulSetAutoResizePVCGate): the webhook lists the classes, the controller gets a claim's class
    # to check allowVolumeExpansion (libs/asts webhooks.ts, sync/claim-resize.ts)
    - { apiGroups: [storage.k8s.io], resources: [storageclasses], verbs: [get, list] }
    # image pre-download (gate PreDownloadImageFor…): the rollout's ImagePullJobs, deleted once it is over
    - { apiGroups: [apps.kruise.io], resources: [imagepulljobs], verbs: [create, delete] }
ads:
  # image pre-download creates ImagePullJobs (and the watcher mirrors them): their CRD must exist
  crds: [daemonsets, imagepulljobs]
  reads:
    - { group: apps.kruise.io, resource: daemonsets }
    - { group: "", resource: pods }
    - { group: "", resource: nodes }
    - { group: apps, resource: controllerrevisions }
    - { group: "", resource: namespaces }
    - { group: apps.kruise.io, resource: imagepulljobs }
  writes:
    # pods are never PUT: in-place updates and identity fixes are JSON patches on the version read (docs/adr/0060)
    - { apiGroups: [""], resources: [pods], verbs: [get, create, patch, delete] }
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # in-place resource resize (gate InPlaceWorkloadVerticalScaling, docs/adr/0087-in-place-resource-resize.md)
    - { apiGroups: [""], resources: [pods/resize], verbs: [patch] }
    - { apiGroups: [apps], resources: [controllerrevisions], verbs: [get, create, update, patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [daemonsets], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [daemonsets/status], verbs: [patch] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/kube owner.ts)
    - { apiGroups: [apps.kruise.io], resources: [daemonsets/finalizers], verbs: [update] }
    # image pre-download (gate PreDownloadImageFor…): the rollout's ImagePullJobs, deleted once it is over
    - { apiGroups: [apps.kruise.io], resources: [imagepulljobs], verbs: [create, delete] }
sidecarset:
  crds: [sidecarsets]
  reads:
    - { group: apps.kruise.io, resource: sidecarsets }
    - { group: "", resource: pods }
    - { group: apps, resource: controllerrevisions }
    - { group: "", resource: namespaces }
  writes:
    # pods are patched on the version read, never PUT: its pod cache holds a projection (docs/adr/0060-pod-projection.md)
    - { apiGroups: [""], resources: [pods], verbs: [get, patch] }
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # sidecars resized in place (libs/sidecarset upgrade/resize.ts, docs/adr/0087-in-place-resource-resize.md)
    - { apiGroups: [""], resources: [pods/resize], verbs: [patch] }
    # the launch-priority barrier ConfigMaps (libs/sidecarset launch-priority)
    - { apiGroups: [""], resources: [configmaps], verbs: [get, create, patch] }
    - { apiGroups: [apps.kruise.io], resources: [sidecarsets], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [sidecarsets/status], verbs: [patch] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/sidecarset upgrade/revisions.ts)
    - { apiGroups: [apps.kruise.io], resources: [sidecarsets/finalizers], verbs: [update] }
    # the SidecarSets' injection compiled into MutatingAdmissionPolicies (libs/sidecarset admission-policy; ADR 0089)
    - apiGroups: [admissionregistration.k8s.io]
      resources: [mutatingadmissionpolicies, mutatingadmissionpolicybindings]
      verbs: [get, list, create, patch, delete]
  # SidecarSets are cluster-scoped: their revisions live in one namespace (REGATTA_SIDECARSET_REVISION_NAMESPACE,
  # set to the Lease namespace; docs/adr/0027), so it writes revisions there only
  leaseNamespaceWrites:
    # list: the webhook reads a SidecarSet's revisions when one it names is not cached yet
    # (libs/sidecarset webhooks/effective-at-admission.ts)
    - { apiGroups: [apps], resources: [controllerrevisions], verbs: [get, list, create, update, patch, delete] }
uniteddeployment:
  # its subsets are CloneSets and Advanced StatefulSets too: their CRDs must exist for it to work
  crds: [uniteddeployments, clonesets, statefulsets]
  reads:
    - { group: apps.kruise.io, resource: uniteddeployments }
    - { group: apps.kruise.io, resource: clonesets }
    - { group: apps.kruise.io, resource: statefulsets }
    - { group: apps, resource: statefulsets }
    - { group: apps, resource: deployments }
    # the subsets' pods: status (updated pods) and adaptive scheduling (pending pods)
    - { group: "", resource: pods }
    - { group: apps, resource: controllerrevisions }
    - { group: "", resource: namespaces }
  writes:
    # list: a subset create without an answer is read back by the subset's label (its name is generated, ADR 0061)
    - { apiGroups: [apps.kruise.io], resources: [clonesets, statefulsets], verbs: [get, list, create, update, patch, delete] }
    - { apiGroups: [apps], resources: [statefulsets, deployments], verbs: [get, list, create, update, patch, delete] }
    - { apiGroups: [apps], resources: [controllerrevisions], verbs: [get, create, update, patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [uniteddeployments], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [uniteddeployments/status], verbs: [patch] }
    # reservation mode (reserveUnschedulablePods): the reserved label on the subsets' pods; delete: pods stuck in an
    # apps/v1 StatefulSet subset's rolling update (libs/uniteddeployment sync/manage.ts deleteStuckPods)
    - { apiGroups: [""], resources: [pods], verbs: [patch, delete] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/uniteddeployment subset/build.ts)
    - { apiGroups: [apps.kruise.io], resources: [uniteddeployments/finalizers], verbs: [update] }
resourcedistribution:
  crds: [resourcedistributions]
  reads:
    - { group: apps.kruise.io, resource: resourcedistributions }
    - { group: "", resource: secrets }
    - { group: "", resource: configmaps }
    - { group: "", resource: namespaces }
  writes:
    # it distributes Secrets and ConfigMaps into namespaces: the one controller that writes (and so reads) Secrets
    - { apiGroups: [""], resources: [secrets, configmaps], verbs: [get, create, update, delete] }
    - { apiGroups: [apps.kruise.io], resources: [resourcedistributions], verbs: [get, patch] }
    - { apiGroups: [apps.kruise.io], resources: [resourcedistributions/status], verbs: [patch] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/resourcedistribution copies.ts)
    - { apiGroups: [apps.kruise.io], resources: [resourcedistributions/finalizers], verbs: [update] }
imagepull:
  crds: [imagepulljobs, nodeimages]
  reads:
    - { group: apps.kruise.io, resource: imagepulljobs }
    - { group: apps.kruise.io, resource: nodeimages }
    - { group: "", resource: nodes }
    - { group: "", resource: pods }
    - { group: "", resource: namespaces }
    # the node agents (registered under imagepull) have their node's ContainerRecreateRequests mirrored
    - { group: apps.kruise.io, resource: containerrecreaterequests }
  writes:
    - { apiGroups: [apps.kruise.io], resources: [nodeimages], verbs: [get, create, update, patch, delete] }
    # the status guard: a tag no agent answered in time is marked failed (libs/imagepull nodeimage-reconciler)
    - { apiGroups: [apps.kruise.io], resources: [nodeimages/status], verbs: [update] }
    # the fresh read of a Node the cache no longer has, before its NodeImage is deleted (nodeimage-reconciler)
    - { apiGroups: [""], resources: [nodes], verbs: [get] }
    # a job's pull secrets, read from the job's namespace and copied into the daemon config namespace (libs/imagepull
    # secret-sync, as upstream's imagepulljob controller); the copies are written there only (controllers.yaml),
    # and that namespace, which the chart installs, is only read
    - { apiGroups: [""], resources: [secrets], verbs: [get] }
    - { apiGroups: [""], resources: [namespaces], resourceNames: [{{ include "regatta.daemonConfigNamespace" . }}], verbs: [get] }
    # delete: a finished job after its ttlSecondsAfterFinished (libs/imagepull job-reconciler)
    - { apiGroups: [apps.kruise.io], resources: [imagepulljobs], verbs: [get, patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [imagepulljobs/status], verbs: [update] }
advancedcronjob:
  # a broadcastJobTemplate creates BroadcastJobs (and the watcher mirrors them): their CRD must exist
  crds: [advancedcronjobs, broadcastjobs]
  reads:
    - { group: apps.kruise.io, resource: advancedcronjobs }
    - { group: batch, resource: jobs }
    - { group: apps.kruise.io, resource: broadcastjobs }
    - { group: "", resource: namespaces }
  writes:
    # the job of each scheduled time; deleted past the history limits and, under Replace, while still active
    # (libs/advancedcronjob reconciler.ts); kube-controller-manager runs the Jobs, a BroadcastJob controller its own
    - { apiGroups: [batch], resources: [jobs], verbs: [create, delete] }
    - { apiGroups: [apps.kruise.io], resources: [broadcastjobs], verbs: [create, delete] }
    - { apiGroups: [apps.kruise.io], resources: [advancedcronjobs/status], verbs: [patch] }
    # blockOwnerDeletion under OwnerReferencesPermissionEnforcement (libs/advancedcronjob child-object.ts)
    - { apiGroups: [apps.kruise.io], resources: [advancedcronjobs/finalizers], verbs: [update] }
broadcastjob:
  crds: [broadcastjobs]
  reads:
    - { group: apps.kruise.io, resource: broadcastjobs }
    - { group: "", resource: pods }
    - { group: "", resource: nodes }
    - { group: "", resource: namespaces }
  writes:
    # one pod per eligible node; delete: pods of a failed job and pods on nodes they no longer fit; get: a delete
    # without an answer is read back (libs/broadcastjob reconciler.ts)
    - { apiGroups: [""], resources: [pods], verbs: [get, create, delete] }
    # the first KruisePodReady=True of its pods (docs/adr/0082-kruise-pod-ready-gate.md)
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # delete: a finished job after its ttlSecondsAfterFinished
    - { apiGroups: [apps.kruise.io], resources: [broadcastjobs], verbs: [delete] }
    - { apiGroups: [apps.kruise.io], resources: [broadcastjobs/status], verbs: [update] }
    # blockOwnerDeletion on the pods' controller reference under OwnerReferencesPermissionEnforcement
    - { apiGroups: [apps.kruise.io], resources: [broadcastjobs/finalizers], verbs: [update] }
containerrecreaterequest:
  crds: [containerrecreaterequests]
  reads:
    - { group: apps.kruise.io, resource: containerrecreaterequests }
    - { group: "", resource: pods }
    - { group: "", resource: namespaces }
  writes:
    # admission reads the pod a request names (libs/containerrecreaterequest webhooks.ts)
    - { apiGroups: [""], resources: [pods], verbs: [get] }
    # the KruisePodReady condition of unreadyGracePeriodSeconds (reconciler.ts)
    - { apiGroups: [""], resources: [pods/status], verbs: [patch] }
    # labels, annotations and finalizer; completion; delete after ttlSecondsAfterFinished
    - { apiGroups: [apps.kruise.io], resources: [containerrecreaterequests], verbs: [patch, delete] }
    - { apiGroups: [apps.kruise.io], resources: [containerrecreaterequests/status], verbs: [patch] }
deletionprotection:
  # Always is a ValidatingAdmissionPolicy (templates/deletion-protection-policy.yaml); Cascading's webhook counts
  # pods and claims from the bus (libs/deletionprotection lookups.ts)
  crds: []
  reads:
    - { group: "", resource: namespaces }
    - { group: "", resource: pods }
    - { group: "", resource: persistentvolumeclaims }
  {{- $dp := include "regatta.settings" (dict "root" . "name" "deletionprotection") | fromYaml }}
  {{- if and ($dp.featureGates).ResourcesDeletionProtection ($dp.featureGates).DeletionProtectionForCRDCascadingGate }}
  writes:
    # Cascading on a CRD counts its objects, of any group: no bus mirrors them (DeletionProtectionForCRDCascadingGate)
    - { apiGroups: ["*"], resources: ["*"], verbs: [list] }
  {{- else }}
  writes: []
  {{- end }}
podunavailablebudget:
  crds: [policy.kruise.io_podunavailablebudgets]
  reads:
    - { group: policy.kruise.io, resource: podunavailablebudgets }
    - { group: "", resource: pods }
    # the workloads whose replicas a budget counts (libs/podunavailablebudget selection.ts)
    - { group: apps, resource: deployments }
    - { group: apps, resource: replicasets }
    - { group: apps, resource: statefulsets }
    - { group: apps.kruise.io, resource: clonesets }
    - { group: apps.kruise.io, resource: statefulsets }
    - { group: "", resource: namespaces }
  writes:
    # the guarded-pod marks (label and related-pub annotation); get: the pod an eviction names when not cached
    - { apiGroups: [""], resources: [pods], verbs: [get, patch] }
    # the budget spent by the pod webhook and the controller's status; get: the re-read after a conflict
    - { apiGroups: [policy.kruise.io], resources: [podunavailablebudgets], verbs: [get] }
    - { apiGroups: [policy.kruise.io], resources: [podunavailablebudgets/status], verbs: [update] }
workloadspread:
  crds: [workloadspreads]
  reads:
    - { group: apps.kruise.io, resource: workloadspreads }
    - { group: "", resource: pods }
    - { group: "", resource: nodes }
    - { group: "", resource: namespaces }
    - { group: apps.kruise.io, resource: clonesets }
    - { group: apps.kruise.io, resource: statefulsets }
    - { group: apps, resource: deployments }
    - { group: apps, resource: replicasets }
    - { group: apps, resource: statefulsets }
    - { group: batch, resource: jobs }
  writes:
    # patch: the matched subset of pods created before their spread, deletion costs; delete: Adaptive rescheduling
    # (libs/workloadspread reconciler.ts)
    - { apiGroups: [""], resources: [pods], verbs: [patch, delete] }
    # get: the pod webhook reads a spread again after a conflicting status write (pod-webhook.ts)
    - { apiGroups: [apps.kruise.io], resources: [workloadspreads], verbs: [get] }
    - { apiGroups: [apps.kruise.io], resources: [workloadspreads/status], verbs: [update] }
{{- end -}}

{{/* The controllers in the order the chart renders them (runtime's CONTROLLER_NAMES). */}}
{{- define "regatta.controllerNames" -}}
[cloneset, asts, ads, sidecarset, uniteddeployment, resourcedistribution, imagepull, advancedcronjob, broadcastjob, containerrecreaterequest, deletionprotection, podunavailablebudget, workloadspread]
{{- end -}}
