/**
 * WorkloadSpread admission (OpenKruise `pkg/webhook/workloadspread/validating`): the validating webhook (upstream has
 * no mutating one), and its configuration. A WorkloadSpread it allows at CREATE is effective at once: it is kept as
 * admitted until the cache holds it and the pod webhook's configuration, which then has its entry, is applied before
 * the answer (at most {@link APPLY_AT_ADMISSION_MS}), so the pods of a workload created right after it are placed
 * (docs/adr/0081-workloadspread-admission.md).
 */
import {
  type WorkloadSpread,
  validateWorkloadSpread,
  validateWorkloadSpreadConflict,
  validateWorkloadSpreadUpdate,
} from '@regatta/api';
import type { WebhookConfigurationsNow } from '@regatta/kit';
import {
  type ValidatingHandler,
  fieldErrorCauses,
  invalid,
  kindWebhookConfigurations,
  SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS,
  type Logger,
} from '@regatta/runtime';

export const VALIDATE_WORKLOADSPREAD_PATH = '/validate-apps-kruise-io-v1alpha1-workloadspread';
/** How long an admission waits for the pod webhook's configuration to be applied (the call has 10 s in all). */
export const APPLY_AT_ADMISSION_MS = 3000;

/** WorkloadSpreads admitted but not in the cache yet, by namespace/name (dropped once cached or after a minute). */
export class AdmittedWorkloadSpreads {
  readonly #admitted = new Map<string, { ws: WorkloadSpread; at: number }>();

  constructor(private readonly cached: (namespace: string, name: string) => WorkloadSpread | undefined) {}

  admit(ws: WorkloadSpread): void {
    this.#admitted.set(`${ws.metadata?.namespace}/${ws.metadata?.name}`, { ws, at: Date.now() });
  }

  list(): WorkloadSpread[] {
    const out: WorkloadSpread[] = [];
    for (const [key, { ws, at }] of this.#admitted) {
      if (this.cached(ws.metadata?.namespace ?? '', ws.metadata?.name ?? '') || Date.now() - at > 60_000) this.#admitted.delete(key);
      else out.push(ws);
    }
    return out;
  }
}

export interface WorkloadSpreadValidatorDeps {
  /** The cached WorkloadSpreads of a namespace (the conflict check). */
  spreads(namespace: string): readonly WorkloadSpread[];
  admitted: AdmittedWorkloadSpreads;
  configurations: WebhookConfigurationsNow;
  log: Pick<Logger, 'warn' | 'debug'>;
  waitMs?: number;
}

export function workloadSpreadValidator(deps: WorkloadSpreadValidatorDeps): ValidatingHandler<WorkloadSpread> {
  return async (input) => {
    if ((input.operation !== 'CREATE' && input.operation !== 'UPDATE') || !input.object) return { allowed: true };
    const ws = input.object;
    const namespace = input.namespace ?? ws.metadata?.namespace ?? '';
    let errors = validateWorkloadSpread(ws);
    if (errors.length === 0) {
      errors = [
        ...(input.operation === 'UPDATE' && input.oldObject ? validateWorkloadSpreadUpdate(ws, input.oldObject) : []),
        ...validateWorkloadSpreadConflict(ws, deps.spreads(namespace)),
      ];
    }
    if (errors.length > 0) {
      return invalid(
        { group: 'apps.kruise.io', kind: 'WorkloadSpread', name: input.name ?? ws.metadata?.name ?? '' },
        fieldErrorCauses(errors),
      );
    }
    if (input.operation === 'CREATE' && !input.dryRun) await admitAndApply(deps, { ...ws, metadata: { ...ws.metadata, namespace } });
    return { allowed: true };
  };
}

async function admitAndApply(deps: WorkloadSpreadValidatorDeps, ws: WorkloadSpread): Promise<void> {
  deps.admitted.admit(ws);
  const name = ws.metadata?.name;
  const apply = deps.configurations.applyNow().then(
    (applied) => {
      if (!applied) deps.log.debug({ workloadSpread: name }, 'pod webhook entry not applied at admission (not the leader)');
    },
    (err: unknown) => deps.log.warn({ err, workloadSpread: name }, 'could not apply the pod webhook entry of an admitted WorkloadSpread'),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deps.waitMs ?? APPLY_AT_ADMISSION_MS);
  });
  try {
    if ((await Promise.race([apply, late])) === 'late') {
      deps.log.warn({ workloadSpread: name }, 'pod webhook entry of an admitted WorkloadSpread not applied in time; the configuration keeper applies it');
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The ValidatingWebhookConfiguration `regatta-workloadspread` (CREATE and UPDATE of WorkloadSpreads). */
export function workloadSpreadWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
) {
  const pair = kindWebhookConfigurations(
    'workloadspread',
    [
      {
        resource: 'workloadspreads',
        scope: 'Namespaced',
        versions: ['v1alpha1'],
        mutating: { name: 'mworkloadspread.kb.io', path: '/mutate-apps-kruise-io-v1alpha1-workloadspread' },
        validating: { name: 'vworkloadspread.kb.io', path: VALIDATE_WORKLOADSPREAD_PATH },
        matchConditions: SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS,
      },
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
  // validating only: upstream defaults nothing
  return pair.validating;
}
