/**
 * The ResourceDistribution webhooks as the program declares them (apps/resourcedistribution): the defaulter, and the
 * validator that dry-runs the embedded resource on the API server in the program's namespace
 * (REGATTA_RESOURCEDISTRIBUTION_NAMESPACE, else POD_NAMESPACE) and answers 403 while the gate is off
 * (docs/resourcedistribution.md).
 */
import { RESOURCE_DISTRIBUTION_GATE } from '@regatta/api';
import { mutating, validating, type WebhookDeclaration } from '@regatta/kit';
import type { KubeClient } from '@regatta/kube';
import type { ResourceDistributionFeatureGates } from './feature-gates.js';
import {
  MUTATE_RESOURCEDISTRIBUTION_PATH,
  VALIDATE_RESOURCEDISTRIBUTION_PATH,
  apiServerDryRun,
  dryRunNamespace,
  resourceDistributionDefaulter,
  resourceDistributionValidator,
  resourceDistributionWebhookConfigurations,
} from './webhooks.js';

export function resourceDistributionWebhooks(
  { client, gates }: { client: KubeClient; gates: ResourceDistributionFeatureGates },
  env: NodeJS.ProcessEnv = process.env,
): WebhookDeclaration {
  return {
    routes: [
      mutating(MUTATE_RESOURCEDISTRIBUTION_PATH, resourceDistributionDefaulter()),
      validating(
        VALIDATE_RESOURCEDISTRIBUTION_PATH,
        resourceDistributionValidator({
          enabled: gates[RESOURCE_DISTRIBUTION_GATE],
          dryRun: apiServerDryRun(client, dryRunNamespace(env)),
        }),
      ),
    ],
    configurations: (url, ca, scope) => resourceDistributionWebhookConfigurations(url, ca, scope),
  };
}
