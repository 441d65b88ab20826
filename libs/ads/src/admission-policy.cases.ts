// Advanced DaemonSet's validation table for the policy parity test (apps/ads/src/admission-policy.int.test.ts).
import { policyCaseObjects, type PolicyCase } from '@regatta/workload';

type Spec = Record<string, unknown>;

export type DaemonSetValidationCase = PolicyCase;

const objects = policyCaseObjects({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', app: 'agent' });

/** A valid, raw Advanced DaemonSet (apps.kruise.io/v1beta1) named `name`; `spec` is merged over its spec. */
export const daemonSetCase = objects.object;

const ru = (rollingUpdate: Spec): Spec => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
const podSpec = objects.podSpec;

export const DAEMONSET_PROBE = daemonSetCase('probe', podSpec({ restartPolicy: 'Never' }));

export const DAEMONSET_PARITY_CASES: readonly DaemonSetValidationCase[] = [
  { name: 'a valid DaemonSet', object: daemonSetCase('ok') },
  { name: 'an empty selector', object: daemonSetCase('empty-sel', { selector: {} }) },
  { name: 'a selector the template does not match', object: daemonSetCase('mismatch', { selector: { matchLabels: { app: 'x' } } }) },
  { name: 'restartPolicy Never', object: daemonSetCase('never', podSpec({ restartPolicy: 'Never' })) },
  { name: 'activeDeadlineSeconds', object: daemonSetCase('deadline', podSpec({ activeDeadlineSeconds: 5 })) },
  { name: 'a lifecycle inPlaceUpdate hook', object: daemonSetCase('hook', { lifecycle: { inPlaceUpdate: { labelsHandler: { a: 'b' } } } }) },
  { name: 'an unknown update strategy type', object: daemonSetCase('type', { updateStrategy: { type: 'Rolling' } }) },
  { name: 'OnDelete', object: daemonSetCase('ondelete', { updateStrategy: { type: 'OnDelete' } }) },
  { name: 'maxUnavailable and maxSurge both set', object: daemonSetCase('both', ru({ maxUnavailable: 1, maxSurge: 1 })) },
  { name: 'maxUnavailable and maxSurge both 0', object: daemonSetCase('none', ru({ maxUnavailable: 0, maxSurge: '0%' })) },
  { name: 'maxSurge alone', object: daemonSetCase('surge', ru({ maxSurge: '10%' })) },
  { name: 'maxUnavailable 150%', object: daemonSetCase('mu-150', ru({ maxUnavailable: '150%' })) },
  { name: 'maxUnavailable 1.5%', object: daemonSetCase('mu-dec', ru({ maxUnavailable: '1.5%' })) },
  { name: 'an unknown rollingUpdateType', object: daemonSetCase('rut', ru({ rollingUpdateType: 'Fast' })) },
  { name: 'InPlaceIfPossible with a surge', object: daemonSetCase('inplace-surge', ru({ rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1 })) },
  { name: 'InPlaceIfPossible', object: daemonSetCase('inplace', ru({ rollingUpdateType: 'InPlaceIfPossible' })) },
  { name: 'a partition of -1', object: daemonSetCase('part', ru({ partition: -1 })) },
  { name: 'a partition of 120%', object: daemonSetCase('part-pct', ru({ partition: '120%' })) },
  {
    name: 'UPDATE: the selector changed',
    old: daemonSetCase('upd-sel', {}, { app: 'agent', tier: 'a' }),
    object: daemonSetCase('upd-sel', { selector: { matchLabels: { app: 'agent', tier: 'a' } } }, { app: 'agent', tier: 'a' }),
  },
  {
    name: 'UPDATE: the image changed',
    old: daemonSetCase('upd-ok'),
    object: daemonSetCase('upd-ok', podSpec({ containers: [{ name: 'main', image: 'nginx:1.27' }] })),
  },
  {
    name: 'a container without image',
    object: daemonSetCase('noimage', { template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main' }] } } }),
    webhookOnly: "the pod template's contents are apimachinery's pod validation, code",
  },
];
