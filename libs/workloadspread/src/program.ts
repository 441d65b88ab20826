/**
 * The WorkloadSpread webhooks as the program declares them (apps/workloadspread): the pod placement webhook, whose
 * configuration follows the WorkloadSpreads (one entry per spread, docs/adr/0081-workloadspread-admission.md), and
 * the WorkloadSpread validator, which makes an admitted spread effective before the cache shows it.
 */
import type { WorkloadSpread } from '@regatta/api';
import { mutating, validating, type WebhookConfigurationsNow, type WebhookDeclaration } from '@regatta/kit';
import type { OwnWrites } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import { MUTATE_POD_PATH, podWebhookConfiguration } from './pod-webhook-configuration.js';
import { workloadSpreadPodDefaulter, type PodWebhookDeps } from './pod-webhook.js';
import {
  AdmittedWorkloadSpreads,
  VALIDATE_WORKLOADSPREAD_PATH,
  workloadSpreadValidator,
  workloadSpreadWebhookConfigurations,
} from './webhooks.js';

/** What the webhooks read of the program's context. */
export interface WorkloadSpreadWebhookContext {
  readers: PodWebhookDeps['readers'] & {
    workloadspreads: {
      get(namespace: string | undefined, name: string): WorkloadSpread | undefined;
      list(opts?: { namespace?: string }): WorkloadSpread[];
    };
  };
  gates: { WorkloadSpread: boolean };
  client: PodWebhookDeps['client'];
  log: Pick<Logger, 'warn' | 'debug'>;
  tracer: PodWebhookDeps['tracer'];
  webhookConfigurations: WebhookConfigurationsNow;
}

/** `ownWrites`: the status the webhook and the reconciler write, read back before the cache shows it. */
export function workloadSpreadWebhooks(
  ctx: WorkloadSpreadWebhookContext,
  ownWrites: OwnWrites,
): WebhookDeclaration {
  const { readers, gates, client, log, tracer, webhookConfigurations } = ctx;
  const admitted = new AdmittedWorkloadSpreads((ns, name) => readers.workloadspreads.get(ns, name));
  const spreads = () => (gates.WorkloadSpread ? [...readers.workloadspreads.list(), ...admitted.list()] : []);
  return {
    routes: [
      mutating(
        MUTATE_POD_PATH,
        workloadSpreadPodDefaulter({ readers, admitted: () => admitted.list(), client, ownWrites, tracer }),
      ),
      validating(
        VALIDATE_WORKLOADSPREAD_PATH,
        workloadSpreadValidator({
          spreads: (ns) => readers.workloadspreads.list({ namespace: ns }),
          admitted,
          configurations: webhookConfigurations,
          log,
        }),
      ),
    ],
    // recomputed by the kit on every pass: the pod webhook's entries follow the WorkloadSpreads
    configurations: (url, ca, scope) => [
      podWebhookConfiguration(spreads(), url, ca, scope),
      workloadSpreadWebhookConfigurations(url, ca, scope),
    ],
    followedReaders: ['workloadspreads'],
  };
}
