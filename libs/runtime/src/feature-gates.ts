import { InvalidOptionsError } from './errors.js';

/** Known gates with their defaults (OpenKruise's names, e.g. `{ PreparingUpdateAsUpdate: false }`). */
export type FeatureGateDefaults<G extends string> = Readonly<Record<G, boolean>>;

/**
 * Every gate OpenKruise's kruise-manager knows (upstream `pkg/features/kruise_features.go`; docs/adr/0044,
 * docs/operations.md "Feature gates"). One kruise-manager takes one `--feature-gates` for all its controllers; a Regatta install runs a
 * program per controller, so a program accepts the gates of the others too (they change nothing in it) and one value
 * serves the whole install.
 */
export const OPENKRUISE_FEATURE_GATES: ReadonlySet<string> = new Set([
  'KruiseDaemon',
  'PodWebhook',
  'DaemonWatchingPod',
  'CloneSetShortHash',
  'KruisePodReadinessGate',
  'PreDownloadImageForInPlaceUpdate',
  'PreDownloadImageForDaemonSetUpdate',
  'CloneSetPartitionRollback',
  'ResourcesDeletionProtection',
  'DeletionProtectionForCRDCascadingGate',
  'PodUnavailableBudgetDeleteGate',
  'PodUnavailableBudgetUpdateGate',
  'WorkloadSpread',
  'TemplateNoDefaults',
  'InPlaceUpdateEnvFromMetadata',
  'StatefulSetAutoDeletePVC',
  'StatefulSetAutoResizePVCGate',
  'StatefulSetStartOrdinal',
  'PodIndexLabel',
  'SidecarSetPatchPodMetadataDefaultsAllowed',
  'SidecarTerminator',
  'EnableSortSidecarContainerByName',
  'CloneSetEventHandlerOptimization',
  'PreparingUpdateAsUpdate',
  'ImagePullJobGate',
  'ResourceDistributionGate',
  'RecreatePodWhenChangeVCTInCloneSetGate',
  'ForceDeleteTimeoutExpectationGate',
  'InPlaceWorkloadVerticalScaling',
  'InPlacePodVerticalScaling',
  'EnhancedLivenessProbeGate',
  'EnablePodProbeMarkerOnServerless',
  'PodProbeMarkerGate',
  'EnableExternalCerts',
  'DefaultHostNetworkHostPortsInPodTemplates',
  'DaemonSetPruneIneligibleNodes',
]);

/**
 * Parses OpenKruise's `--feature-gates` syntax (`A=true,B=false`; spaces ignored) against the gates a program knows.
 * A gate of OpenKruise that this program does not read is accepted and has no effect (see
 * {@link OPENKRUISE_FEATURE_GATES}). A gate nobody knows, or a value other than true/false, is an error naming the
 * variable, so a typo never silently keeps a default.
 */
export function parseFeatureGates<G extends string>(
  what: string,
  value: string | undefined,
  defaults: FeatureGateDefaults<G>,
): Record<G, boolean> {
  const gates = { ...defaults } as Record<G, boolean>;
  for (const part of (value ?? '').split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    const raw =
      eq < 0
        ? ''
        : item
            .slice(eq + 1)
            .trim()
            .toLowerCase();
    const known = Object.hasOwn(defaults, name);
    if (!known && !OPENKRUISE_FEATURE_GATES.has(name)) {
      throw new InvalidOptionsError(
        what,
        `unknown feature gate '${name}' (known: ${Object.keys(defaults).sort().join(', ')})`,
      );
    }
    if (raw !== 'true' && raw !== 'false') {
      throw new InvalidOptionsError(what, `feature gate '${name}' needs =true or =false, got '${item}'`);
    }
    if (known) gates[name as G] = raw === 'true';
  }
  return gates;
}
