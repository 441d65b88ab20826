// The CloneSets the chaos checks roll out (R0, R4, R6, and R1's CloneSet kind, workloads/cloneset.ts).
import { defaultCloneSet, type CloneSet } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { benchPodSpec, IMAGE_NEW, IMAGE_OLD } from '../bench/rollout-config.js';
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
  const cloneSet: CloneSet = {
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
  };
  return defaultCloneSet(cloneSet);
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

/**
 * Starts the checker on `ns` with in-place bounds (no pod created or deleted, at least `minAvailable` available, at
 * most `n` pods), then sets the CloneSet's image to IMAGE_NEW; returns the patch's generation and when it was sent.
 */
export async function startInPlaceRollout(
  w: { client: KubeClient; now: () => number },
  obs: Observer,
  o: { ns: string; name: string; n: number; minAvailable: number },
): Promise<{ checker: ReturnType<Observer['checker']>; gen: number; t0: number }> {
  const checker = obs.checker(o.ns);
  checker.begin({ minAvailable: o.minAvailable, maxPods: o.n, inPlace: { creates: 0, deletes: 0 } }, w.now());
  const t0 = w.now();
  const patched = await w.client.patch(
    refOf(o.ns, o.name),
    [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IMAGE_NEW }],
    { type: 'json' },
  );
  return { checker, gen: patched.metadata?.generation ?? Infinity, t0 };
}

/** Deletes the CloneSet, then its namespace (so the controller never tries to replace pods of a terminating namespace). */
export async function removeCloneSet(client: KubeClient, ns: string, name: string): Promise<void> {
  await removeWorkload(client, refOf(ns, name));
}
