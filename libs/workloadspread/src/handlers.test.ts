import type { Pod, WorkloadSpread } from '@regatta/api';
import type { Change, KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { spreadsForPodChange, spreadsForWorkloadChange } from './handlers.js';
import { matchedValue } from './matched.js';

const pod = (phase = 'Running', matched = true): Pod => ({
  metadata: { name: 'p', namespace: 'ns', ...(matched ? { annotations: { 'apps.kruise.io/matched-workloadspread': matchedValue({ name: 'ws', subset: 'a' }) } } : {}) },
  status: { phase },
});
const upd = <T extends KubeObject>(old: T, object: T): Change<T> => ({ type: 'update', old, object });

describe('spreadsForPodChange (podEventHandler)', () => {
  it.each<[string, Change<Pod>, number]>([
    ['a placed pod created', { type: 'add', object: pod() }, 1],
    ['a placed pod deleted', { type: 'delete', object: pod() }, 1],
    ['a placed pod finished', upd(pod(), pod('Succeeded')), 1],
    ['a placed pod marked unschedulable', upd(pod('Pending'), { ...pod('Pending'), status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } }), 1],
    ['a placed pod scheduled', upd(pod('Pending'), pod()), 0],
    ['a pod of no spread', { type: 'add', object: pod('Running', false) }, 0],
  ])('%s', (_n, change, n) => expect(spreadsForPodChange(change)).toHaveLength(n));
});

describe('spreadsForWorkloadChange (workloadEventHandler)', () => {
  const spreads = { workloadspreads: { list: (): WorkloadSpread[] => [{ metadata: { name: 'ws', namespace: 'ns' }, spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' }, subsets: [] } }] } };
  const cs = (replicas: number, updateRevision = 'r1'): KubeObject => ({ apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'cs', namespace: 'ns' }, spec: { replicas }, status: { updateRevision, currentRevision: 'r1' } } as KubeObject);
  const map = spreadsForWorkloadChange('CloneSet');
  it.each<[string, Change<KubeObject>, number]>([
    ['created', { type: 'add', object: cs(2) }, 1],
    ['scaled', upd(cs(2), cs(3)), 1],
    ['a new revision', upd(cs(2), cs(2, 'r2')), 1],
    ['a status change only', upd(cs(2), { ...cs(2), status: { updateRevision: 'r1', currentRevision: 'r1', readyReplicas: 2 } } as KubeObject), 0],
  ])('%s', (_n, change, n) => expect(map(change, spreads)).toHaveLength(n));
});
