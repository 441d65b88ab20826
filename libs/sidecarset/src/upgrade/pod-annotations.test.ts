// The upgrade controller's pod annotations from their raw values (pod-annotations.ts), and each read once per pod
// version (annotation-memo.ts, through pod-state.ts): the reconcile reads them for every matched pod on every pod event.
import { StringTable } from '@regatta/bus';
import { describe, expect, it } from 'vitest';
import { annotationMemo } from './annotation-memo.js';
import { SIDECARSET_HASH_KEY, SIDECARSET_HASH_WITHOUT_IMAGE_KEY, SIDECARSET_LIST_KEY } from './keys.js';
import { hashEntriesOf, injectedListOf, updateStatesOf, workingTwinsOf } from './pod-annotations.js';
import {
  injectedSidecarSets,
  isPodSidecarUpdated,
  podHashEntries,
  readSidecarUpdateStates,
  workingHotUpgradeContainers,
} from './pod-state.js';
import { hotPod, pod, sidecarSet } from './testing/fixtures.js';

describe('hashEntriesOf', () => {
  const entry = {
    updateTimestamp: '2026-12-03T08:00:00Z',
    hash: 'h2',
    sidecarSetName: 's',
    sidecarList: ['a'],
  };
  it.each([
    ['absent', undefined, {}],
    ['empty', '', {}],
    ['not JSON', '{"s":', {}],
    ['a JSON array', '["s"]', {}],
    ['a JSON string', '"s"', {}],
    ['entries', JSON.stringify({ s: entry }), { s: entry }],
    ['the old {name: hash} format', '{"s":"h1","t":"h2"}', { s: { hash: 'h1' }, t: { hash: 'h2' } }],
    ['values neither string nor object dropped', '{"s":3,"t":null,"u":"h"}', { u: { hash: 'h' } }],
  ])('%s', (_, raw, want) => {
    const got = hashEntriesOf(raw);
    expect(got).toEqual(want);
    expect(Object.isFrozen(got)).toBe(true);
    for (const v of Object.values(got)) expect(Object.isFrozen(v)).toBe(true);
  });
});

describe('with a string table', () => {
  it('equal hash entries and injected lists are one frozen copy', () => {
    const table = new StringTable();
    const raw = (ts: string) =>
      JSON.stringify({ s: { updateTimestamp: ts, hash: 'h2', sidecarList: ['a'] }, t: 'h1' });
    const a = hashEntriesOf(raw('2026-12-03T08:00:00Z'), table);
    const b = hashEntriesOf(raw('2026-12-03T08:00:00Z'), table);
    const c = hashEntriesOf(raw('2026-12-03T08:00:01Z'), table);
    expect(a).toEqual(hashEntriesOf(raw('2026-12-03T08:00:00Z')));
    expect(b['s']).toBe(a['s']);
    expect(b['t']).toBe(a['t']);
    expect(c['s']).not.toBe(a['s']);
    expect(c['s']?.hash).toBe('h2');
    expect(Object.isFrozen(a['s']?.sidecarList)).toBe(true);
    expect(injectedListOf('x,y', table)).toBe(injectedListOf('x,y', table));
    expect(injectedListOf('x,y', table)).toEqual(['x', 'y']);
  });
});

describe('workingTwinsOf, updateStatesOf, injectedListOf', () => {
  it.each([
    [undefined, {}],
    ['', {}],
    ['[1]', {}],
    ['{"hot":"hot-1","cold":2}', { hot: 'hot-1' }],
  ])('working twins of %j', (raw, want) => {
    expect(workingTwinsOf(raw)).toEqual(want);
    expect(Object.isFrozen(workingTwinsOf(raw))).toBe(true);
  });
  it.each([
    [undefined, undefined],
    ['', 'invalid'],
    ['not json', 'invalid'],
    ['[]', 'invalid'],
    [
      '{"s":{"revision":"r","updateTimestamp":"t","lastContainerStatuses":null}}',
      { s: { revision: 'r', updateTimestamp: 't', lastContainerStatuses: null } },
    ],
  ])('update states of %j', (raw, want) => {
    expect(updateStatesOf(raw)).toEqual(want);
  });
  it.each([
    [undefined, []],
    ['', []],
    ['a', ['a']],
    ['a,b', ['a', 'b']],
  ])('injected list %j', (raw, want) => {
    expect(injectedListOf(raw)).toEqual(want);
    expect(Object.isFrozen(injectedListOf(raw))).toBe(true);
  });
});

describe('annotationMemo', () => {
  const counting = () => {
    let calls = 0;
    const read = annotationMemo('k', (raw) => {
      calls++;
      return { raw };
    });
    return { read, calls: () => calls };
  };
  it('derives once per annotations object and raw value', () => {
    const m = counting();
    const a = { k: 'v1' };
    const first = m.read(a);
    expect(m.read(a)).toBe(first);
    expect(m.calls()).toBe(1);
    // another object with the same value is another pod version
    expect(m.read({ k: 'v1' })).toEqual(first);
    expect(m.calls()).toBe(2);
  });
  it('an annotations object changed in place is read again', () => {
    const m = counting();
    const a: Record<string, string> = { k: 'v1' };
    expect(m.read(a)).toEqual({ raw: 'v1' });
    a['k'] = 'v2';
    expect(m.read(a)).toEqual({ raw: 'v2' });
    delete a['k'];
    expect(m.read(a)).toEqual({ raw: undefined });
    expect(m.calls()).toBe(3);
  });
  it('no annotations, or no such key: derived from undefined each time, nothing kept', () => {
    const m = counting();
    expect(m.read(undefined)).toEqual({ raw: undefined });
    expect(m.read({ other: 'x' })).toEqual({ raw: undefined });
    expect(m.calls()).toBe(2);
  });
});

describe('pod-state reads each annotation once per pod version', () => {
  it('the same pod object gives the same parsed value; a new version of the pod is parsed anew', () => {
    const p = pod({ updated: true });
    const entries = podHashEntries(p);
    expect(podHashEntries(p)).toBe(entries);
    expect(podHashEntries(p, SIDECARSET_HASH_WITHOUT_IMAGE_KEY)).toBe(
      podHashEntries(p, SIDECARSET_HASH_WITHOUT_IMAGE_KEY),
    );
    expect(injectedSidecarSets(p)).toBe(injectedSidecarSets(p));
    // another pod with the same annotations holds the same entries (one copy for a SidecarSet's pods)
    const twin = pod({ name: 'pod-1', updated: true });
    expect(podHashEntries(twin)['test-sidecarset']).toBe(entries['test-sidecarset']);
    expect(isPodSidecarUpdated(sidecarSet(), p)).toBe(true);
    const hot = hotPod({ one: 'hot-image:v1', two: 'empty:1' });
    expect(workingHotUpgradeContainers(hot)).toBe(workingHotUpgradeContainers(hot));
    // the pod's next version: the cache holds a new object, with new annotations
    const next = {
      ...p,
      metadata: {
        ...p.metadata,
        annotations: {
          ...p.metadata?.annotations,
          [SIDECARSET_HASH_KEY]: JSON.stringify({ 'test-sidecarset': { hash: 'h1' } }),
          [SIDECARSET_LIST_KEY]: 'test-sidecarset,other',
        },
      },
    };
    expect(podHashEntries(next)).not.toBe(entries);
    expect(isPodSidecarUpdated(sidecarSet(), next)).toBe(false);
    expect(injectedSidecarSets(next)).toEqual(['test-sidecarset', 'other']);
    expect(readSidecarUpdateStates(next)).toBeUndefined();
  });
});
