/** `source.component` of the AdvancedCronJob controller's Events (`pkg/controller/advancedcronjob`). */
export { ADVANCED_CRON_JOB_CONTROLLER_NAME as CONTROLLER_NAME } from '@regatta/api';
