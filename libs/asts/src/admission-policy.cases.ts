// Advanced StatefulSet's validation table for the policy parity test (apps/asts/src/admission-policy.int.test.ts).
import { policyCaseObjects, type PolicyCase } from '@regatta/workload';

type Spec = Record<string, unknown>;

export type StatefulSetValidationCase = PolicyCase;

const objects = policyCaseObjects({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  app: 'db',
  spec: { replicas: 2, serviceName: 'db' },
});

/** A valid, raw Advanced StatefulSet (apps.kruise.io/v1beta1) named `name`; `spec` is merged over its spec. */
export const statefulSetCase = objects.object;

const ru = (rollingUpdate: Spec, spec: Spec = {}): Spec => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate }, ...spec });
const podSpec = objects.podSpec;

export const STATEFULSET_PROBE = statefulSetCase('probe', podSpec({ restartPolicy: 'Never' }));

export const STATEFULSET_PARITY_CASES: readonly StatefulSetValidationCase[] = [
  { name: 'a valid StatefulSet', object: statefulSetCase('ok') },
  { name: 'an empty selector', object: statefulSetCase('empty-sel', { selector: {} }) },
  { name: 'a selector the template does not match', object: statefulSetCase('mismatch', { selector: { matchLabels: { app: 'x' } } }) },
  { name: 'restartPolicy OnFailure', object: statefulSetCase('restart', podSpec({ restartPolicy: 'OnFailure' })) },
  { name: 'activeDeadlineSeconds', object: statefulSetCase('deadline', podSpec({ activeDeadlineSeconds: 5 })) },
  { name: 'an unknown podManagementPolicy', object: statefulSetCase('pmp', { podManagementPolicy: 'Random' }) },
  { name: 'an unknown update strategy type', object: statefulSetCase('type', { updateStrategy: { type: 'Rolling' } }) },
  { name: 'OnDelete with rollingUpdate', object: statefulSetCase('ondelete', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }) },
  { name: 'OnDelete alone', object: statefulSetCase('ondelete-ok', { updateStrategy: { type: 'OnDelete' } }) },
  { name: 'a partition of -1', object: statefulSetCase('part', ru({ partition: -1 })) },
  { name: 'minReadySeconds 301', object: statefulSetCase('minready', ru({ minReadySeconds: 301 })) },
  { name: 'maxUnavailable 2 when OrderedReady', object: statefulSetCase('mu-ordered', ru({ maxUnavailable: 2 })) },
  { name: 'maxUnavailable 2 when Parallel', object: statefulSetCase('mu-parallel', ru({ maxUnavailable: 2 }, { podManagementPolicy: 'Parallel' })) },
  { name: 'maxUnavailable 0 when Parallel', object: statefulSetCase('mu-zero', ru({ maxUnavailable: 0 }, { podManagementPolicy: 'Parallel' })) },
  { name: 'maxUnavailable 50% when Parallel', object: statefulSetCase('mu-pct', ru({ maxUnavailable: '50%' }, { podManagementPolicy: 'Parallel' })) },
  { name: 'maxUnavailable 0% when Parallel', object: statefulSetCase('mu-zeropct', ru({ maxUnavailable: '0%' }, { podManagementPolicy: 'Parallel' })) },
  { name: 'an unknown podUpdatePolicy', object: statefulSetCase('pup', ru({ podUpdatePolicy: 'Sometimes' })) },
  { name: 'unorderedUpdate when OrderedReady', object: statefulSetCase('unordered', ru({ unorderedUpdate: { priorityStrategy: {} } })) },
  { name: 'scaleStrategy maxUnavailable 3 when OrderedReady', object: statefulSetCase('scale-mu', { scaleStrategy: { maxUnavailable: 3 } }) },
  { name: 'an unknown PVC retention', object: statefulSetCase('retention', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }) },
  { name: 'PVC retention Delete', object: statefulSetCase('retention-ok', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } }) },
  { name: 'an unknown volumeClaimUpdateStrategy', object: statefulSetCase('vcus', { volumeClaimUpdateStrategy: { type: 'Always' } }) },
  { name: 'a negative reserved ordinal', object: statefulSetCase('reserve', { reserveOrdinals: [1, -2] }) },
  { name: 'a reserved ordinal range', object: statefulSetCase('reserve-ok', { reserveOrdinals: [1, '3-5'] }) },
  { name: 'a name of 53 characters', object: statefulSetCase('s'.repeat(53)) },
  {
    name: 'a template label apps.kruise.io/pod-index',
    object: statefulSetCase('reserved', {}, { app: 'db', 'apps.kruise.io/pod-index': '0' }),
  },
  {
    name: 'UPDATE: serviceName changed',
    old: statefulSetCase('upd-svc'),
    object: statefulSetCase('upd-svc', { serviceName: 'other' }),
  },
  {
    name: 'UPDATE: podManagementPolicy changed',
    old: statefulSetCase('upd-pmp'),
    object: statefulSetCase('upd-pmp', { podManagementPolicy: 'Parallel' }),
  },
  {
    name: 'UPDATE: podManagementPolicy written as its default',
    old: statefulSetCase('upd-pmp-default'),
    object: statefulSetCase('upd-pmp-default', { podManagementPolicy: 'OrderedReady' }),
  },
  {
    name: 'UPDATE: the selector changed',
    old: statefulSetCase('upd-sel', {}, { app: 'db', tier: 'a' }),
    object: statefulSetCase('upd-sel', { selector: { matchLabels: { app: 'db', tier: 'a' } } }, { app: 'db', tier: 'a' }),
  },
  {
    name: 'UPDATE: replicas and image changed',
    old: statefulSetCase('upd-ok'),
    object: statefulSetCase('upd-ok', {
      replicas: 4,
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
    }),
  },
  {
    name: 'a reserved ordinal range upside down',
    object: statefulSetCase('reserve-range', { reserveOrdinals: ['5-3'] }),
    webhookOnly: 'ordinal ranges are parsed in code',
  },
  {
    name: 'a container without image',
    object: statefulSetCase('noimage', { template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'main' }] } } }),
    webhookOnly: "the pod template's contents are apimachinery's pod validation, code",
  },
];
