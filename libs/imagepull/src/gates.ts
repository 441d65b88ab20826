/** Feature gates of the imagepull program (OpenKruise `pkg/features`), with Regatta's defaults. */
export const IMAGEPULL_FEATURE_GATES = {
  /** kruise-daemon features (Beta): off turns the NodeImage and ImagePullJob controllers and webhooks off (403). */
  KruiseDaemon: true,
  /**
   * The ImagePullJob controller and webhook. OpenKruise defaults it to false (403 until enabled); Regatta serves
   * image pre-warming by default (docs/adr/0031-image-pull-controllers.md): `ImagePullJobGate=false` restores the 403.
   */
  ImagePullJobGate: true,
} as const;
export type ImagePullFeatureGates = Record<keyof typeof IMAGEPULL_FEATURE_GATES, boolean>;

/** Whether ImagePullJobs are served (KruiseDaemon off forces the gate off, as `SetDefaultFeatureGates`). */
export const imagePullJobsEnabled = (g: ImagePullFeatureGates): boolean => g.KruiseDaemon && g.ImagePullJobGate;
