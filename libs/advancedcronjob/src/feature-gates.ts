/** The gates the AdvancedCronJob program reads (`pkg/features/kruise_features.go`), with OpenKruise's defaults. */
export const ADVANCED_CRON_JOB_FEATURE_GATES = {
  /** No pod-spec defaults injected into the job templates by the mutating webhook. */
  TemplateNoDefaults: false,
} as const;
