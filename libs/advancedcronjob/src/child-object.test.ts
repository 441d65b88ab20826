import type { AdvancedCronJob } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { childJobFor, childJobName } from './child-object.js';
import { toMetaTime, toRfc3339InZone } from './time-format.js';

const acj = (template: AdvancedCronJob['spec']['template']): AdvancedCronJob => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  metadata: { name: 'hello', namespace: 'ns', uid: 'u-1' },
  spec: { schedule: '*/1 * * * *', template },
});
const T = Date.parse('2026-12-07T10:05:00Z');

describe('childJobFor', () => {
  it('a Job named after the scheduled time, with the template labels, annotations, spec and a controller reference', () => {
    const job = childJobFor(
      acj({
        jobTemplate: {
          metadata: { labels: { app: 'hello' }, annotations: { note: 'x' } },
          spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
        },
      }),
      T,
      'UTC',
    );
    expect(job).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'hello-1796637900',
        namespace: 'ns',
        labels: { app: 'hello' },
        annotations: { note: 'x', 'apps.kruise.io/scheduled-at': '2026-12-07T10:05:00Z' },
        ownerReferences: [
          { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'hello', uid: 'u-1', controller: true, blockOwnerDeletion: true },
        ],
      },
      spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
  });

  it('a BroadcastJob from a broadcastJobTemplate, the annotation in the schedule zone', () => {
    const bj = childJobFor(acj({ broadcastJobTemplate: { spec: { template: { spec: { containers: [] } } } } }), T, 'Asia/Shanghai');
    expect(bj.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(bj.kind).toBe('BroadcastJob');
    expect(bj.metadata?.annotations).toEqual({ 'apps.kruise.io/scheduled-at': '2026-12-07T18:05:00+08:00' });
  });

  it.each([
    ['hello', T, 'hello-1796637900'],
    ['hello', T + 999, 'hello-1796637900'],
  ])('childJobName(%s, %d) = %s', (name, t, want) => expect(childJobName(name, t)).toBe(want));
});

describe('time formats', () => {
  it.each([
    [T, 'UTC', '2026-12-07T10:05:00Z'],
    [T, 'America/New_York', '2026-12-07T05:05:00-05:00'],
    [T, 'Asia/Kolkata', '2026-12-07T15:35:00+05:30'],
    [T + 1500, 'UTC', '2026-12-07T10:05:01Z'],
  ])('toRfc3339InZone(%d, %s) = %s', (ms, zone, want) => expect(toRfc3339InZone(ms, zone)).toBe(want));

  it('metav1.Time is UTC in whole seconds', () => expect(toMetaTime(T + 1500)).toBe('2026-12-07T10:05:01Z'));
});
