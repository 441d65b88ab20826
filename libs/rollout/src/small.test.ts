import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { isCloneSetPodAvailable, isCloneSetPodReady, isPodAvailable } from './availability.js';
import { isPodUpdate, splitPodsByUpdate } from './pod-update.js';
import { slowStartBatches } from './slow-start.js';
import {
  SPECIFIED_DELETE_KEY,
  isSpecifiedDelete,
  prunePodsToDelete,
  specifiedDeletePatch,
} from './specified-delete.js';

const now = new Date('2024-05-01T12:00:00Z');

describe('slowStartBatches (DoItSlowly)', () => {
  it.each([
    [0, []],
    [1, [1]],
    [3, [1, 2]],
    [10, [1, 2, 4, 3]],
    [16, [1, 2, 4, 8, 1]],
  ])('%i → %j', (n, batches) => {
    expect(slowStartBatches(n)).toEqual(batches);
  });
  it('honours a bigger initial batch', () => expect(slowStartBatches(7, 3)).toEqual([3, 4]));
});

describe('specified delete', () => {
  const pod = (labels: Record<string, string> = {}, name = 'p'): Pod => ({ metadata: { name, labels } });
  it('counts the label (any value) and podsToDelete', () => {
    expect(isSpecifiedDelete(pod({ [SPECIFIED_DELETE_KEY]: 'false' }))).toBe(true);
    expect(isSpecifiedDelete(pod(), ['p'])).toBe(true);
    expect(isSpecifiedDelete(pod(), ['q'])).toBe(false);
  });
  it('patches only when the label is missing', () => {
    expect(specifiedDeletePatch(pod())).toEqual({ metadata: { labels: { [SPECIFIED_DELETE_KEY]: 'true' } } });
    expect(specifiedDeletePatch(pod({ [SPECIFIED_DELETE_KEY]: 'x' }))).toBeUndefined();
  });
  it('prunes podsToDelete to existing pods', () => {
    expect(prunePodsToDelete(['a', 'gone'], [pod({}, 'a')])).toEqual(['a']);
    expect(prunePodsToDelete(['a'], [pod({}, 'a')])).toBeUndefined();
    expect(prunePodsToDelete(undefined, [])).toBeUndefined();
  });
});

describe('availability', () => {
  const pod = (extra: Partial<Pod> = {}, since = '2024-05-01T11:59:50Z', state?: string): Pod => ({
    metadata: state ? { labels: { 'lifecycle.apps.kruise.io/state': state } } : {},
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
    ...extra,
  });
  it.each([
    ['ready, minReadySeconds 0', pod(), 0, true],
    ['ready 10 s, minReadySeconds 5', pod(), 5, true],
    ['ready 10 s, minReadySeconds 10 (not strictly before)', pod(), 10, false],
    ['ready without transition time, minReadySeconds 1', pod({}, ''), 1, false],
  ])('%s', (_n, p, mrs, expected) => expect(isPodAvailable(p, mrs, now)).toBe(expected));

  it('CloneSet availability also needs Running, InPlaceUpdateReady and a serving lifecycle state', () => {
    expect(isCloneSetPodAvailable(pod(), 0, now)).toBe(true);
    expect(isCloneSetPodReady(pod({}, undefined, 'Normal'), now)).toBe(true);
    expect(isCloneSetPodReady(pod({}, undefined, 'PreparingNormal'), now)).toBe(false);
    const inPlace = pod();
    inPlace.status?.conditions?.push({ type: 'InPlaceUpdateReady', status: 'False' });
    expect(isCloneSetPodReady(inPlace, now)).toBe(false);
    expect(isCloneSetPodReady({ ...pod(), status: { ...pod().status, phase: 'Pending' } }, now)).toBe(false);
  });
});

describe('isPodUpdate', () => {
  const pod = (rev: string, state = 'Normal'): Pod => ({
    metadata: { labels: { 'controller-revision-hash': rev, 'lifecycle.apps.kruise.io/state': state } },
  });
  it('counts PreparingUpdate pods as updated only with the gate', () => {
    expect(isPodUpdate(pod('old', 'PreparingUpdate'), 'new')).toBe(false);
    expect(isPodUpdate(pod('old', 'PreparingUpdate'), 'new', { preparingUpdateAsUpdate: true })).toBe(true);
    expect(isPodUpdate(pod('web-abc'), 'abc')).toBe(true);
    const { updated, notUpdated } = splitPodsByUpdate([pod('new'), pod('old')], 'new');
    expect([updated.length, notUpdated.length]).toEqual([1, 1]);
  });
});
