import { describe, expect, it } from 'vitest';
import type { WorkloadSpread } from './types.js';
import { validateWorkloadSpread, validateWorkloadSpreadConflict, validateWorkloadSpreadUpdate } from './validation.js';

const base = (): WorkloadSpread => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'WorkloadSpread',
  metadata: { name: 'ws', namespace: 'ns' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
    subsets: [
      {
        name: 'zone-a',
        requiredNodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        maxReplicas: 2,
      },
      { name: 'zone-b' },
    ],
  },
});

type Edit = (ws: WorkloadSpread) => void;
const fields = (edit: Edit) => {
  const ws = base();
  edit(ws);
  return validateWorkloadSpread(ws).map((e) => `${e.field}: ${e.detail}`);
};

describe('validateWorkloadSpread (pkg/webhook/workloadspread/validating)', () => {
  it.each<[string, Edit, string[]]>([
    ['a valid spread', () => undefined, []],
    ['Deployment, ReplicaSet, Job, Advanced StatefulSet', (ws) => (ws.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 's' }), []],
    ['a kind not permitted', (ws) => (ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'd' }), ["spec.targetRef: TargetReference's GroupKind is not permitted."]],
    ['a kind in the wrong group', (ws) => (ws.spec.targetRef.apiVersion = 'apps/v1'), ['spec.targetRef: TargetReference is not valid for CloneSet.']],
    ['an empty name', (ws) => (ws.spec.targetRef.name = ''), ['spec.targetRef: empty TargetReference is not valid for WorkloadSpread.']],
    ['no subsets', (ws) => (ws.spec.subsets = []), ['spec.subsets: subsets number must >= 1 in WorkloadSpread']],
    ['duplicated names', (ws) => (ws.spec.subsets[1]!.name = 'zone-a'), ['spec.subsets[1].name: duplicated subset name zone-a']],
    [
      'int and percent mixed',
      (ws) => (ws.spec.subsets[1]!.maxReplicas = '50%'),
      ['spec.subsets[1].maxReplicas: the maxReplicas type of all subsets must be the same'],
    ],
    [
      'percents summing past 100%',
      (ws) => {
        ws.spec.subsets[0]!.maxReplicas = '60%';
        ws.spec.subsets[1]!.maxReplicas = '50%';
      },
      ["spec.subsets[1].maxReplicas: the sum of all subset's maxReplicas exceeds 100% is no permitted"],
    ],
    [
      'percents short of 100% with a limited last subset',
      (ws) => {
        ws.spec.subsets[0]!.maxReplicas = '30%';
        ws.spec.subsets[1]!.maxReplicas = '30%';
      },
      ['spec.subsets[0].maxReplicas: maxReplicas sum of all subsets must equal 100% when type is specified as percent'],
    ],
    ['a negative maxReplicas', (ws) => (ws.spec.subsets[0]!.maxReplicas = -1), ['spec.subsets[0].maxReplicas: maxReplicas is not valid for subset']],
    [
      'an In requirement without values',
      (ws) => (ws.spec.subsets[0]!.requiredNodeSelectorTerm = { matchExpressions: [{ key: 'zone', operator: 'In' }] }),
      ["spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    ['an unknown strategy', (ws) => (ws.spec.scheduleStrategy = { type: 'Sometimes' }), ["spec.scheduleStrategy.type: ScheduleStrategy's type is not valid"]],
    [
      'adaptive with a limited last subset',
      (ws) => {
        ws.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10 } };
        ws.spec.subsets[1]!.maxReplicas = 3;
      },
      ["spec.scheduleStrategy.adaptive: the last subset's maxReplicas must be not specified when using adaptive scheduleStrategy"],
    ],
    [
      'rescheduleCriticalSeconds past the bound',
      (ws) => (ws.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 296 } }),
      ['spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 295 is not permitted'],
    ],
    ['a string where a number goes', (ws) => ((ws.spec.subsets[0] as unknown as Record<string, unknown>)['tolerations'] = 'x'), ['spec.subsets[0].tolerations: must be an array']],
  ])('%s', (_name, edit, want) => {
    expect(fields(edit).map((f) => f.replace(/: Invalid value.*?: /, ': '))).toEqual(want);
  });

  it('refuses a changed target and a target another WorkloadSpread has', () => {
    const a = base();
    const b = base();
    b.spec.targetRef = { ...b.spec.targetRef, name: 'other' };
    expect(validateWorkloadSpreadUpdate(b, a).map((e) => e.field)).toEqual(['spec.targetRef']);
    expect(validateWorkloadSpreadUpdate(a, a)).toEqual([]);
    const other = { ...base(), metadata: { name: 'ws2', namespace: 'ns' } };
    expect(validateWorkloadSpreadConflict(a, [a, other])[0]?.detail).toBe('ws.spec.targetRef is in conflict with other WorkloadSpread ws2');
    expect(validateWorkloadSpreadConflict(a, [a])).toEqual([]);
  });
});
