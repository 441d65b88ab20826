/**
 * Mapping functions and cache filters of the UnitedDeployment program (pure). Upstream watches no pods and relies on
 * requeues; Regatta keeps the subsets' pods in a cache (status, adaptive scheduling) and lets their changes enqueue
 * the UnitedDeployments that select them.
 */
import type { Change, KubeObject } from '@regatta/kube';
import { compileLabelSelector } from '@regatta/kube';
import type { Request } from '@regatta/runtime';
import { SUBSET_NAME_LABEL } from './keys.js';
import type { UnitedDeployment } from './types.js';

/** Only pods of some subset are kept. */
export function isSubsetPod(obj: KubeObject): boolean {
  return obj.metadata?.labels?.[SUBSET_NAME_LABEL] !== undefined;
}

/** The UnitedDeployments of the pod's namespace whose selector matches it. */
export function unitedDeploymentsForPod(
  change: Change,
  readers: { uniteddeployments: { list(opts?: { namespace?: string }): KubeObject[] } },
): Request[] {
  const pod = change.object;
  const ns = pod.metadata?.namespace;
  const labels = pod.metadata?.labels;
  return (readers.uniteddeployments.list({ namespace: ns }) as UnitedDeployment[])
    .filter((ud) => ud.spec?.selector && compileLabelSelector(ud.spec.selector).matches(labels))
    .map((ud) => ({ namespace: ns, name: ud.metadata?.name ?? '' }));
}
