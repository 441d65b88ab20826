// The CloneSets the chaos checks roll out (R0, R4, R6, and R1's CloneSet kind, workloads/cloneset.ts).
import { defaultCloneSet, type CloneSet } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { benchPodSpec, IMAGE_OLD } from '../bench/rollout-config.js';
import { createWorkloadReady, removeWorkload, type Observer, type WorkloadRef } from './observer.js';

export interface CloneSetShape {
  ns: string;
  name: string;
  replicas: number;
  type: 'InPlaceIfPossible' | 'ReCreate';
  maxUnavailable: number | string;
  maxSurge: number | string;
  partition?: number;
}

/** A CloneSet as the mutating webhook would leave it (no webhook runs here), pods of one container `app`. */
export function cloneSetObject(s: CloneSetShape): KubeObject {
  const labels = { app: s.name };
  return defaultCloneSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: s.name, namespace: s.ns },
    spec: {
      replicas: s.replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: benchPodSpec(IMAGE_OLD) },
      updateStrategy: {
        type: s.type,
        maxUnavailable: s.maxUnavailable,
        maxSurge: s.maxSurge,
        partition: s.partition ?? 0,
      },
    },
  } as unknown as CloneSet) as unknown as KubeObject;
}

export const refOf = (ns: string, name: string): WorkloadRef => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  namespace: ns,
  name,
});

/** Creates a namespace and a CloneSet in it; resolves when its `replicas` pods are ready (or throws). */
export async function createReady(
  client: KubeClient,
  obs: Observer,
  s: CloneSetShape,
  timeoutMs = 600_000,
): Promise<void> {
  await createWorkloadReady(
    client,
    obs,
    { ns: s.ns, object: cloneSetObject(s), replicas: s.replicas },
    timeoutMs,
  );
}

/** Deletes the CloneSet, then its namespace (so the controller never tries to replace pods of a terminating namespace). */
export async function removeCloneSet(client: KubeClient, ns: string, name: string): Promise<void> {
  await removeWorkload(client, refOf(ns, name));
}
