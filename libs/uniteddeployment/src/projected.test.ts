// The UnitedDeployment's pod reading over pods as its program's cache holds them (docs/adr/0060-pod-projection.md):
// the cache keeps only UD_POD_FIELDS, so every function that reads the subsets' pods must give over projected pods
// what it gives over whole ones — subset views (updated and ready counts, the OnDelete partition), the adaptive and
// reservation states (timeouts, reserved pods, the labels to write, requeues), the status and the plan built on them,
// and the pod handlers.
import type { Pod } from '@regatta/api';
import { UD_POD_FIELDS, projection } from '@regatta/bus';
import { type KubeObject, isProjected, toRfc3339 } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { defaultAdaptiveSubsetState } from './allocation/adaptive-status.js';
import { reservedSubsetState } from './allocation/reserved-status.js';
import { isSubsetPod, unitedDeploymentsForPod } from './handlers.js';
import { RESERVED_POD_LABEL, SUBSET_NAME_LABEL, UD_REVISION_LABEL } from './keys.js';
import { planSubsets } from './planning/plan.js';
import { computeStatus, initSubsetStatuses } from './planning/status.js';
import { SUBSET_KINDS } from './subset/kinds.js';
import { isActivePod, isPendingUnschedulable, isPodReady } from './subset/pods.js';
import { type SubsetView, readSubset } from './subset/read.js';
import type { SubsetWorkload } from './subset/workload.js';
import type { UDCondition, UnitedDeployment } from './types.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => toRfc3339(NOW - s * 1000);
const REV = 'ud-v2';
const timing = { rescheduleCriticalMs: 10_000, unschedulableMs: 5_000 };

interface PodOpts {
  name: string;
  revision?: string;
  created?: number;
  /** Unbound and marked Unschedulable by the scheduler. */
  pending?: boolean;
  /** Pending, its Unschedulable mark not yet cleared, but bound to a node already: never timed out. */
  bound?: boolean;
  /** Ready for that many seconds (absent: running, not ready). */
  readyFor?: number;
  reserved?: 'true' | 'false';
  deleting?: boolean;
  phase?: 'Succeeded' | 'Failed';
}

/** A pod as the API server has it: what the UnitedDeployment reads, and what a kubelet and defaulting add. */
function whole(o: PodOpts): Pod {
  const container = {
    name: 'main',
    image: 'nginx:1.27',
    ports: [{ containerPort: 80, protocol: 'TCP' }],
    readinessProbe: { httpGet: { path: '/', port: 80 } },
    resources: { requests: { cpu: '100m' } },
    env: [{ name: 'A', value: 'b' }],
  };
  const conditions = o.pending
    ? [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          lastTransitionTime: ago(o.created ?? 100),
        },
      ]
    : [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: ago(100) },
        o.readyFor === undefined
          ? { type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: ago(50) }
          : { type: 'Ready', status: 'True', lastTransitionTime: ago(o.readyFor) },
      ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: 'ns',
      uid: `uid-${o.name}`,
      resourceVersion: '7',
      creationTimestamp: ago(o.created ?? 100),
      ...(o.deleting && { deletionTimestamp: ago(0), deletionGracePeriodSeconds: 30 }),
      labels: {
        app: 'demo',
        [SUBSET_NAME_LABEL]: 'a',
        [UD_REVISION_LABEL]: o.revision ?? REV,
        ...(o.reserved && { [RESERVED_POD_LABEL]: o.reserved }),
      },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'demo-a', uid: 'w-a', controller: true },
      ],
    },
    spec: {
      ...(o.pending && !o.bound ? {} : { nodeName: 'node-1' }),
      containers: [container],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      dnsPolicy: 'ClusterFirst',
    },
    status: {
      phase: o.phase ?? (o.pending ? 'Pending' : 'Running'),
      conditions,
      ...(o.pending
        ? {}
        : {
            podIP: '10.0.0.7',
            qosClass: 'Burstable',
            containerStatuses: [
              {
                name: 'main',
                image: 'nginx:1.27',
                imageID: 'sha',
                ready: o.readyFor !== undefined,
                restartCount: 0,
              },
            ],
          }),
    },
  } as unknown as Pod;
}

const PODS: PodOpts[] = [
  { name: 'demo-a-0', readyFor: 60 },
  { name: 'demo-a-1', readyFor: 3, reserved: 'true' },
  { name: 'demo-a-2', readyFor: 8, reserved: 'true' },
  { name: 'demo-a-3', revision: 'ud-v1', readyFor: 60 },
  { name: 'demo-a-4', revision: 'ud-v1', reserved: 'false' },
  { name: 'demo-a-5', pending: true, created: 30 },
  { name: 'demo-a-6', pending: true, created: 4 },
  { name: 'demo-a-7', pending: true, created: 30, reserved: 'false' },
  { name: 'demo-a-8', readyFor: 20, deleting: true },
  { name: 'demo-a-9', phase: 'Succeeded' },
  { name: 'demo-a-10', pending: true, created: 30, bound: true, reserved: 'false' },
];

const workload = (kind: string, strategy: Record<string, unknown>): SubsetWorkload => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: {
    name: 'demo-a',
    namespace: 'ns',
    labels: { [SUBSET_NAME_LABEL]: 'a', [UD_REVISION_LABEL]: 'ud-v1' },
  },
  spec: { replicas: 8, selector: { matchLabels: { app: 'demo' } }, updateStrategy: strategy },
  status: { replicas: 10, readyReplicas: 4 },
});

const unitedDeployment = (): UnitedDeployment => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'UnitedDeployment',
  metadata: { name: 'demo', namespace: 'ns', uid: 'ud-1', generation: 2 },
  spec: {
    replicas: 8,
    selector: { matchLabels: { app: 'demo' } },
    template: { statefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: {} as never } },
    topology: { subsets: [{ name: 'a' }] },
  },
});

const updating: UDCondition = {
  type: 'UnitedDeploymentUpdated',
  status: 'False',
  reason: 'UnitedDeploymentRevisionUpdating',
  lastTransitionTime: ago(30),
};

/** Everything the UnitedDeployment derives from the pods, with pods named rather than held. */
function outcome(pods: readonly Pod[]) {
  const named = (v: SubsetView) => ({ ...v, pods: v.pods.map((p) => p.metadata?.name) });
  const views = new Map(
    SUBSET_KINDS.map((k) => [
      k.subsetType,
      readSubset(
        k,
        workload(k.kind, { type: 'OnDelete', partition: '25%', rollingUpdate: { partition: 2 } }),
        pods,
        REV,
      ),
    ]),
  );
  const existing = new Map([['a', views.get('StatefulSet') as SubsetView]]);
  const ud = unitedDeployment();
  const target = () => ({ revision: REV, replicas: 8, partition: 0, patch: '' });
  const reserved = (conditions: { type: string; status: 'True' | 'False'; lastTransitionTime: string }[]) => {
    const st = reservedSubsetState(
      { conditions: conditions as never, pods },
      { updatedRevision: REV, updatedCondition: updating, timing, now: NOW },
    );
    return { ...st, podsToLabel: st.podsToLabel.map(({ pod, reserved: r }) => [pod.metadata?.name, r]) };
  };
  return {
    views: Object.fromEntries([...views].map(([k, v]) => [k, named(v)])),
    adaptive: defaultAdaptiveSubsetState({ replicas: 10, readyReplicas: 4, pods }, timing, NOW),
    reserved: reserved([]),
    reservedMarked: reserved([{ type: 'Schedulable', status: 'False', lastTransitionTime: ago(2) }]),
    status: computeStatus({
      ud,
      existing,
      subsetStatuses: initSubsetStatuses(ud),
      conditions: [updating],
      nextReplicas: { a: 8 },
      nextPartitions: { a: 0 },
      currentRevision: 'ud-v1',
      updateRevision: REV,
      collisionCount: 0,
      labelSelector: 'app=demo',
    }),
    plan: planSubsets(ud, existing, target),
    perPod: pods.map((p) => [
      isPodReady(p),
      isActivePod(p),
      isPendingUnschedulable(p),
      isSubsetPod(p),
      unitedDeploymentsForPod({ type: 'Modified', object: p } as never, {
        uniteddeployments: { list: () => [ud as KubeObject] },
      }),
    ]),
  };
}

describe('the UnitedDeployment over pods read through UD_POD_FIELDS', () => {
  const full = PODS.map(whole);
  const projected = full.map((p) => projection(UD_POD_FIELDS)(structuredClone(p)) as Pod);

  it('reads pods the projection trimmed', () => {
    expect(projected.every(isProjected)).toBe(true);
    expect(projected.map((p) => [p.spec?.containers, p.status?.containerStatuses])).toEqual(
      PODS.map(() => [undefined, undefined]),
    );
  });

  it('derives from them what it derives from whole pods', () => {
    expect(outcome(projected)).toEqual(outcome(full));
  });

  it('and that outcome takes every branch the pods can move', () => {
    const o = outcome(full);
    expect(o.views['CloneSet']).toMatchObject({ updatedReplicas: 7, updatedReadyReplicas: 3, partition: 2 });
    // OnDelete: the pods not at the workload's revision (ud-v1)
    expect(o.views['StatefulSet']).toMatchObject({ partition: 9 });
    expect(o.adaptive).toMatchObject({ unschedulable: true, pendingPods: 2, requeueAfterMs: 5_000 });
    expect(o.reserved).toMatchObject({ reservedPods: 5, updateTimeoutPods: 2, requeueAfterMs: 2_000 });
    expect(o.reserved.podsToLabel).toEqual([
      ['demo-a-0', false],
      ['demo-a-2', false],
      ['demo-a-3', true],
      ['demo-a-4', true],
      ['demo-a-5', true],
      ['demo-a-6', false],
      ['demo-a-7', true],
      ['demo-a-8', false],
      ['demo-a-9', false],
    ]);
    // a subset marked unschedulable: its pods without the label are reserved from the start
    expect(o.reservedMarked).toMatchObject({
      markedAsUnschedulable: true,
      reservedPods: 9,
      updateTimeoutPods: 1,
    });
    expect(o.status).toMatchObject({ updatedReplicas: 7, updatedReadyReplicas: 3 });
    expect(o.perPod.filter(([ready]) => ready)).toHaveLength(5);
    expect(o.perPod.filter(([, , pending]) => pending)).toHaveLength(3);
    expect(o.perPod.every(([, , , subset, uds]) => subset && (uds as unknown[]).length === 1)).toBe(true);
  });
});
