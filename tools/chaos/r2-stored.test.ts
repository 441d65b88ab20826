import { describe, expect, it } from 'vitest';
import { actedOn, bystanderHarm, clusterRuleOnly, countOf, refusalOf } from './r2-stored.js';

describe('R2 with the webhooks removed: what counts as refused and as acted on', () => {
  it.each([
    ['nothing owned, no status, no finalizer', {}, [], undefined],
    ['an empty status', { status: {} }, [], undefined],
    ['pods owned', {}, ['Pod a-1'], /owns Pod a-1/],
    ['a status written', { status: { observedGeneration: 1 } }, [], /status written/],
    ['a finalizer added', { metadata: { finalizers: ['apps.kruise.io/x'] } }, [], /finalizers added/],
  ])('%s', (_n, obj, owned, want) => {
    const got = actedOn(obj as never, owned);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it.each([
    ['no event', [], undefined],
    [
      'a Normal event only',
      [{ type: 'Normal', reason: 'InvalidSpec', message: 'spec.replicas: x' }],
      undefined,
    ],
    ['another reason', [{ type: 'Warning', reason: 'FailedCreate', message: 'spec.replicas: x' }], undefined],
    [
      'InvalidSpec naming a field',
      [
        {
          type: 'Warning',
          reason: 'InvalidSpec',
          message: 'not acting on this CloneSet until it is fixed: spec.replicas: Invalid value: -1',
        },
      ],
      'named',
    ],
    [
      'InvalidSpec naming no field',
      [{ type: 'Warning', reason: 'InvalidSpec', message: 'broken' }],
      'unnamed',
    ],
  ])('%s', (_n, events, want) => {
    expect(refusalOf(events)).toBe(want);
  });
});

describe('a webhook refusal by a cluster rule only is not judged', () => {
  it.each([
    [
      'podsToDelete naming no pod',
      { causes: [{ message: 'find pod UPPER failed: pods "UPPER" not found' }] },
      true,
    ],
    [
      'a cluster rule and an own rule',
      {
        causes: [
          { message: 'find pod x failed: pods "x" not found' },
          { message: 'failed GetScaledValueFromIntOrPercent for maxUnavailable' },
        ],
      },
      false,
    ],
    [
      'a sidecar of another SidecarSet',
      { causes: [{ message: 'container sidecar already exist in fz-3' }] },
      true,
    ],
    ['the dry-run create', { causes: [{ message: 'spec.resource is invalid: data keys' }] }, true],
    ['no causes, an own rule in the message', { message: 'spec.replicas: Invalid value: -1' }, false],
  ])('%s', (_n, r, want) => {
    expect(clusterRuleOnly(r)).toBe(want);
  });
});

describe('the bystander pod of the second half', () => {
  const pod = (uid: string, containers: unknown[], labels: Record<string, string> = { app: 'chaos-bystander' }, ownerReferences?: unknown[]) =>
    ({ metadata: { uid, labels, ...(ownerReferences ? { ownerReferences } : {}) }, spec: { containers } }) as never;
  const c = [{ name: 'main', image: 'busybox:1.37' }];
  it.each([
    ['untouched', pod('u', c), undefined],
    ['deleted', undefined, /^deleted$/],
    ['created again', pod('v', c), /created again/],
    ['a sidecar added', pod('u', [...c, { name: 'agent', image: 'x' }]), /changed/],
    ['relabelled', pod('u', c, { app: 'x' }), /relabelled/],
    ['a label added', pod('u', c, { app: 'chaos-bystander', 'controller-revision-hash': 'h' }), /relabelled/],
    ['given its zone by the node simulator', pod('u', c, { app: 'chaos-bystander', 'topology.kubernetes.io/zone': 'zone-a' }), undefined],
    ['adopted', pod('u', c, undefined, [{ kind: 'CloneSet', name: 'sv-1' }]), /adopted \(CloneSet sv-1\)/],
  ])('%s', (_n, after, want) => {
    const got = bystanderHarm(pod('u', c), after);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });
});

describe('how many objects a namespace being deleted still holds, read as one item and a count', () => {
  it.each([
    ['empty', { items: [], metadata: {} }, '0'],
    ['one page holds all', { items: [1, 2], metadata: {} }, '2'],
    ['one of many', { items: [1], metadata: { remainingItemCount: 2897, continue: 'c' } }, '2898'],
    ['more, not counted', { items: [1], metadata: { continue: 'c' } }, 'more than 1'],
  ])('%s', (_n, page, want) => expect(countOf(page)).toBe(want));
});
