// What every kind's validation table for the policy parity test shares (libs/<kind>/src/admission-policy.cases.ts,
// run by libs/testing policy-parity.ts against the webhook and the ValidatingAdmissionPolicy): the row, and the valid
// raw object each row changes.
import type { KubeObject } from '@regatta/kube';

type Spec = Record<string, unknown>;

/** One row: the object (an UPDATE from `old` when given); `webhookOnly` says why the policy leaves it to the webhook. */
export interface PolicyCase {
  name: string;
  object: KubeObject;
  /** UPDATE from this object (created first, unchecked by the table). */
  old?: KubeObject;
  /** The rule is the webhook's alone: why (the policy must admit the object). */
  webhookOnly?: string;
}

export interface PolicyCaseObjects {
  /** A valid, raw (not defaulted) object named `name`; `spec` is merged over its spec; `labels` are its template's. */
  object: (name: string, spec?: Spec, labels?: Record<string, string>) => KubeObject;
  /** A spec whose template is the valid one with `extra` merged over its pod spec. */
  podSpec: (extra: Spec) => Spec;
}

/**
 * The valid objects of a workload kind's table: `spec` first (replicas, serviceName…), then a selector on `app` and
 * a template of one `main` container (nginx:alpine) labelled with it.
 */
export function policyCaseObjects(kind: {
  apiVersion: string;
  kind: string;
  app: string;
  spec?: Spec;
}): PolicyCaseObjects {
  const containers = () => [{ name: 'main', image: 'nginx:alpine' }];
  return {
    object: (name, spec = {}, labels = { app: kind.app }) =>
      ({
        apiVersion: kind.apiVersion,
        kind: kind.kind,
        metadata: { name },
        spec: {
          ...kind.spec,
          selector: { matchLabels: { app: kind.app } },
          template: { metadata: { labels }, spec: { containers: containers() } },
          ...spec,
        },
      }) as KubeObject,
    podSpec: (extra) => ({
      template: { metadata: { labels: { app: kind.app } }, spec: { containers: containers(), ...extra } },
    }),
  };
}
