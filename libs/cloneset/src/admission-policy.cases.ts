// CloneSet's validation table for the policy parity test (admission-policy.int.test.ts): each case goes through the
// webhook's validator and through the ValidatingAdmissionPolicy; `webhookOnly` cases name why CEL does not check them.
import { policyCaseObjects, type PolicyCase } from '@regatta/workload';

type Spec = Record<string, unknown>;

/** One row (libs/workload admission-policy-cases.ts). */
export type ValidationCase = PolicyCase;

const objects = policyCaseObjects({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', app: 'web', spec: { replicas: 2 } });

/** A valid, raw (not defaulted) CloneSet named `name`; `spec` is merged over its spec. */
export const cloneSetCase = objects.object;

const podSpec = objects.podSpec;
const us = (strategy: Spec, spec: Spec = {}): Spec => ({ updateStrategy: strategy, ...spec });

export const CLONESET_PROBE = cloneSetCase('probe', podSpec({ restartPolicy: 'Never' }));

export const CLONESET_PARITY_CASES: readonly ValidationCase[] = [
  { name: 'a valid CloneSet', object: cloneSetCase('ok') },
  { name: 'percentages that parse', object: cloneSetCase('pct', us({ partition: '50%', maxUnavailable: '12.5%', maxSurge: '1e1%' })) },
  { name: 'replicas -1', object: cloneSetCase('neg', { replicas: -1 }) },
  { name: 'an empty selector', object: cloneSetCase('empty-sel', { selector: {} }) },
  { name: 'a selector the template does not match', object: cloneSetCase('mismatch', { selector: { matchLabels: { app: 'other' } } }) },
  {
    name: 'matchExpressions the template matches',
    object: cloneSetCase('expr-ok', {
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'x'] }, { key: 'tier', operator: 'DoesNotExist' }] },
    }),
  },
  {
    name: 'a NotIn expression the template fails',
    object: cloneSetCase('expr-bad', { selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] } }),
  },
  { name: 'restartPolicy Never', object: cloneSetCase('never', podSpec({ restartPolicy: 'Never' })) },
  { name: 'restartPolicy Always', object: cloneSetCase('always', podSpec({ restartPolicy: 'Always' })) },
  { name: 'activeDeadlineSeconds', object: cloneSetCase('deadline', podSpec({ activeDeadlineSeconds: 10 })) },
  { name: 'an unknown update strategy type', object: cloneSetCase('type', us({ type: 'Rolling' })) },
  { name: 'a partition that is no percentage', object: cloneSetCase('part-str', us({ partition: 'abc' })) },
  { name: 'a partition of -1', object: cloneSetCase('part-neg', us({ partition: -1 })) },
  { name: 'a partition of -10%', object: cloneSetCase('part-negpct', us({ partition: '-10%' })) },
  { name: 'a maxUnavailable that does not parse', object: cloneSetCase('mu', us({ maxUnavailable: 'lots%' })) },
  { name: 'a maxSurge without %', object: cloneSetCase('ms', us({ maxSurge: '5' })) },
  { name: 'maxSurge with InPlaceOnly', object: cloneSetCase('inplace-surge', us({ type: 'InPlaceOnly', maxSurge: 1 })) },
  { name: 'maxUnavailable and maxSurge both 0', object: cloneSetCase('zero', us({ maxUnavailable: 0, maxSurge: 0 })) },
  { name: 'both 0 with no replicas', object: cloneSetCase('zero-empty', us({ maxUnavailable: 0 }, { replicas: 0 })) },
  { name: 'maxUnavailable 0% and a surge rounding up to 1', object: cloneSetCase('round', us({ maxUnavailable: '0%', maxSurge: '10%' })) },
  { name: 'maxUnavailable 10% rounding up to 1', object: cloneSetCase('round-mu', us({ maxUnavailable: '10%' })) },
  {
    name: 'weight and order priorities together',
    object: cloneSetCase('prio-both', us({ priorityStrategy: { weightPriority: [{ weight: 5, matchSelector: { matchLabels: { a: 'b' } } }], orderPriority: [{ orderedKey: 'k' }] } })),
  },
  {
    name: 'a weight of 200',
    object: cloneSetCase('prio-weight', us({ priorityStrategy: { weightPriority: [{ weight: 200, matchSelector: { matchLabels: { a: 'b' } } }] } })),
  },
  { name: 'an empty ordered key', object: cloneSetCase('prio-key', us({ priorityStrategy: { orderPriority: [{ orderedKey: '' }] } })) },
  { name: 'a scatter term without key', object: cloneSetCase('scatter', us({ scatterStrategy: [{ key: '', value: 'v' }] })) },
  { name: 'progressDeadlineSeconds -1', object: cloneSetCase('pds-neg', { progressDeadlineSeconds: -1 }) },
  { name: 'progressDeadlineSeconds below minReadySeconds', object: cloneSetCase('pds-low', { progressDeadlineSeconds: 5, minReadySeconds: 10 }) },
  { name: 'progressDeadlineSeconds the max int32', object: cloneSetCase('pds-max', { progressDeadlineSeconds: 2147483647, minReadySeconds: 10 }) },
  { name: 'a name of 53 characters', object: cloneSetCase('a'.repeat(53)) },
  { name: 'a name of 52 characters', object: cloneSetCase('b'.repeat(52)) },
  {
    name: 'a template label apps.kruise.io/specified-delete',
    object: cloneSetCase('reserved', {}, { app: 'web', 'apps.kruise.io/specified-delete': 'true' }),
  },
  {
    name: 'UPDATE: the selector changed',
    old: cloneSetCase('upd-sel', {}, { app: 'web', tier: 'a' }),
    object: cloneSetCase('upd-sel', { selector: { matchLabels: { app: 'web', tier: 'a' } } }, { app: 'web', tier: 'a' }),
  },
  {
    name: 'UPDATE: replicas and image changed',
    old: cloneSetCase('upd-ok'),
    object: cloneSetCase('upd-ok', {
      replicas: 5,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
    }),
  },
  {
    name: 'UPDATE: a reserved label the stored object already had (ratchet)',
    old: cloneSetCase('upd-ratchet', {}, { app: 'web', 'apps.kruise.io/specified-delete': 'true' }),
    object: cloneSetCase('upd-ratchet', { replicas: 3 }, { app: 'web', 'apps.kruise.io/specified-delete': 'true' }),
  },
  {
    name: 'duplicated podsToDelete',
    object: cloneSetCase('dups', { scaleStrategy: { podsToDelete: ['a', 'a'] } }),
    webhookOnly: 'list de-duplication is quadratic CEL over an unbounded list; the webhook also looks the pods up',
  },
  {
    name: 'a container without image',
    object: cloneSetCase('noimage', { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main' }] } } }),
    webhookOnly: "the pod template's contents are apimachinery's pod validation, code",
  },
  {
    name: 'an unknown selector operator',
    object: cloneSetCase('op', { selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'x', operator: 'Near' }] } }),
    webhookOnly: "the selector's syntax (operators, label keys and values) stays with the webhook",
  },
  {
    name: 'UPDATE: InPlaceOnly changing more than images',
    old: cloneSetCase('upd-inplace', us({ type: 'InPlaceOnly' })),
    object: cloneSetCase('upd-inplace', {
      ...us({ type: 'InPlaceOnly' }),
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine', args: ['x'] }] } },
    }),
    webhookOnly: 'the template diff is a JSON patch computed in code',
  },
];
