/**
 * The harness of the expectation-diff table tests (`diff.test.ts`, `diff-2.test.ts`): a row of
 * `pkg/controller/cloneset/sync/cloneset_sync_utils_test.go` (# | name | R/P/MU/MS | flags | pods | expected),
 * parsed and run against `calculateDiffsWithExpectation`.
 */
import { LIFECYCLE_STATE_KEY, type Pod } from '@regatta/lifecycle';
import { type CloneSetRolloutSpec, SPECIFIED_DELETE_KEY, isPodUpdate } from '@regatta/rollout';
import { type ExpectationDiffs, calculateDiffsWithExpectation, emptyDiffs, isDiffsEmpty } from '../diff.js';

export type DiffRow = [number, string, string, string, string, string];

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
export function parsePods(s: string): Pod[] {
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

export function parseExpected(s: string): ExpectationDiffs {
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

/** Runs one row; returns what was computed and what the row expects. */
export function runDiffRow(row: DiffRow): {
  got: ExpectationDiffs;
  want: ExpectationDiffs;
  empty: boolean;
  wantEmpty: boolean;
} {
  const [, , rpm, flags, pods, expected] = row;
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
  const got = calculateDiffsWithExpectation(spec, parsePods(pods), current, 'new_rev', {
    now: new Date('2024-05-01T12:00:00Z'),
    partitionRollback: !flag('PartitionRollback=off'),
    ...(flag('isPodUpdate=IsPodUpdate')
      ? { isPodUpdate: (p: Pod, rev: string) => isPodUpdate(p, rev, { preparingUpdateAsUpdate: true }) }
      : {}),
  });
  return {
    got,
    want: parseExpected(expected),
    empty: isDiffsEmpty(got),
    wantEmpty: expected.startsWith('{}'),
  };
}
