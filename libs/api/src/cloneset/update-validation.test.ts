import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultCloneSet } from './defaults.js';
import type { Container, PodSpec } from '../core/pod-types.js';
import type { CloneSet } from './types.js';
import { inPlaceOnlyViolation, validateCloneSetUpdate, withoutEmpty } from './update-validation.js';

const pod = (cs: CloneSet): PodSpec => (cs.spec.template.spec ??= { containers: [] });
const container = (cs: CloneSet, i: number): Container => {
  const c = pod(cs).containers[i];
  if (!c) throw new Error(`no container ${i}`);
  return c;
};


const SPEC_FORBIDDEN =
  "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', " +
  "'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden";

function cloneSet(mutate?: (cs: CloneSet) => void): CloneSet {
  const cs = defaultCloneSet({
    metadata: { name: 'cs', namespace: 'default', uid: 'u1' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'cs' } },
      template: {
        metadata: { labels: { app: 'cs' } },
        spec: { containers: [{ name: 'main', image: 'app:v1', imagePullPolicy: 'IfNotPresent' }] },
      },
      updateStrategy: { type: 'ReCreate', maxUnavailable: 1 },
    },
  });
  mutate?.(cs);
  return defaultCloneSet(cs);
}

const errorsOf = (next: CloneSet, old: CloneSet) => validateCloneSetUpdate(next, old).map(formatFieldError);

describe('validateCloneSetUpdate', () => {
  it('accepts a change of every mutable field at once (upstream success case)', () => {
    const old = cloneSet((cs) => {
      cs.spec.revisionHistoryLimit = 2;
      cs.spec.scaleStrategy = { podsToDelete: ['p1'] };
      cs.spec.volumeClaimTemplates = [{ metadata: { name: 'foo' }, spec: { resources: { requests: { storage: '60Gi' } } } }];
    });
    const next = cloneSet((cs) => {
      cs.spec.replicas = 1;
      cs.spec.revisionHistoryLimit = 1;
      cs.spec.minReadySeconds = 5;
      cs.spec.progressDeadlineSeconds = 60;
      cs.spec.lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } };
      cs.spec.scaleStrategy = { podsToDelete: ['p0'], disablePVCReuse: true };
      cs.spec.volumeClaimTemplates = [{ metadata: { name: 'foo' }, spec: { resources: { requests: { storage: '30Gi' } } } }];
      cs.spec.updateStrategy = { type: 'InPlaceOnly', partition: 2, maxUnavailable: 1 };
      container(cs, 0).image = 'app:v2';
    });
    expect(errorsOf(next, old)).toEqual([]);
  });

  it.each<[string, (cs: CloneSet) => void]>([
    ['the selector', (cs) => (cs.spec.selector = { matchLabels: { app: 'cs', extra: 'x' } })],
    ['the selector to an expression form', (cs) => (cs.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['cs'] }] })],
  ])('forbids changing %s', (_name, mutate) => {
    const old = cloneSet();
    const next = cloneSet((cs) => {
      mutate?.(cs);
      (cs.spec.template.metadata ??= {}).labels = { app: 'cs', extra: 'x' };
    });
    expect(errorsOf(next, old)).toEqual([SPEC_FORBIDDEN]);
  });

  it('treats an empty and an absent list in the selector as equal (Go semantic equality)', () => {
    const old = cloneSet();
    const next = cloneSet((cs) => (cs.spec.selector = { matchLabels: { app: 'cs' }, matchExpressions: [] }));
    expect(errorsOf(next, old)).toEqual([]);
  });

  describe('InPlaceOnly', () => {
    const inPlace = (mutate?: (cs: CloneSet) => void) =>
      cloneSet((cs) => {
        cs.spec.updateStrategy = { type: 'InPlaceOnly', maxUnavailable: 1 };
        pod(cs).containers.push({ name: 'side', image: 'side:v1', imagePullPolicy: 'IfNotPresent' });
        mutate?.(cs);
      });

    it.each<[string, (cs: CloneSet) => void]>([
      ['one image', (cs) => (container(cs, 1).image = 'side:v2')],
      ['every image', (cs) => pod(cs).containers.forEach((c, i) => (c.image = `img:${i}`))],
      ['template metadata (labels, annotations)', (cs) => ((cs.spec.template.metadata ??= {}).annotations = { a: 'b' })],
      ['nothing in the template', (cs) => (cs.spec.replicas = 5)],
    ])('allows changing %s', (_name, mutate) => {
      expect(errorsOf(inPlace(mutate), inPlace())).toEqual([]);
    });

    it.each<[string, (cs: CloneSet) => void, string]>([
      ['the pull policy', (cs) => (container(cs, 0).imagePullPolicy = 'Always'), 'replace /containers/0/imagePullPolicy'],
      ['an env var', (cs) => (container(cs, 0).env = [{ name: 'A', value: '1' }]), 'add /containers/0/env'],
      ['resources', (cs) => (container(cs, 0).resources = { limits: { cpu: '1' } }), 'add /containers/0/resources'],
      ['a new container', (cs) => pod(cs).containers.push({ name: 'x', image: 'x' }), 'add /containers/2'],
      ['a removed container', (cs) => pod(cs).containers.pop(), 'remove /containers/1'],
      ['a pod-level field', (cs) => (pod(cs).nodeSelector = { zone: 'a' }), 'add /nodeSelector'],
    ])('forbids changing %s', (_name, mutate, op) => {
      expect(errorsOf(inPlace(mutate), inPlace())).toEqual([`spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found ${op}`]);
    });

    it('applies the rule of the new strategy type', () => {
      const recreate = cloneSet();
      const toInPlace = cloneSet((cs) => {
        cs.spec.updateStrategy = { type: 'InPlaceOnly', maxUnavailable: 1 };
        container(cs, 0).env = [{ name: 'A', value: '1' }];
      });
      expect(errorsOf(toInPlace, recreate)).toEqual([
        'spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env',
      ]);
      const back = cloneSet((cs) => (container(cs, 0).env = [{ name: 'A', value: '1' }]));
      expect(errorsOf(back, inPlace())).toEqual([]);
    });

    it('ignores empty lists and maps the way a Go round trip does', () => {
      const next = inPlace((cs) => {
        container(cs, 0).env = [];
        container(cs, 0).resources = {};
      });
      expect(inPlaceOnlyViolation(inPlace(), next)).toBeUndefined();
    });
  });

  it('reports the CREATE rules too, and looks up only newly added podsToDelete', () => {
    const old = cloneSet((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['gone'] }));
    const next = cloneSet((cs) => {
      cs.spec.replicas = -1;
      cs.spec.scaleStrategy = { podsToDelete: ['gone', 'new'] };
    });
    const looked: string[] = [];
    const errs = validateCloneSetUpdate(next, old, { getPod: (n) => (looked.push(n), null) }).map(formatFieldError);
    expect(looked).toEqual(['new']);
    expect(errs).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.scaleStrategy.podsToDelete: Invalid value: "new": find pod new failed: pods "new" not found',
    ]);
  });
});

describe('withoutEmpty', () => {
  it.each([
    [{ a: [], b: {}, c: null, d: 0, e: '', f: false }, { d: 0, e: '', f: false }],
    [{ a: { b: { c: [] } } }, undefined],
    [[{}, 1], [null, 1]],
    [{ list: [{ x: [] }] }, { list: [null] }],
  ])('%j → %j', (input, want) => {
    expect(withoutEmpty(input)).toEqual(want);
  });
});
