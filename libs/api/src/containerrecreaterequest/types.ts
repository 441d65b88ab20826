/**
 * ContainerRecreateRequest (namespaced), `apps.kruise.io/v1alpha1` — field names, JSON types and optionality as
 * OpenKruise (`apis/apps/v1alpha1/containerrecreaterequest_types.go`). The schemas are the source of both the static
 * types and the CRD. `preStop`, `ports` and `statusContext` of a container are written by admission from the pod.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import type { ContainerPort } from '../core/pod-types.js';
import { APPS_V1ALPHA1 } from '../group.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';

export const CRR_KIND = 'ContainerRecreateRequest';
export const CRR_PLURAL = 'containerrecreaterequests';
export const CRR_API_VERSION = APPS_V1ALPHA1;

/** Labels and annotations with a meaning to the manager and the daemon (upstream's `ContainerRecreateRequest*Key`). */
export const CrrKeys = {
  PodUID: 'crr.apps.kruise.io/pod-uid',
  NodeName: 'crr.apps.kruise.io/node-name',
  Active: 'crr.apps.kruise.io/active',
  SyncContainerStatuses: 'crr.apps.kruise.io/sync-container-statuses',
  UnreadyAcquired: 'crr.apps.kruise.io/unready-acquired',
} as const;

export const CRR_PHASES = ['Pending', 'Recreating', 'Succeeded', 'Failed', 'Completed'] as const;
export type CrrPhase = (typeof CRR_PHASES)[number];
export const CRR_FAILURE_POLICIES = ['Fail', 'Ignore'] as const;
export type CrrFailurePolicy = (typeof CRR_FAILURE_POLICIES)[number];

/** Upstream's `minDeadlineSeconds` of the webhook: `activeDeadlineSeconds` may not be less. */
export const CRR_MIN_DEADLINE_SECONDS = 3;

const preserved = <T>(description: string): TUnsafe<T> =>
  Type.Unsafe<T>(Type.Object({}, { description, 'x-kubernetes-preserve-unknown-fields': true }));

/** `ProbeHandler`: exec, httpGet or tcpSocket, as core/v1 (kept whole). */
export interface CrrProbeHandler {
  exec?: { command?: string[] };
  httpGet?: {
    path?: string;
    port: number | string;
    host?: string;
    scheme?: string;
    httpHeaders?: { name: string; value: string }[];
  };
  tcpSocket?: { port: number | string; host?: string };
}

export const CrrContainerContextSchema = Type.Object({
  containerID: Type.String({ description: 'Container ID of the instance to recreate.' }),
  restartCount: Int32({ description: 'Restart count of that instance.' }),
});

export const CrrContainerSchema = Type.Object({
  name: Type.String({ description: 'Name of a container in the pod.' }),
  preStop: Type.Optional(
    preserved<CrrProbeHandler>('The pod container’s preStop hook, copied by admission (read-only).'),
  ),
  ports: Type.Optional(
    Type.Unsafe<ContainerPort[]>(
      Type.Array(Type.Object({}, { 'x-kubernetes-preserve-unknown-fields': true }), {
        description: 'The pod container’s ports, copied by admission for an httpGet preStop (read-only).',
      }),
    ),
  ),
  statusContext: Type.Optional(CrrContainerContextSchema),
});

export const CrrStrategySchema = Type.Object({
  failurePolicy: Type.Optional(
    OpenStringEnum(CRR_FAILURE_POLICIES, { description: 'Fail (default) or Ignore.' }),
  ),
  orderedRecreate: Type.Optional(
    Type.Boolean({ description: 'Recreate the next container only after the previous succeeded.' }),
  ),
  forceRecreate: Type.Optional(
    Type.Boolean({ description: 'Recreate even if the container was already recreated.' }),
  ),
  terminationGracePeriodSeconds: Type.Optional(
    Int64({ description: 'Grace period of each stop; the pod’s by default.' }),
  ),
  unreadyGracePeriodSeconds: Type.Optional(
    Int64({ description: 'Mark the pod not ready first, and wait this long.' }),
  ),
  minStartedSeconds: Type.Optional(
    Int32({ description: 'A new container counts as recreated once it ran this long.' }),
  ),
});

export const CrrSpecSchema = Type.Object({
  podName: Type.String({ description: 'Name of the pod whose containers are recreated.' }),
  containers: Type.Array(CrrContainerSchema, {
    description: 'Containers to recreate, at least one.',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
  }),
  strategy: Type.Optional(CrrStrategySchema),
  activeDeadlineSeconds: Type.Optional(
    Int64({ description: 'Complete the request after this many seconds.' }),
  ),
  ttlSecondsAfterFinished: Type.Optional(
    Int32({ description: 'Delete the request this long after it completed.' }),
  ),
});

export const CrrContainerRecreateStateSchema = Type.Object({
  name: Type.String(),
  phase: OpenStringEnum(CRR_PHASES),
  message: Type.Optional(Type.String()),
  isKilled: Type.Optional(Type.Boolean()),
});

export const CrrStatusSchema = Type.Object({
  phase: Type.Optional(OpenStringEnum(CRR_PHASES, { description: 'Pending, Recreating or Completed.' })),
  completionTime: Type.Optional(Time()),
  message: Type.Optional(Type.String()),
  containerRecreateStates: Type.Optional(Type.Array(CrrContainerRecreateStateSchema)),
});

export const ContainerRecreateRequestSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMetaSchema()),
    spec: Type.Optional(CrrSpecSchema),
    status: Type.Optional(CrrStatusSchema),
  },
  { description: 'ContainerRecreateRequest recreates containers of one running pod.' },
);

export type CrrContainer = Static<typeof CrrContainerSchema>;
export type CrrStrategy = Static<typeof CrrStrategySchema>;
export type CrrSpec = Static<typeof CrrSpecSchema>;
export type CrrContainerRecreateState = Static<typeof CrrContainerRecreateStateSchema>;
export type CrrStatus = Static<typeof CrrStatusSchema>;
export type ContainerRecreateRequest = Static<typeof ContainerRecreateRequestSchema>;

/** One entry of the `crr.apps.kruise.io/sync-container-statuses` annotation the manager writes. */
export interface CrrSyncContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  containerID?: string;
}
