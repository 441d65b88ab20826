/**
 * The job a cron job creates for a scheduled time (`pkg/controller/advancedcronjob` constructJobForCronJob,
 * constructBrJobForCronJob): named `<cron job>-<scheduled time in Unix seconds>` so that one time never gets two
 * jobs; the template's labels; its annotations plus `apps.kruise.io/scheduled-at`; the template's spec; a controller
 * reference to the cron job (the garbage collector deletes the jobs with it).
 */
import {
  ADVANCED_CRON_JOB_API_VERSION,
  ADVANCED_CRON_JOB_KIND,
  AdvancedCronJobAnnotations,
  JOB_API_VERSION,
  JOB_KIND,
  type AdvancedCronJob,
  type Job,
  type JobSpec,
} from '@regatta/api';
import { cloneJson, newControllerRef, type KubeObject } from '@regatta/kube';
import { templateKindOf } from './plan.js';
import { toRfc3339InZone } from './time-format.js';

export const BROADCAST_JOB_GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob' } as const;
export const JOB_GVK = { apiVersion: JOB_API_VERSION, kind: JOB_KIND } as const;

/** The apiVersion and kind of what the cron job's template creates. */
export function childGvkOf(acj: Pick<AdvancedCronJob, 'spec'>): { apiVersion: string; kind: string } {
  return templateKindOf(acj.spec) === 'Job' ? JOB_GVK : BROADCAST_JOB_GVK;
}

/** `<name>-<unix seconds>`. */
export function childJobName(cronJobName: string, scheduledTime: number): string {
  return `${cronJobName}-${Math.floor(scheduledTime / 1000)}`;
}

/**
 * The Job or BroadcastJob for `scheduledTime` (epoch ms). `zone` is the schedule's time zone: the annotation is
 * written in it, as upstream formats the time its cron library returned.
 */
export function childJobFor(acj: AdvancedCronJob, scheduledTime: number, zone: string): KubeObject {
  const gvk = childGvkOf(acj);
  const template = gvk.kind === JOB_KIND ? acj.spec.template.jobTemplate : acj.spec.template.broadcastJobTemplate;
  const meta = (template?.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const owner = newControllerRef(acj, { apiVersion: ADVANCED_CRON_JOB_API_VERSION, kind: ADVANCED_CRON_JOB_KIND });
  const child: KubeObject & { spec?: unknown } = {
    ...gvk,
    metadata: {
      name: childJobName(acj.metadata?.name ?? '', scheduledTime),
      namespace: acj.metadata?.namespace ?? '',
      labels: { ...(meta.labels ?? {}) },
      annotations: { ...(meta.annotations ?? {}), [AdvancedCronJobAnnotations.ScheduledAt]: toRfc3339InZone(scheduledTime, zone) },
      ownerReferences: [owner],
    },
    spec: cloneJson(template?.spec ?? {}),
  };
  return child;
}

/** A Job made by {@link childJobFor} (typed for tests and readers). */
export type CronJobChild = Job & { spec: JobSpec };
