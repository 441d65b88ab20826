import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATE_KEY, type Pod } from '@regatta/lifecycle';
import { type ExpectationDiffs, calculateDiffsWithExpectation, emptyDiffs, isDiffsEmpty } from './diff.js';
import { isPodUpdate, SPECIFIED_DELETE_KEY, type CloneSetRolloutSpec } from '@regatta/rollout';

/**
 * TestCalculateDiffsWithExpectation: the 80 rows of `pkg/controller/cloneset/sync/cloneset_sync_utils_test.go`, copied verbatim from the table
 * (# | name | R/P/MU/MS | flags | pods | expected) and parsed below.
 */
const TABLE: [number, string, string, string, string, string][] = [
  [1, 'an empty cloneset', '0/0/1/0', '', '(none)', '{} (empty)'],
  [2, 'increase replicas to 5 (step 1/2)', '5/0/1/0', '', '(none)', 'up=5, upLimit=5'],
  [3, 'increase replicas to 5 (step 2/2)', '5/0/1/0', '', 'new/N/R×5', '{} (empty)'],
  [
    4,
    'specified delete 1 pod (all ready) (step 1/3)',
    '5/0/1/0',
    '',
    'new/N/R/DEL, new/N/R×4',
    'delReadyLimit=1',
  ],
  [5, 'specified delete 1 pod (all ready) (step 2/3)', '5/0/1/0', '', 'new/N/R×4', 'up=1, upLimit=1'],
  [6, 'specified delete 1 pod (all ready) (step 3/3)', '5/0/1/0', '', 'new/N/R×5', '{} (empty)'],
  [
    7,
    'specified delete 2 pod (all ready) (step 1/6)',
    '5/0/1/0',
    '',
    'new/N/R/DEL×2, new/N/R×3',
    'delReadyLimit=1',
  ],
  [
    8,
    'specified delete 2 pod (all ready) (step 2/6)',
    '5/0/1/0',
    '',
    'new/N/R/DEL, new/N/R×3',
    'up=1, upLimit=1',
  ],
  [
    9,
    'specified delete 2 pod (all ready) (step 3/6)',
    '5/0/1/0',
    '',
    'new/N/R/DEL, new/N/R×3, new/N/NR',
    '{} (empty)',
  ],
  [
    10,
    'specified delete 2 pod (all ready) (step 4/6)',
    '5/0/1/0',
    '',
    'new/N/R/DEL, new/N/R×4',
    'delReadyLimit=1',
  ],
  [11, 'specified delete 2 pod (all ready) (step 5/6)', '5/0/1/0', '', 'new/N/R×4', 'up=1, upLimit=1'],
  [12, 'specified delete 2 pod (all ready) (step 6/6)', '5/0/1/0', '', 'new/N/R×5', '{} (empty)'],
  [
    13,
    'specified delete 2 pod and replicas to 4 (step 1/3)',
    '4/0/1/0',
    '',
    'new/N/NR/DEL×2, new/N/R×3',
    'delReadyLimit=2',
  ],
  [14, 'specified delete 2 pod and replicas to 4 (step 2/3)', '4/0/1/0', '', 'new/N/R×3', 'up=1, upLimit=1'],
  [15, 'specified delete 2 pod and replicas to 4 (step 3/3)', '4/0/1/0', '', 'new/N/R×4', '{} (empty)'],
  [16, 'update partition=3 (step 1/3)', '5/3/1/0', '', 'old/N/R×5', 'update=2, updMaxUnavail=1'],
  [17, 'update partition=3 (step 2/3)', '5/3/1/0', '', 'new/N/R, old/N/R×4', 'update=1, updMaxUnavail=1'],
  [18, 'update partition=3 (step 3/3)', '5/3/1/0', '', 'new/N/R×2, old/N/R×3', '{} (empty)'],
  [19, 'rollback partition=4 (step 1/3)', '5/4/2/0', '', 'new/N/R×4, old/N/R', 'update=-3, updMaxUnavail=2'],
  [
    20,
    'rollback partition=4 (step 2/3)',
    '5/4/2/0',
    '',
    'new/N/R×2, old/N/R×3',
    'update=-1, updMaxUnavail=2',
  ],
  [21, 'rollback partition=4 (step 3/3)', '5/4/2/0', '', 'new/N/R, old/N/R×4', '{} (empty)'],
  [
    22,
    'specified delete with maxSurge (step 1/4)',
    '5/0/0/1',
    '',
    'new/N/R/DEL, new/N/R×4',
    'up=1, surge=1, upLimit=1',
  ],
  [
    23,
    'specified delete with maxSurge (step 2/4)',
    '5/0/0/1',
    '',
    'new/N/R/DEL, new/N/R×4, new/N/NR',
    'surge=1',
  ],
  [
    24,
    'specified delete with maxSurge (step 3/4)',
    '5/0/0/1',
    '',
    'new/N/R/DEL, new/N/R×5',
    'delReadyLimit=1, surge=1',
  ],
  [25, 'specified delete with maxSurge (step 4/4)', '5/0/0/1', '', 'new/N/R×5', '{} (empty)'],
  [
    26,
    'update in-place partition=3 with maxSurge (step 1/4)',
    '5/3/1/1',
    '',
    'old/N/R×5',
    'up=1, surge=1, update=2, updMaxUnavail=1, upLimit=1',
  ],
  [
    27,
    'update in-place partition=3 with maxSurge (step 2/4)',
    '5/3/1/1',
    '',
    'old/N/R×5, new/N/NR',
    'surge=1, update=1, updMaxUnavail=2',
  ],
  [
    28,
    'update in-place partition=3 with maxSurge (step 3/4)',
    '5/3/1/1',
    '',
    'old/N/R×4, new/UG/NR, new/N/NR',
    'down=1, downOld=1, delReadyLimit=0',
  ],
  [
    29,
    'update in-place partition=3 with maxSurge (step 4/4)',
    '5/3/1/1',
    '',
    'old/N/R×4, new/N/R, new/N/NR',
    'down=1, downOld=1, delReadyLimit=1',
  ],
  [
    30,
    'update recreate partition=3 with maxSurge (step 1/7)',
    '5/3/1/1',
    '',
    'old/N/R×5',
    'up=1, surge=1, update=2, updMaxUnavail=1, upLimit=1',
  ],
  [
    31,
    'update recreate partition=3 with maxSurge (step 2/7)',
    '5/3/1/1',
    '',
    'old/N/R×5, new/N/NR',
    'surge=1, update=1, updMaxUnavail=2',
  ],
  [
    32,
    'update recreate partition=3 with maxSurge (step 3/7)',
    '5/3/1/1',
    '',
    'old/N/R×4, old/N/R/DEL, new/N/NR',
    'surge=1, surgeOld=1, delReadyLimit=1, update=1, updMaxUnavail=2',
  ],
  [
    33,
    'update recreate partition=3 with maxSurge (step 4/7)',
    '5/3/1/1',
    '',
    'old/N/R×4, new/N/NR',
    'surge=1, up=1, update=1, updMaxUnavail=1, upLimit=1',
  ],
  [
    34,
    'update recreate partition=3 with maxSurge (step 5/7)',
    '5/3/1/1',
    '',
    'old/N/R×4, new/N/NR×2',
    'down=1, downOld=1, delReadyLimit=0',
  ],
  [
    35,
    'update recreate partition=3 with maxSurge (step 6/7)',
    '5/3/1/1',
    '',
    'old/N/R×4, new/N/R, new/N/NR',
    'down=1, downOld=1, delReadyLimit=1',
  ],
  [
    36,
    'update recreate partition=3 with maxSurge (step 7/7)',
    '5/3/1/1',
    '',
    'old/N/R×3, new/N/R×2',
    '{} (empty)',
  ],
  [
    37,
    'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 1/3)',
    '5/99%/3/2',
    '',
    'old/N/R×5',
    'up=1, surge=1, update=1, updMaxUnavail=3, upLimit=1',
  ],
  [
    38,
    'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 2/3)',
    '5/99%/3/2',
    '',
    'old/N/R×5, new/N/NR',
    'down=1, downOld=1, delReadyLimit=3',
  ],
  [
    39,
    'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 3/3)',
    '5/99%/3/2',
    '',
    'old/N/R×4, new/N/NR',
    '{} (empty)',
  ],
  [
    40,
    'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 1/3)',
    '5/99%/40%/30%',
    '',
    'old/N/R×5',
    'up=1, surge=1, update=1, updMaxUnavail=2, upLimit=1',
  ],
  [
    41,
    'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 2/3)',
    '5/99%/40%/30%',
    '',
    'old/N/R×5, new/N/NR',
    'down=1, downOld=1, delReadyLimit=2',
  ],
  [
    42,
    'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 3/3)',
    '5/99%/40%/30%',
    '',
    'old/N/R×4, new/N/NR',
    '{} (empty)',
  ],
  [
    43,
    'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 1/3)',
    '5/99%/30%/30%',
    '',
    'old/N/R×5',
    'up=1, surge=1, update=1, updMaxUnavail=1, upLimit=1',
  ],
  [
    44,
    'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 2/3)',
    '5/99%/30%/30%',
    '',
    'old/N/R×5, new/N/NR',
    'down=1, downOld=1, delReadyLimit=1',
  ],
  [
    45,
    'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 3/3)',
    '5/99%/30%/30%',
    '',
    'old/N/R×4, new/N/NR',
    '{} (empty)',
  ],
  [46, 'revision consistent 1', '5/0/1/0', 'curRev=updRev', 'new/N/R×5', '{} (empty)'],
  [47, 'revision consistent 2', '5/3/1/0', 'curRev=updRev', 'new/N/R×5', '{} (empty)'],
  [48, 'revision consistent 3', '5/3/1/0', 'curRev=updRev', 'old/N/R×2, new/N/R×3', '{} (empty)'],
  [
    49,
    'revision consistent 4',
    '5/1/1/0',
    'curRev=updRev',
    'old/N/R×3, new/N/R×2',
    'update=2, updMaxUnavail=1',
  ],
  [
    50,
    'allow to update when fail to scale out normally',
    '5/1/2/0',
    'curRev=updRev',
    'old/N/R×2, new/N/R×2',
    'up=1, update=1, updMaxUnavail=1, upLimit=1',
  ],
  [
    51,
    'allow to update when fail to scale in normally',
    '5/1/1/0',
    'curRev=updRev',
    'old/N/R×3, new/N/R×3',
    'down=1, downOld=2, delReadyLimit=2, update=1, updMaxUnavail=2',
  ],
  [
    52,
    'disable rollback feature-gate',
    '5/4/1/0',
    'PartitionRollback=off',
    'old/N/R, new/N/R×4',
    '{} (empty)',
  ],
  [
    53,
    'increase replicas 0 to 5 with scale maxUnavailable = 2',
    '5/0/1/0',
    'scaleMaxUnavail=2',
    '(none)',
    'up=5, upLimit=2',
  ],
  [
    54,
    'increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 1',
    '6/0/1/0',
    'scaleMaxUnavail=2',
    'new/N/R×2, new/N/NR',
    'up=3, upLimit=1',
  ],
  [
    55,
    'increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 2',
    '6/0/1/0',
    'scaleMaxUnavail=2',
    'new/N/R, new/N/NR×2',
    'up=3, upLimit=0',
  ],
  [
    56,
    '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 1/4)',
    '3/0/1/0',
    '',
    'new/N/R×2, new/N/R/DEL',
    'delReadyLimit=1',
  ],
  [
    57,
    '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 2/4)',
    '3/0/1/0',
    '',
    'new/N/R×2, new/PD/R/DEL',
    '{} (empty)',
  ],
  [
    58,
    '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 3/4)',
    '3/0/1/0',
    '',
    'new/N/R×2',
    'up=1, upLimit=1',
  ],
  [
    59,
    '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 4/4)',
    '3/0/1/0',
    '',
    'new/N/R×2, new/N/NR',
    '{} (empty)',
  ],
  [
    60,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 1/4)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/N/R/DEL',
    'delReadyLimit=1',
  ],
  [
    61,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 2/4)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL',
    'up=1, upLimit=1',
  ],
  [
    62,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 3/4)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL, new/N/NR',
    '{} (empty)',
  ],
  [
    63,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 4/4)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL, new/N/NR',
    '{} (empty)',
  ],
  [
    64,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 1/5)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/N/R/DEL',
    'delReadyLimit=1',
  ],
  [
    65,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 2/5)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL',
    'up=1, upLimit=1',
  ],
  [
    66,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 3/5)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL, new/N/NR',
    '{} (empty)',
  ],
  [
    67,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 4/5)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×3, new/N/NR',
    'down=1, delReadyLimit=1',
  ],
  [
    68,
    '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 5/5)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×3',
    '{} (empty)',
  ],
  [
    69,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 1/6)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×3',
    '{} (empty)',
  ],
  [
    70,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 2/6)',
    '2/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/N/R/DEL',
    'delReadyLimit=2',
  ],
  [
    71,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 3/6)',
    '2/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL',
    '{} (empty)',
  ],
  [
    72,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 4/6)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL',
    'up=1, upLimit=1',
  ],
  [
    73,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 5/6)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/PD/R/DEL, new/N/NR',
    '{} (empty)',
  ],
  [
    74,
    '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 6/6)',
    '3/0/1/0',
    'excludePreparingDelete',
    'new/N/R×2, new/N/NR',
    '{} (empty)',
  ],
  [
    75,
    '[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 1',
    '4/90%/1/0',
    'excludePreparingDelete isPodUpdate=IsPodUpdate',
    'old/PU/R, old/N/R×2',
    'up=1, upLimit=1, upOld=1',
  ],
  [
    76,
    '[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 2',
    '4/2/1/0',
    'excludePreparingDelete isPodUpdate=IsPodUpdate',
    'old/PU/R, old/N/R×2',
    'up=1, upLimit=1',
  ],
  [
    77,
    '[UpdateStrategyPaused=true] scale up pods with maxSurge=3,maxUnavailable=0',
    '5/0/0/3',
    'paused',
    'old/N/R×3',
    'up=2, upLimit=2, update=3, updMaxUnavail=-2',
  ],
  [
    78,
    '[UpdateStrategyPaused=true] scale down pods with maxSurge=3,maxUnavailable=0',
    '3/0/0/3',
    'paused',
    'old/N/R×5',
    'down=2, downOld=5, delReadyLimit=2, update=3, updMaxUnavail=2',
  ],
  [
    79,
    '[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0',
    '5/0/0/3',
    'paused',
    'old/N/R×5, new/N/NR×3',
    'down=3, downOld=5, update=2, updMaxUnavail=3',
  ],
  [
    80,
    '[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0',
    '5/2/0/3',
    'paused',
    'old/N/R×5, new/N/NR×3',
    'down=3, downOld=3',
  ],
];

const STATES: Record<string, string> = {
  N: 'Normal',
  PD: 'PreparingDelete',
  PU: 'PreparingUpdate',
  UG: 'Updating',
};
const FIELDS: Record<string, keyof ExpectationDiffs> = {
  up: 'scaleUpNum',
  upOld: 'scaleUpNumOldRevision',
  upLimit: 'scaleUpLimit',
  down: 'scaleDownNum',
  downOld: 'scaleDownNumOldRevision',
  delReadyLimit: 'deleteReadyLimit',
  surge: 'useSurge',
  surgeOld: 'useSurgeOldRevision',
  update: 'updateNum',
  updMaxUnavail: 'updateMaxUnavailable',
};

const intOrString = (s: string): number | string => (s.endsWith('%') ? s : Number(s));

/** `new/N/R/DEL×2` → two pods at new_rev, Normal, Running+Ready, with the specified-delete label. */
function parsePods(s: string): Pod[] {
  if (s === '(none)') return [];
  return s.split(', ').flatMap((item) => {
    const [spec = '', times = '1'] = item.split('×');
    const [rev, state = 'N', ready, del] = spec.split('/');
    const pod = (): Pod => ({
      metadata: {
        labels: {
          'controller-revision-hash': rev === 'new' ? 'new_rev' : 'old_rev',
          [LIFECYCLE_STATE_KEY]: STATES[state] ?? state,
          ...(del === 'DEL' ? { [SPECIFIED_DELETE_KEY]: 'true' } : {}),
        },
      },
      status: ready === 'R' ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } : {},
    });
    return Array.from({ length: Number(times) }, pod);
  });
}

function parseExpected(s: string): ExpectationDiffs {
  const out = emptyDiffs();
  if (s.startsWith('{}')) return out;
  for (const part of s.split(', ')) {
    const [k = '', v = ''] = part.split('=');
    const field = FIELDS[k];
    if (!field) throw new Error(`unknown field ${k} in ${s}`);
    out[field] = Number(v);
  }
  return out;
}

describe('calculateDiffsWithExpectation (cloneset_sync_utils_test.go, 80 rows)', () => {
  it('has all 80 rows', () => expect(TABLE).toHaveLength(80));

  it.each(TABLE)('#%i %s', (_n, _name, rpm, flags, pods, expected) => {
    const [replicas = '0', partition = '0', maxUnavailable = '0', maxSurge = '0'] = rpm.split('/');
    const flag = (f: string) => flags.split(' ').includes(f);
    const scaleMax = /scaleMaxUnavail=(\d+)/.exec(flags)?.[1];
    const spec: CloneSetRolloutSpec = {
      replicas: Number(replicas),
      updateStrategy: {
        partition: intOrString(partition),
        maxUnavailable: intOrString(maxUnavailable),
        maxSurge: intOrString(maxSurge),
        ...(flag('paused') ? { paused: true } : {}),
      },
      scaleStrategy: {
        ...(scaleMax ? { maxUnavailable: Number(scaleMax) } : {}),
        ...(flag('excludePreparingDelete') ? { excludePreparingDelete: true } : {}),
      },
    };
    const current = flag('curRev=updRev') ? 'new_rev' : 'old_rev';
    const res = calculateDiffsWithExpectation(spec, parsePods(pods), current, 'new_rev', {
      now: new Date('2024-05-01T12:00:00Z'),
      partitionRollback: !flag('PartitionRollback=off'),
      ...(flag('isPodUpdate=IsPodUpdate')
        ? { isPodUpdate: (p: Pod, rev: string) => isPodUpdate(p, rev, { preparingUpdateAsUpdate: true }) }
        : {}),
    });
    expect(res).toEqual(parseExpected(expected));
    expect(isDiffsEmpty(res)).toBe(expected.startsWith('{}'));
  });
});
