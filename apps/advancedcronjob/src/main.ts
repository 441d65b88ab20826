// The AdvancedCronJob controller, declared: caches fed by the watcher over the bus (AdvancedCronJobs, the batch/v1
// Jobs and BroadcastJobs they control), a reconcile queue, and the AdvancedCronJob webhooks; the kit (libs/kit)
// derives and runs the rest. The clock is the system's (a test drives it through REGATTA_ADVANCEDCRONJOB_CLOCK_FILE,
// docs/advancedcronjob.md).
import { KINDS } from '@regatta/api';
import {
  ADVANCED_CRON_JOB_FEATURE_GATES,
  AdvancedCronJobReconciler,
  CONTROLLER_NAME,
  MUTATE_ADVANCEDCRONJOB_PATH,
  VALIDATE_ADVANCEDCRONJOB_PATH,
  advancedCronJobDefaulter,
  advancedCronJobValidator,
  advancedCronJobWebhookConfigurations,
  clockFromEnv,
  isCronJobChild,
} from '@regatta/advancedcronjob';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const advancedcronjob = ControllerBuilder.controller({
  name: 'advancedcronjob',
  eventComponent: CONTROLLER_NAME,
  featureGates: ADVANCED_CRON_JOB_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('cronJobs', KINDS.advancedcronjobs)
  // only the jobs some AdvancedCronJob controls; their creations and deletions feed the expectations
  .owns('jobs', KINDS.jobs, { keep: isCronJobChild, expectations: 'scale' })
  .owns('broadcastJobs', KINDS.broadcastjobs, { keep: isCronJobChild, expectations: 'scale' })
  .webhooks(({ gates }) => ({
    routes: [
      mutating(MUTATE_ADVANCEDCRONJOB_PATH, advancedCronJobDefaulter({ templateNoDefaults: gates.TemplateNoDefaults })),
      validating(VALIDATE_ADVANCEDCRONJOB_PATH, advancedCronJobValidator()),
    ],
    configurations: (url, ca, scope) => {
      const { mutating: m, validating: v } = advancedCronJobWebhookConfigurations(url, ca, scope);
      return [m, v];
    },
  }))
  .reconciler(({ readers, client, recorder, tracer, expectations }) => {
    return new AdvancedCronJobReconciler({
      cronJobs: readers.cronJobs,
      jobs: readers.jobs,
      broadcastJobs: readers.broadcastJobs,
      client,
      recorder, // SuccessfulCreate, SuccessfulDelete, JobAlreadyActive, MissSchedule, … (docs/advancedcronjob.md)
      tracer, // a span per triggered job; service regatta-advancedcronjob
      clock: clockFromEnv(process.env),
      expectations,
    });
  });

await runController(advancedcronjob);
