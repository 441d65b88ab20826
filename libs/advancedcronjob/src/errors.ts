import { RegattaError } from '@regatta/errors';

/** The driven clock's file does not hold an RFC 3339 instant (a test's mistake; the reconcile fails and retries). */
export class ClockFileError extends RegattaError {
  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    super('REGATTA_ADVANCEDCRONJOB_CLOCK_FILE', `the clock file ${path} does not hold an RFC 3339 time: ${JSON.stringify(text)}`);
  }
}

/** A job of a cron job could not be created or (under Replace) deleted; the request is retried with back-off. */
export class CronJobWriteError extends RegattaError {
  constructor(
    readonly cronJob: string,
    readonly action: 'create' | 'delete',
    readonly job: string,
    cause: unknown,
  ) {
    super(
      'REGATTA_ADVANCEDCRONJOB_WRITE_FAILED',
      `AdvancedCronJob ${cronJob}: could not ${action} ${job}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
