import { type Pod, getPodCondition } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { INPLACE_UPDATE_STATE_KEY } from './keys.js';
import { applyUpdateSpecToPod } from './patch-spec.js';
import { type InPlaceUpdateState, formatInPlaceUpdateState } from './state.js';
import type { UpdateSpec } from './update-spec.js';

const now = new Date('2024-05-01T12:00:00Z');
const T = '2024-05-01T12:00:00Z';
const barrier = (p: number) => ({
  name: 'KRUISE_CONTAINER_BARRIER',
  valueFrom: { configMapKeyRef: { key: `p_${p}` } },
});
const fromMeta = (path: string) => ({ name: 'config', valueFrom: { fieldRef: { fieldPath: path } } });

// the pod of upstream TestDefaultPatchUpdateSpecToPod: c1 p20, c2 p10, c3 p0, c4 p0
const givenPod: Pod = {
  metadata: { labels: { 'label-k1': 'foo', 'label-k2': 'foo' }, annotations: { 'annotation-k1': 'foo' } },
  spec: {
    containers: [
      { name: 'c1', image: 'c1-img', env: [barrier(20), fromMeta("metadata.labels['label-k1']")] },
      { name: 'c2', image: 'c2-img', env: [barrier(10), fromMeta("metadata.labels['label-k2']")] },
      { name: 'c3', image: 'c3-img', env: [barrier(0), fromMeta("metadata.labels['label-k2']")] },
      { name: 'c4', image: 'c4-img', env: [barrier(0), fromMeta("metadata.annotations['annotation-k1']")] },
    ],
  },
  status: {
    containerStatuses: ['c1', 'c2', 'c3', 'c4'].map((n) => ({ name: n, imageID: `containerd://${n}-img` })),
  },
};

interface Expected {
  images: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  state: Omit<InPlaceUpdateState, 'revision' | 'updateTimestamp'>;
}

const batch = (...containers: string[]) => ({ timestamp: T, containers });
const id = (n: string) => ({ imageID: `containerd://${n}-img` });

// upstream TestDefaultPatchUpdateSpecToPod: 11 cases
const cases: [string, UpdateSpec, Omit<InPlaceUpdateState, 'revision' | 'updateTimestamp'>, Expected][] = [
  [
    'update a single container image',
    { revision: 'r', containerImages: { c1: 'c1-img-new' } },
    {},
    {
      images: { c1: 'c1-img-new' },
      state: { lastContainerStatuses: { c1: id('c1') }, containerBatchesRecord: [batch('c1')] },
    },
  ],
  [
    'update two container images without priority',
    {
      revision: 'r',
      metaDataPatch: '{"metadata":{"annotations":{"new-key": "bar"}}}',
      containerImages: { c3: 'c3-img-new', c4: 'c4-img-new' },
    },
    {},
    {
      images: { c3: 'c3-img-new', c4: 'c4-img-new' },
      annotations: { 'new-key': 'bar' },
      state: {
        lastContainerStatuses: { c3: id('c3'), c4: id('c4') },
        containerBatchesRecord: [batch('c3', 'c4')],
      },
    },
  ],
  [
    'update two container image and env from metadata without priority',
    {
      revision: 'r',
      metaDataPatch: '{"metadata":{"annotations":{"new-key": "bar"}}}',
      containerImages: { c3: 'c3-img-new' },
      containerRefMetadata: { c4: { annotations: { 'annotation-k1': 'bar' } } },
    },
    {},
    {
      images: { c3: 'c3-img-new' },
      annotations: { 'new-key': 'bar', 'annotation-k1': 'bar' },
      state: { lastContainerStatuses: { c3: id('c3') }, containerBatchesRecord: [batch('c3', 'c4')] },
    },
  ],
  [
    'update two container images with different priorities, batch 1st',
    {
      revision: 'r',
      metaDataPatch: '{"metadata":{"annotations":{"new-key": "bar"}}}',
      containerImages: { c1: 'c1-img-new', c2: 'c2-img-new' },
    },
    {},
    {
      images: { c1: 'c1-img-new' },
      annotations: { 'new-key': 'bar' },
      state: {
        lastContainerStatuses: { c1: id('c1') },
        nextContainerImages: { c2: 'c2-img-new' },
        preCheckBeforeNext: { containersRequiredReady: ['c1'] },
        containerBatchesRecord: [batch('c1')],
      },
    },
  ],
  [
    'update two container images with different priorities, batch 2nd',
    { revision: 'r', containerImages: { c2: 'c2-img-new' } },
    {
      lastContainerStatuses: { c1: { imageID: 'containerd://c1-img-old' } },
      nextContainerImages: { c2: 'c2-img-new' },
      preCheckBeforeNext: { containersRequiredReady: ['c1'] },
      containerBatchesRecord: [batch('c1')],
    },
    {
      images: { c2: 'c2-img-new' },
      state: {
        lastContainerStatuses: { c1: { imageID: 'containerd://c1-img-old' }, c2: id('c2') },
        containerBatchesRecord: [batch('c1'), batch('c2')],
      },
    },
  ],
  [
    'update three container images with different priorities, batch 1st',
    { revision: 'r', containerImages: { c1: 'c1-img-new', c2: 'c2-img-new', c4: 'c4-img-new' } },
    {},
    {
      images: { c1: 'c1-img-new' },
      state: {
        lastContainerStatuses: { c1: id('c1') },
        nextContainerImages: { c2: 'c2-img-new', c4: 'c4-img-new' },
        preCheckBeforeNext: { containersRequiredReady: ['c1'] },
        containerBatchesRecord: [batch('c1')],
      },
    },
  ],
  [
    'update three container images with different priorities, batch 2nd',
    { revision: 'r', containerImages: { c2: 'c2-img-new', c4: 'c4-img-new' } },
    {
      lastContainerStatuses: { c1: id('c1') },
      nextContainerImages: { c2: 'c2-img-new', c4: 'c4-img-new' },
      preCheckBeforeNext: { containersRequiredReady: ['c1'] },
      containerBatchesRecord: [batch('c1')],
    },
    {
      images: { c2: 'c2-img-new' },
      state: {
        lastContainerStatuses: { c1: id('c1'), c2: id('c2') },
        nextContainerImages: { c4: 'c4-img-new' },
        preCheckBeforeNext: { containersRequiredReady: ['c2'] },
        containerBatchesRecord: [batch('c1'), batch('c2')],
      },
    },
  ],
  [
    'update three container images with different priorities, batch 3rd',
    { revision: 'r', containerImages: { c4: 'c4-img-new' } },
    {
      lastContainerStatuses: { c1: id('c1'), c2: id('c2') },
      nextContainerImages: { c4: 'c4-img-new' },
      preCheckBeforeNext: { containersRequiredReady: ['c2'] },
      containerBatchesRecord: [batch('c1'), batch('c2')],
    },
    {
      images: { c4: 'c4-img-new' },
      state: {
        lastContainerStatuses: { c1: id('c1'), c2: id('c2'), c4: id('c4') },
        containerBatchesRecord: [batch('c1'), batch('c2'), batch('c4')],
      },
    },
  ],
  [
    'update four container images and env from metadata with different priorities, batch 1st',
    {
      revision: 'r',
      containerImages: { c1: 'c1-img-new', c2: 'c2-img-new', c4: 'c4-img-new' },
      containerRefMetadata: { c2: { labels: { 'label-k2': 'bar' } }, c3: { labels: { 'label-k2': 'bar' } } },
    },
    {},
    {
      images: { c1: 'c1-img-new' },
      state: {
        lastContainerStatuses: { c1: id('c1') },
        nextContainerImages: { c2: 'c2-img-new', c4: 'c4-img-new' },
        nextContainerRefMetadata: {
          c2: { labels: { 'label-k2': 'bar' } },
          c3: { labels: { 'label-k2': 'bar' } },
        },
        preCheckBeforeNext: { containersRequiredReady: ['c1'] },
        containerBatchesRecord: [batch('c1')],
      },
    },
  ],
  [
    'update four container images and env from metadata with different priorities, batch 2nd',
    {
      revision: 'r',
      containerImages: { c2: 'c2-img-new', c4: 'c4-img-new' },
      containerRefMetadata: { c2: { labels: { 'label-k2': 'bar' } }, c3: { labels: { 'label-k2': 'bar' } } },
    },
    {
      lastContainerStatuses: { c1: id('c1') },
      nextContainerImages: { c2: 'c2-img-new', c4: 'c4-img-new' },
      nextContainerRefMetadata: {
        c2: { labels: { 'label-k2': 'bar' } },
        c3: { labels: { 'label-k2': 'bar' } },
      },
      preCheckBeforeNext: { containersRequiredReady: ['c1'] },
      containerBatchesRecord: [batch('c1')],
    },
    {
      images: { c2: 'c2-img-new' },
      labels: { 'label-k2': 'bar' },
      state: {
        lastContainerStatuses: { c1: id('c1'), c2: id('c2') },
        nextContainerImages: { c4: 'c4-img-new' },
        preCheckBeforeNext: { containersRequiredReady: ['c2', 'c3'] },
        containerBatchesRecord: [batch('c1'), batch('c2', 'c3')],
      },
    },
  ],
  [
    'update four container images and env from metadata with different priorities, batch 3rd',
    { revision: 'r', containerImages: { c4: 'c4-img-new' } },
    {
      lastContainerStatuses: { c1: id('c1'), c2: id('c2') },
      nextContainerImages: { c4: 'c4-img-new' },
      preCheckBeforeNext: { containersRequiredReady: ['c2', 'c3'] },
      containerBatchesRecord: [batch('c1'), batch('c2', 'c3')],
    },
    {
      images: { c4: 'c4-img-new' },
      state: {
        lastContainerStatuses: { c1: id('c1'), c2: id('c2'), c4: id('c4') },
        containerBatchesRecord: [batch('c1'), batch('c2', 'c3'), batch('c4')],
      },
    },
  ],
];

describe('applyUpdateSpecToPod (defaultPatchUpdateSpecToPod)', () => {
  it.each(cases)('%s', (_n, spec, stateIn, expected) => {
    const state: InPlaceUpdateState = { revision: 'r', updateTimestamp: T, ...stateIn };
    const out = applyUpdateSpecToPod(givenPod, spec, state, now);
    const expectedState: InPlaceUpdateState = { revision: 'r', updateTimestamp: T, ...expected.state };
    expect(out.state).toEqual(expectedState);
    expect(Object.fromEntries((out.pod.spec?.containers ?? []).map((c) => [c.name, c.image]))).toEqual({
      c1: 'c1-img',
      c2: 'c2-img',
      c3: 'c3-img',
      c4: 'c4-img',
      ...expected.images,
    });
    expect(out.pod.metadata?.labels).toEqual({ ...givenPod.metadata?.labels, ...(expected.labels ?? {}) });
    expect(out.pod.metadata?.annotations).toEqual({
      ...givenPod.metadata?.annotations,
      ...(expected.annotations ?? {}),
      [INPLACE_UPDATE_STATE_KEY]: formatInPlaceUpdateState(expectedState),
    });
    // the input pod and state are untouched
    expect(givenPod.spec?.containers?.[0]?.image).toBe('c1-img');
    expect(state.containerBatchesRecord ?? []).toHaveLength((stateIn.containerBatchesRecord ?? []).length);
  });

  it('keeps the image ID recorded by an earlier batch', () => {
    const out = applyUpdateSpecToPod(
      givenPod,
      { revision: 'r', containerImages: { c1: 'x' } },
      { revision: 'r', updateTimestamp: T, lastContainerStatuses: { c1: { imageID: 'older' } } },
      now,
    );
    expect(out.state.lastContainerStatuses).toEqual({ c1: { imageID: 'older' } });
  });

  it('leaves lastContainerStatuses null when no changed container has a status', () => {
    const noStatus: Pod = { ...givenPod, status: {} };
    const out = applyUpdateSpecToPod(
      noStatus,
      { revision: 'r', containerImages: { c3: 'x' } },
      { revision: 'r', updateTimestamp: T },
      now,
    );
    expect(out.state.lastContainerStatuses).toBeUndefined();
    expect(out.pod.metadata?.annotations?.[INPLACE_UPDATE_STATE_KEY]).toContain(
      '"lastContainerStatuses":null',
    );
    expect(getPodCondition(out.pod, 'Ready')).toBeUndefined();
  });
});
