import { describe, expect, it } from 'vitest';
import { type PreDownloadFacts, preDownloadStep } from './image-predownload.js';

const facts = (over: Partial<PreDownloadFacts>): PreDownloadFacts => ({
  annotations: {},
  replicas: 10,
  currentRevision: 'r1',
  updateRevision: 'r2',
  status: { updateRevision: 'r2', updatedReadyReplicas: 0 },
  ...over,
});
const min = (v: string) => ({ 'apps.kruise.io/image-predownload-min-updated-ready-pods': v });

describe('preDownloadStep (pkg/controller/cloneset/cloneset_predownload_image.go)', () => {
  it.each<[string, Partial<PreDownloadFacts>, ReturnType<typeof preDownloadStep>]>([
    ['no rollout: clean up', { currentRevision: 'r2' }, { action: 'cleanup' }],
    ['rollout, no minimum: prepare at once', {}, { action: 'prepare' }],
    [
      'minimum 2, one updated ready: wait',
      { annotations: min('2'), status: { updateRevision: 'r2', updatedReadyReplicas: 1 } },
      { action: 'wait', minUpdatedReadyPods: 2, updatedReadyReplicas: 1 },
    ],
    [
      'minimum 2, two updated ready: prepare',
      { annotations: min('2'), status: { updateRevision: 'r2', updatedReadyReplicas: 2 } },
      { action: 'prepare' },
    ],
    [
      'a percentage rounds up against replicas (15% of 10 → 2)',
      { annotations: min('15%'), status: { updateRevision: 'r2', updatedReadyReplicas: 1 } },
      { action: 'wait', minUpdatedReadyPods: 2, updatedReadyReplicas: 1 },
    ],
    [
      'a status of another revision counts as 0 updated ready',
      { annotations: min('1'), status: { updateRevision: 'r0', updatedReadyReplicas: 9 } },
      { action: 'wait', minUpdatedReadyPods: 1, updatedReadyReplicas: 0 },
    ],
    ['an unparsable minimum counts as 0', { annotations: min('many') }, { action: 'prepare' }],
  ])('%s', (_name, over, want) => {
    expect(preDownloadStep(facts(over))).toEqual(want);
  });
});
