import { describe, expect, it } from 'vitest';
import { type IgnoreFacts, type RolloutFacts, ignoreReason, rolloutPreDownloadStep } from './when.js';

const facts = (over: Partial<RolloutFacts>): RolloutFacts => ({
  annotations: undefined,
  replicas: 10,
  currentRevision: 'cs-1',
  updateRevision: 'cs-2',
  status: undefined,
  ...over,
});
const min = (v: string) => ({ 'apps.kruise.io/image-predownload-min-updated-ready-pods': v });

describe('rolloutPreDownloadStep (CloneSet doReconcile / StatefulSet doPreDownload)', () => {
  it.each<[string, Partial<RolloutFacts>, ReturnType<typeof rolloutPreDownloadStep>]>([
    ['no rollout: cleanup', { updateRevision: 'cs-1' }, { action: 'cleanup' }],
    ['rollout, no minimum: prepare', {}, { action: 'prepare' }],
    ['minimum 2, none ready yet: wait', { annotations: min('2') }, { action: 'wait', minUpdatedReadyPods: 2, updatedReadyReplicas: 0 }],
    ['minimum 2, 2 ready for this revision: prepare', { annotations: min('2'), status: { updateRevision: 'cs-2', updatedReadyReplicas: 2 } }, { action: 'prepare' }],
    ['ready counts of another revision are 0', { annotations: min('2'), status: { updateRevision: 'cs-0', updatedReadyReplicas: 9 } }, { action: 'wait', minUpdatedReadyPods: 2, updatedReadyReplicas: 0 }],
    ['percentage rounded up: 15% of 10 → 2', { annotations: min('15%'), status: { updateRevision: 'cs-2', updatedReadyReplicas: 1 } }, { action: 'wait', minUpdatedReadyPods: 2, updatedReadyReplicas: 1 }],
    ['unparsable minimum counts as 0', { annotations: min('lots') }, { action: 'prepare' }],
  ])('%s', (_n, over, want) => {
    expect(rolloutPreDownloadStep(facts(over))).toEqual(want);
  });
});

describe('ignoreReason (createImagePullJobsForInPlaceUpdate skips)', () => {
  const base: IgnoreFacts = { inPlaceStrategy: true, replicas: 10, partition: 0, maxUnavailable: 2, pods: 10, inPlace: true };
  it.each<[string, Partial<IgnoreFacts>, ReturnType<typeof ignoreReason>]>([
    ['in place, batches: create', {}, undefined],
    ['ReCreate', { inPlaceStrategy: false }, 'NotInPlaceStrategy'],
    ['3 replicas', { replicas: 3, pods: 3 }, 'FewReplicas'],
    ['4 replicas: create', { replicas: 4, pods: 4 }, undefined],
    ['maxUnavailable covers every pod', { maxUnavailable: 10 }, 'OneBatch'],
    ['maxUnavailable covers every pod but a partition holds some', { maxUnavailable: 10, partition: 3 }, undefined],
    ['the change cannot be made in place', { inPlace: false }, 'NotInPlace'],
    ['ReCreate comes first', { inPlaceStrategy: false, replicas: 1, inPlace: false }, 'NotInPlaceStrategy'],
    ['DaemonSet: no strategy, replica or in-place check', { inPlaceStrategy: undefined, replicas: undefined, inPlace: undefined, pods: 2, maxUnavailable: 1 }, undefined],
    ['DaemonSet: one batch', { inPlaceStrategy: undefined, replicas: undefined, inPlace: undefined, pods: 2, maxUnavailable: 2 }, 'OneBatch'],
  ])('%s', (_n, over, want) => {
    expect(ignoreReason({ ...base, ...over })).toBe(want);
  });
});
