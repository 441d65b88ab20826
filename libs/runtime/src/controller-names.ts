/**
 * The Regatta controller programs, by the name each registers on the bus under, leases after and is mirrored for.
 * The one list: the bus's users (libs/local-cluster), the watcher's default allow-list (libs/mirror) and the
 * sandbox derive theirs from it (docs/adr/0009).
 */
export const CONTROLLER_NAMES = [
  'cloneset',
  'asts',
  'ads',
  'sidecarset',
  'uniteddeployment',
  'resourcedistribution',
  'imagepull',
  'advancedcronjob',
  'broadcastjob',
  'containerrecreaterequest',
  'deletionprotection',
  'podunavailablebudget',
  'workloadspread',
] as const;

export type ControllerName = (typeof CONTROLLER_NAMES)[number];
