/**
 * Hot-upgrade twins (OpenKruise `pkg/webhook/pod/mutating/sidecarset_hotupgrade.go`,
 * `pkg/control/sidecarcontrol/util_hotupgrade.go`): `<name>-1` runs the image and works, `<name>-2` runs
 * `hotUpgradeEmptyImage`; each reads its version annotations through `SIDECARSET_VERSION` / `SIDECARSET_VERSION_ALT`.
 */
import { SidecarSetAnnotations, SidecarSetEnvs } from '@regatta/api';
import type { EnvVar, SidecarContainer } from './types.js';

export interface HotUpgradeAnnotations {
  /** `version…/<twin>` and `versionalt…/<twin>`. */
  annotations: Record<string, string>;
  /** sidecar name → working twin (`kruise.io/sidecarset-working-hotupgrade-container`). */
  working: Record<string, string>;
}

export const isHotUpgrade = (c: SidecarContainer): boolean => c.upgradeStrategy?.upgradeType === 'HotUpgrade';

export const versionAnnotation = (container: string): string =>
  `${SidecarSetAnnotations.VersionPrefix}${container}`;
export const versionAltAnnotation = (container: string): string =>
  `${SidecarSetAnnotations.VersionAltPrefix}${container}`;

function withVersionEnv(c: SidecarContainer): SidecarContainer {
  const fieldRef = (key: string): EnvVar => ({
    name:
      key === versionAnnotation(c.name)
        ? SidecarSetEnvs.SidecarSetVersion
        : SidecarSetEnvs.SidecarSetVersionAlt,
    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${key}']` } },
  });
  const env = ((c.env ?? []) as EnvVar[]).filter(
    (e) => e.name !== SidecarSetEnvs.SidecarSetVersion && e.name !== SidecarSetEnvs.SidecarSetVersionAlt,
  );
  return { ...c, env: [...env, fieldRef(versionAnnotation(c.name)), fieldRef(versionAltAnnotation(c.name))] };
}

/** The two twins of a merged sidecar, and their version annotations (1/0 for the working, 0/1 for the idle). */
export function hotUpgradeTwins(c: SidecarContainer): {
  containers: [SidecarContainer, SidecarContainer];
  annotations: Record<string, string>;
} {
  const one = withVersionEnv({ ...structuredClone(c), name: `${c.name}-1` });
  const two = withVersionEnv({
    ...structuredClone(c),
    name: `${c.name}-2`,
    image: c.upgradeStrategy?.hotUpgradeEmptyImage ?? '',
  });
  return {
    containers: [one, two],
    annotations: {
      [versionAnnotation(one.name)]: '1',
      [versionAltAnnotation(one.name)]: '0',
      [versionAnnotation(two.name)]: '0',
      [versionAltAnnotation(two.name)]: '1',
    },
  };
}
