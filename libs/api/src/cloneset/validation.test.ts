import { describe, expect, it } from 'vitest';
import { formatFieldError, type KubeObject } from '@regatta/kube';
import { defaultCloneSet } from './defaults.js';
import type { Container, PodSpec } from '../core/pod-types.js';
import type { CloneSet } from './types.js';
import { podsToDeleteToCheck, validateCloneSet, type CloneSetValidationContext } from './validation.js';

const us = (cs: CloneSet): NonNullable<CloneSet['spec']['updateStrategy']> => (cs.spec.updateStrategy ??= {});
const pod = (cs: CloneSet): PodSpec => (cs.spec.template.spec ??= { containers: [] });
const meta = (cs: CloneSet): NonNullable<CloneSet['metadata']> => (cs.metadata ??= {});
const container = (cs: CloneSet, i: number): Container => {
  const c = pod(cs).containers[i];
  if (!c) throw new Error(`no container ${i}`);
  return c;
};


const UID = 'uid-cs';

/** A valid, defaulted CloneSet; `mutate` edits it before validation. */
function cloneSet(mutate?: (cs: CloneSet) => void): CloneSet {
  const cs = defaultCloneSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'default', uid: UID },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'cs' } },
      template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
    },
  });
  mutate?.(cs);
  return cs;
}

const errorsOf = (cs: CloneSet, ctx?: CloneSetValidationContext) => validateCloneSet(cs, ctx).map(formatFieldError);

describe('validateCloneSet', () => {
  it('accepts a valid defaulted CloneSet', () => {
    expect(errorsOf(cloneSet())).toEqual([]);
  });

  it('accepts a raw (not defaulted) CloneSet the same way', () => {
    const raw: CloneSet = {
      metadata: { name: 'cs', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'cs' } },
        template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
      },
    };
    expect(errorsOf(raw)).toEqual([]);
  });

  // upstream validation_test.go success cases
  it.each<[string, (cs: CloneSet) => void]>([
    ['partition above replicas', (cs) => (cs.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 })],
    ['maxUnavailable 0 with maxSurge 1', (cs) => (cs.spec.updateStrategy = { type: 'ReCreate', partition: 2, maxUnavailable: 0, maxSurge: 1 })],
    ['maxUnavailable 120%', (cs) => (cs.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: '120%' })],
    ['a percentage with decimals', (cs) => (cs.spec.updateStrategy = { type: 'ReCreate', partition: '99.5%', maxUnavailable: '12.5%' })],
    ['replicas 0 with maxUnavailable 0', (cs) => {
      cs.spec.replicas = 0;
      cs.spec.updateStrategy = { type: 'ReCreate', maxUnavailable: 0, maxSurge: 0 };
    }],
    ['a weight of 0 and one of 100', (cs) => {
      us(cs).priorityStrategy = {
        weightPriority: [
          { weight: 0, matchSelector: { matchLabels: { a: 'b' } } },
          { weight: 100, matchSelector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] } },
        ],
      };
    }],
    ['one key with several scatter values', (cs) => (us(cs).scatterStrategy = [{ key: 'k', value: 'a' }, { key: 'k', value: 'b' }])],
    ['progressDeadlineSeconds MaxInt32 with minReadySeconds MaxInt32', (cs) => {
      cs.spec.progressDeadlineSeconds = 2147483647;
      cs.spec.minReadySeconds = 2147483647;
    }],
    ['progressDeadlineSeconds above minReadySeconds', (cs) => {
      cs.spec.progressDeadlineSeconds = 10;
      cs.spec.minReadySeconds = 5;
    }],
    ['mounts of volume claim templates', (cs) => {
      cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' } }];
      container(cs, 0).volumeMounts = [{ name: 'data', mountPath: '/data' }];
    }],
    ['lifecycle hooks (not validated upstream)', (cs) => (cs.spec.lifecycle = { preDelete: { finalizersHandler: ['x/y'], markPodNotReady: true } })],
  ])('accepts %s', (_name, mutate) => {
    expect(errorsOf(cloneSet(mutate))).toEqual([]);
  });

  it.each<[string, (cs: CloneSet) => void, string[]]>([
    ['negative replicas', (cs) => (cs.spec.replicas = -1), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'no selector',
      (cs) => delete (cs.spec as { selector?: unknown }).selector,
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"cs"}: `selector` does not match template `labels`'],
    ],
    ['an empty selector', (cs) => (cs.spec.selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for cloneset']],
    [
      'an empty matchLabels selector',
      (cs) => (cs.spec.selector = { matchLabels: {} }),
      ['spec.selector: Invalid value: {"matchLabels":{}}: empty selector is invalid for cloneset'],
    ],
    [
      'a selector not matching the template',
      (cs) => (cs.spec.selector = { matchLabels: { app: 'other' } }),
      ['spec.template.metadata.labels: Invalid value: {"app":"cs"}: `selector` does not match template `labels`'],
    ],
    [
      'a selector that does not parse (template checks are skipped)',
      (cs) => {
        cs.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Bad' }] };
        pod(cs).containers = [];
      },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Bad"}]}',
      ],
    ],
    [
      'restartPolicy Never',
      (cs) => (pod(cs).restartPolicy = 'Never'),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'activeDeadlineSeconds',
      (cs) => (pod(cs).activeDeadlineSeconds = 10),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in cloneset is not Supported'],
    ],
    ['a template without containers', (cs) => (pod(cs).containers = []), ['spec.template.spec.containers: Required value']],
    [
      'a mount of an unknown volume',
      (cs) => (container(cs, 0).volumeMounts = [{ name: 'data', mountPath: '/data' }]),
      ['spec.template.spec.containers[0].volumeMounts[0].name: Invalid value: "data": not found'],
    ],
    [
      'a template volume with the name of a claim template',
      (cs) => {
        cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' } }];
        pod(cs).volumes = [{ name: 'data', emptyDir: {} }];
      },
      ['spec.template.spec.volumes[1].name: Duplicate value: "data"'],
    ],
    [
      'duplicate podsToDelete',
      (cs) => (cs.spec.scaleStrategy = { podsToDelete: ['p0', 'p1', 'p0'] }),
      ['spec.scaleStrategy.podsToDelete: Invalid value: ["p0","p1","p0"]: duplicated items [p0]'],
    ],
    [
      'updateStrategy.type OnDelete',
      (cs) => (us(cs).type = 'OnDelete'),
      ["spec.updateStrategy.type: Invalid value: \"OnDelete\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"],
    ],
    [
      'an unknown updateStrategy.type',
      (cs) => (us(cs).type = 'Rolling'),
      ["spec.updateStrategy.type: Invalid value: \"Rolling\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"],
    ],
    [
      'a numeric-string partition (rejected since v1.9)',
      (cs) => (us(cs).partition = '5'),
      ['spec.updateStrategy.partition: Invalid value: "5": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage'],
    ],
    [
      'a partition that is not a number',
      (cs) => (us(cs).partition = 'abc%'),
      ['spec.updateStrategy.partition: Invalid value: "abc%": failed GetScaledValueFromIntOrPercent for partition: strconv.ParseFloat: parsing "abc": invalid syntax'],
    ],
    ['a negative partition', (cs) => (us(cs).partition = -1), ['spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0']],
    ['a negative percentage partition', (cs) => (us(cs).partition = '-150%'), ['spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0']],
    [
      'a numeric-string maxUnavailable (maxSurge 2)',
      (cs) => Object.assign(us(cs), { maxUnavailable: '5', maxSurge: 2 }),
      ['spec.updateStrategy.maxUnavailable: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage'],
    ],
    [
      'a numeric-string maxSurge (maxUnavailable 2)',
      (cs) => Object.assign(us(cs), { maxUnavailable: 2, maxSurge: '5' }),
      ['spec.updateStrategy.maxSurge: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage'],
    ],
    [
      'maxUnavailable and maxSurge both 0',
      (cs) => Object.assign(us(cs), { maxUnavailable: 0, maxSurge: 0 }),
      ['spec.updateStrategy.maxUnavailable: Invalid value: 0: maxUnavailable and maxSurge should not both be less than 1'],
    ],
    [
      'maxUnavailable 0% and maxSurge 0%',
      (cs) => Object.assign(us(cs), { maxUnavailable: '0%', maxSurge: '0%' }),
      ['spec.updateStrategy.maxUnavailable: Invalid value: "0%": maxUnavailable and maxSurge should not both be less than 1'],
    ],
    [
      'maxSurge with InPlaceOnly',
      (cs) => Object.assign(us(cs), { type: 'InPlaceOnly', maxSurge: 1 }),
      ['spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly'],
    ],
    [
      'a percentage maxSurge with InPlaceOnly',
      (cs) => Object.assign(us(cs), { type: 'InPlaceOnly', maxSurge: '10%' }),
      ['spec.updateStrategy.maxSurge: Invalid value: "10%": can not use maxSurge with strategy type InPlaceOnly'],
    ],
    [
      'weight and order priorities together',
      (cs) =>
        (us(cs).priorityStrategy = {
          weightPriority: [{ weight: 10, matchSelector: { matchLabels: { a: 'b' } } }],
          orderPriority: [{ orderedKey: 'k' }],
        }),
      ['spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ],
    [
      'a weight above 100',
      (cs) => (us(cs).priorityStrategy = { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] }),
      ['spec.updateStrategy.priorityStrategy: Required value: weight must be valid number in the range 1-100'],
    ],
    [
      'a negative weight',
      (cs) => (us(cs).priorityStrategy = { weightPriority: [{ weight: -1, matchSelector: { matchLabels: { a: 'b' } } }] }),
      ['spec.updateStrategy.priorityStrategy: Required value: weight must be valid number in the range 1-100'],
    ],
    [
      'a weight term with an empty selector',
      (cs) => (us(cs).priorityStrategy = { weightPriority: [{ weight: 1, matchSelector: {} }] }),
      ['spec.updateStrategy.priorityStrategy: Required value: selector can not be empty'],
    ],
    [
      'a weight term with an invalid selector',
      (cs) =>
        (us(cs).priorityStrategy = {
          weightPriority: [{ weight: 1, matchSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] } }],
        }),
      [
        "spec.updateStrategy.priorityStrategy: Required value: invalid selector matchSelector.matchExpressions[0].values: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'an empty orderedKey',
      (cs) => (us(cs).priorityStrategy = { orderPriority: [{ orderedKey: '' }] }),
      ['spec.updateStrategy.priorityStrategy: Required value: order key can not be empty'],
    ],
    [
      'an empty scatter key',
      (cs) => (us(cs).scatterStrategy = [{ key: '', value: 'a' }]),
      ['spec.updateStrategy.scatterStrategy: Required value: key should not be empty'],
    ],
    [
      'a duplicated scatter term',
      (cs) => (us(cs).scatterStrategy = [{ key: 'zone', value: 'a' }, { key: 'zone', value: 'a' }]),
      ['spec.updateStrategy.scatterStrategy: Required value: duplicated key=zone value=a'],
    ],
    [
      'a negative progressDeadlineSeconds',
      (cs) => (cs.spec.progressDeadlineSeconds = -1),
      [
        'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds',
      ],
    ],
    [
      'progressDeadlineSeconds equal to minReadySeconds',
      (cs) => {
        cs.spec.progressDeadlineSeconds = 10;
        cs.spec.minReadySeconds = 10;
      },
      ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
    ],
    ['no name', (cs) => delete meta(cs).name, ['metadata.name: Required value: name or generateName is required']],
    ['no namespace', (cs) => delete meta(cs).namespace, ['metadata.namespace: Required value']],
  ])('rejects %s', (_name, mutate, want) => {
    expect(errorsOf(cloneSet(mutate))).toEqual(want);
  });

  it('reports an invalid name with the DNS-1123 subdomain message', () => {
    const errs = errorsOf(cloneSet((cs) => (meta(cs).name = 'Bad_Name')));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  });

  it('reports template labels, container names, images, ports and policies', () => {
    const errs = errorsOf(
      cloneSet((cs) => {
        cs.spec.selector = { matchLabels: { app: 'cs' } };
        (cs.spec.template.metadata ??= {}).labels = { app: 'cs', 'bad key': 'v' };
        pod(cs).containers = [
          { name: 'main', image: 'nginx', ports: [{ containerPort: 0, protocol: 'HTTP' }, { name: 'web', containerPort: 70000 }] },
          { name: 'main', imagePullPolicy: 'Sometimes' },
        ];
        pod(cs).dnsPolicy = 'Weird';
      }),
    );
    expect(errs).toEqual([
      expect.stringMatching(/^spec\.template\.labels: Invalid value: "bad key": name part must consist of/),
      'spec.template.spec.containers[0].ports[0].containerPort: Required value',
      'spec.template.spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.template.spec.containers[1].name: Duplicate value: "main"',
      'spec.template.spec.containers[1].image: Required value',
      'spec.template.spec.containers[1].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      'spec.template.spec.dnsPolicy: Unsupported value: "Weird": supported values: "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"',
    ]);
  });

  describe('podsToDelete look-ups', () => {
    const pod = (name: string, extra: Partial<NonNullable<KubeObject['metadata']>> = {}): KubeObject => ({
      metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: UID, controller: true }], ...extra },
    });
    const pods = new Map<string, KubeObject>([
      ['owned', pod('owned')],
      ['terminating', pod('terminating', { deletionTimestamp: '2025-01-01T00:00:00Z' })],
      ['foreign', pod('foreign', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'other', controller: true }] })],
      ['orphan', pod('orphan', { ownerReferences: [] })],
    ]);
    const ctx: CloneSetValidationContext = { getPod: (n) => pods.get(n) ?? null };

    it.each([
      ['owned', []],
      ['missing', ['spec.scaleStrategy.podsToDelete: Invalid value: "missing": find pod missing failed: pods "missing" not found']],
      ['terminating', ['spec.scaleStrategy.podsToDelete: Invalid value: "terminating": find pod terminating already terminating']],
      ['foreign', ['spec.scaleStrategy.podsToDelete: Invalid value: "foreign": find pod foreign owner is not this CloneSet']],
      ['orphan', ['spec.scaleStrategy.podsToDelete: Invalid value: "orphan": find pod orphan owner is not this CloneSet']],
    ])('%s', (name, want) => {
      expect(errorsOf(cloneSet((cs) => (cs.spec.scaleStrategy = { podsToDelete: [name] })), ctx)).toEqual(want);
    });

    it('skips the look-ups without a getPod', () => {
      expect(errorsOf(cloneSet((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['missing'] })))).toEqual([]);
    });

    it('names only the newly added pods for the look-ups, sorted', () => {
      const old = cloneSet((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['a', 'b'] }));
      const cur = cloneSet((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['d', 'b', 'c'] }));
      expect(podsToDeleteToCheck(cur, old)).toEqual(['c', 'd']);
      expect(podsToDeleteToCheck(cur)).toEqual(['b', 'c', 'd']);
    });
  });
});
