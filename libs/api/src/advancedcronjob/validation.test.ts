import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultAdvancedCronJob, defaultAdvancedCronJobForAdmission } from './defaults.js';
import { validateAdvancedCronJob, validateAdvancedCronJobUpdate } from './validation.js';
import { validateAdvancedCronJobAdmission } from './admission.js';

const container = { name: 'pi', image: 'perl:5.34', command: ['perl', '-e', 'print 1'] };
const valid = (spec: Record<string, unknown> = {}, name = 'hello'): Record<string, unknown> => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'AdvancedCronJob',
  metadata: { name, namespace: 'default' },
  spec: {
    schedule: '*/1 * * * *',
    template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [container] } } } } },
    ...spec,
  },
});
const messages = (obj: unknown) => validateAdvancedCronJob(obj).map(formatFieldError);

describe('validateAdvancedCronJob', () => {
  it('accepts a job template and a broadcast job template', () => {
    expect(messages(valid())).toEqual([]);
    expect(
      messages(valid({ template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [container] } } } } } })),
    ).toEqual([]);
    expect(messages(valid({ schedule: 'TZ=Asia/Shanghai @daily' }))).toEqual([]);
    expect(messages(valid({ schedule: '0 8 * * *', timeZone: 'Asia/Shanghai' }))).toEqual([]);
  });

  it.each([
    [{ schedule: '' }, ['spec.schedule: Invalid value: "": schedule cannot be empty', 'spec.schedule: Invalid value: "": empty spec string']],
    [{ schedule: '61 * * * *' }, ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    [{ schedule: 'every minute' }, ['spec.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute]']],
    [{ schedule: 'TZ=UTC * * * *' }, ['spec.schedule: Invalid value: "TZ=UTC * * * *": expected exactly 5 fields']],
    [{ schedule: 'TZ=UTC @daily', timeZone: 'UTC' }, ['spec.schedule: Invalid value: "TZ=UTC @daily": cannot use both timeZone field and TZ or CRON_TZ in schedule']],
    [{ timeZone: 'Mars/Olympus' }, ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    [{ timeZone: 'Local' }, ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone']],
    [{ timeZone: '' }, ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']],
    [{ startingDeadlineSeconds: -1 }, ['spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0']],
    [{ successfulJobsHistoryLimit: -1 }, ['spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0']],
    [{ failedJobsHistoryLimit: -2 }, ['spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0']],
    [{ concurrencyPolicy: 'Sometimes' }, ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']],
    [{ template: {} }, ['spec.template: Forbidden: spec must have one template']],
    [
      { template: { jobTemplate: { spec: { template: { spec: { containers: [container] } } } }, broadcastJobTemplate: { spec: { template: { spec: { containers: [container] } } } } } },
      ['spec.template: Forbidden: spec can have only one template'],
    ],
    [
      { template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Always', containers: [container] } } } } } },
      ['spec.template.jobTemplate.spec.template.spec.restartPolicy: Invalid value: "Always": pod restartPolicy can only be Never or OnFailure'],
    ],
    [
      { template: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'x' }] } } } } } },
      ['spec.template.jobTemplate.spec.template.spec.containers[0].image: Required value'],
    ],
    [
      { template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [] } } } } } },
      ['spec.template.broadcastJobTemplate.spec.template.spec.containers: Required value'],
    ],
    [{ schedule: 5 }, ['spec.schedule: Invalid value: 5: must be a string']],
  ])('%j is refused with the field path', (spec, want) => {
    const got = messages(valid(spec));
    for (const w of want) expect(got.some((g) => g.startsWith(w)), `${w} in ${JSON.stringify(got)}`).toBe(true);
  });

  it.each([
    ['a.b', "AdvancedCronJob name must consist of alphanumeric characters or '-'"],
    ['a'.repeat(64), 'must be no more than 63 characters'],
  ])('name %s is refused', (name, detail) => {
    expect(messages(valid({}, name)).join('\n')).toContain(detail);
  });

  it('never throws on any JSON', () => {
    for (const v of [null, 1, 'x', [], {}, { spec: null }, { spec: { template: { jobTemplate: 1 } } }]) {
      expect(() => validateAdvancedCronJob(v)).not.toThrow();
    }
  });
});

describe('validateAdvancedCronJobUpdate', () => {
  it.each([
    [{ schedule: '*/5 * * * *' }],
    [{ paused: true }],
    [{ concurrencyPolicy: 'Forbid' }],
    [{ successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 0, startingDeadlineSeconds: 30, timeZone: 'Asia/Shanghai' }],
  ])('allows changing %j', (change) => {
    const old = valid();
    const next = { ...old, spec: { ...(old['spec'] as object), ...change } };
    expect(validateAdvancedCronJobUpdate(next, old)).toEqual([]);
  });

  it('refuses a template change', () => {
    const old = valid();
    const next = valid({ template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [container] } } } } } });
    expect(validateAdvancedCronJobUpdate(next, old).map(formatFieldError)).toEqual([
      expect.stringContaining("spec: Forbidden: updates to advancedcronjob spec for fields other than 'schedule'"),
    ]);
    expect(validateAdvancedCronJobAdmission({ operation: 'UPDATE', object: next, oldObject: old })).toHaveLength(1);
  });
});

describe('defaultAdvancedCronJob', () => {
  it('sets upstream defaults and the template pod defaults', () => {
    const out = defaultAdvancedCronJob(valid({ template: { jobTemplate: { spec: { template: { spec: { containers: [container] } } } } } })) as {
      spec: Record<string, unknown> & { template: { jobTemplate: { spec: { template: { spec: Record<string, unknown> } } } } };
    };
    expect(out.spec).toMatchObject({ concurrencyPolicy: 'Allow', paused: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(out.spec.template.jobTemplate.spec.template.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' });
  });

  it('keeps what is set', () => {
    const out = defaultAdvancedCronJob(valid({ concurrencyPolicy: 'Forbid', paused: true, successfulJobsHistoryLimit: 0 })) as {
      spec: Record<string, unknown>;
    };
    expect(out.spec).toMatchObject({ concurrencyPolicy: 'Forbid', paused: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 1 });
  });

  it('leaves the template alone on an update that does not change it', () => {
    const old = valid({ template: { jobTemplate: { spec: { template: { spec: { containers: [container] } } } } } });
    const next = { ...old, spec: { ...(old['spec'] as object), paused: true } };
    const out = defaultAdvancedCronJobForAdmission(next, old) as unknown as { spec: { template: unknown } };
    expect(out.spec.template).toEqual((old['spec'] as { template: unknown }).template);
  });

  it('never throws on any JSON', () => {
    for (const v of [null, 1, 'x', [], {}, { spec: 1 }, { spec: { template: 1 } }]) expect(() => defaultAdvancedCronJob(v)).not.toThrow();
  });
});
