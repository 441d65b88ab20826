import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import {
  claimCompatibility,
  computeStatus,
  countReplicas,
  statusChanged,
  volumeClaimsStatus,
} from './status.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const pod = (
  rev: string,
  o: { phase?: string; ready?: boolean; since?: string; deleting?: boolean; state?: string } = {},
): Pod => ({
  metadata: {
    name: 'web-0',
    labels: {
      'controller-revision-hash': rev,
      ...(o.state ? { 'lifecycle.apps.kruise.io/state': o.state } : {}),
    },
    ...(o.deleting ? { deletionTimestamp: '2026-12-02T11:00:00Z' } : {}),
  },
  status: {
    ...(o.phase ? { phase: o.phase } : {}),
    conditions: o.ready
      ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.since ?? '2026-12-02T11:00:00Z' }]
      : [],
  },
});

describe('status counts', () => {
  it.each([
    { name: 'not created (no phase): nothing', pods: [pod('u')], want: { replicas: 0, updatedReplicas: 0 } },
    {
      name: 'pending: replicas and updated',
      pods: [pod('u', { phase: 'Pending' })],
      want: { replicas: 1, updatedReplicas: 1, readyReplicas: 0 },
    },
    {
      name: 'running ready: ready, available, updatedReady/Available',
      pods: [pod('u', { phase: 'Running', ready: true })],
      want: { readyReplicas: 1, availableReplicas: 1, updatedReadyReplicas: 1, updatedAvailableReplicas: 1 },
    },
    {
      name: 'ready for less than minReadySeconds: not available',
      pods: [pod('u', { phase: 'Running', ready: true, since: '2026-12-02T11:59:30Z' })],
      min: 60,
      want: { readyReplicas: 1, availableReplicas: 0, updatedAvailableReplicas: 0 },
    },
    {
      name: 'PreparingUpdate: ready but not available',
      pods: [pod('c', { phase: 'Running', ready: true, state: 'PreparingUpdate' })],
      want: { readyReplicas: 1, availableReplicas: 0, currentReplicas: 1 },
    },
    {
      name: 'terminating: counted in replicas, not current/updated',
      pods: [pod('c', { phase: 'Running', deleting: true })],
      want: { replicas: 1, currentReplicas: 0 },
    },
    {
      name: 'short hash does not count: exact names only',
      pods: [pod('web-u', { phase: 'Running' })],
      upd: 'other-u',
      want: { updatedReplicas: 0 },
    },
  ])('$name', ({ pods, want, min, upd }) => {
    expect(countReplicas([pods], min ?? 0, 'c', upd ?? 'u', NOW)).toMatchObject(want);
  });

  it('completeRollingUpdate: all updated and ready → current := update', () => {
    const counts = countReplicas([[pod('u', { phase: 'Running', ready: true })]], 0, 'c', 'u', NOW);
    const base = {
      generation: 2,
      counts,
      currentRevision: 'c',
      updateRevision: 'u',
      collisionCount: 0,
      selector: { matchLabels: { app: 'web' } },
      volumeClaims: [],
    };
    expect(computeStatus({ ...base, rollingUpdate: true })).toMatchObject({
      currentRevision: 'u',
      currentReplicas: 1,
      labelSelector: 'app=web',
    });
    expect(computeStatus({ ...base, rollingUpdate: false })).toMatchObject({
      currentRevision: 'c',
      currentReplicas: 0,
    });
  });

  it('written only when counts, revisions, selector, generation or volumeClaims change', () => {
    const counts = countReplicas([[pod('u', { phase: 'Running', ready: true })]], 0, 'c', 'u', NOW);
    const s = computeStatus({
      generation: 1,
      counts,
      currentRevision: 'u',
      updateRevision: 'u',
      collisionCount: 0,
      selector: null,
      volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 0 }],
      rollingUpdate: true,
    });
    expect(statusChanged(undefined, s)).toBe(true);
    expect(statusChanged({ ...s }, s)).toBe(false);
    expect(
      statusChanged(
        {
          ...s,
          updatedReadyReplicas: 0,
          updatedAvailableReplicas: 0,
          conditions: [{ type: 'FailedCreatePod', status: 'True' }],
        },
        s,
      ),
    ).toBe(false);
    expect(
      statusChanged(
        {
          ...s,
          volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 0, compatibleReadyReplicas: 0 }],
        },
        s,
      ),
    ).toBe(true);
    expect(statusChanged({ ...s, observedGeneration: 0 }, s)).toBe(true);
    // PodResizeInfeasible appearing or going is written on its own (docs/adr/0087)
    const infeasible = { type: 'PodResizeInfeasible', status: 'True', message: 'the node refused' };
    expect(statusChanged({ ...s, conditions: [infeasible] }, { ...s, conditions: [] })).toBe(true);
    expect(statusChanged({ ...s }, { ...s, conditions: [infeasible] })).toBe(true);
    expect(statusChanged({ ...s, conditions: [infeasible] }, { ...s, conditions: [infeasible] })).toBe(false);
  });

  it('volumeClaims: compatible when the claim requests ≥ template, ready when capacity ≥ request', () => {
    const t = { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } };
    const claim = (req: string, cap?: string) => ({
      spec: { resources: { requests: { storage: req } } },
      ...(cap ? { status: { capacity: { storage: cap } } } : {}),
    });
    expect(claimCompatibility(claim('1Gi'), t)).toEqual({ compatible: true, ready: false });
    expect(claimCompatibility(claim('2Gi', '2Gi'), t)).toEqual({ compatible: true, ready: true });
    expect(claimCompatibility(claim('500Mi', '500Mi'), t)).toEqual({ compatible: false, ready: false });
    const pods = [pod('u'), undefined, pod('u')];
    const claims = [claim('1Gi', '1Gi'), { ...claim('1Gi'), metadata: { deletionTimestamp: 'x' } }];
    let i = 0;
    expect(volumeClaimsStatus([t], pods, () => claims[i++])).toEqual([
      { volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 1 },
    ]);
  });
});
