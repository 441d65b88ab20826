import { describe, expect, it } from 'vitest';
import { degradedReason } from './commands.js';
import { rolloutProgress, type Workload } from './progress.js';

function cloneSet(conditions: unknown[]): Workload {
  return {
    metadata: { name: 'web', generation: 2 },
    spec: { replicas: 3 },
    status: { observedGeneration: 2, replicas: 3, updatedReplicas: 1, readyReplicas: 3, conditions },
  };
}

describe('degradedReason: what `rollout status --watch` exits 1 on', () => {
  it.each([
    [[], undefined],
    [[{ type: 'Progressing', status: 'True', reason: 'CloneSetProgressing' }], undefined],
    [
      [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'CloneSet "web" has timed out progressing.',
        },
      ],
      'Progressing ProgressDeadlineExceeded: CloneSet "web" has timed out progressing.',
    ],
    [[{ type: 'FailedUpdate', status: 'True', reason: 'UpdateFailed' }], 'FailedUpdate UpdateFailed'],
    [[{ type: 'FailedScale', status: 'False' }], undefined],
  ])('%j → %s', (conditions, reason) => {
    const w = cloneSet(conditions);
    expect(degradedReason(rolloutProgress('CloneSet', w), w)).toBe(reason);
  });
});
