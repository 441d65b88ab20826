// Why an Advanced StatefulSet rollout is not pre-downloaded (statefulset_predownload_image.go); when it is, and what
// the jobs are, is tested in libs/image-predownload.
import { describe, expect, it } from 'vitest';
import { newCloneSetRevision } from '@regatta/revision';
import { statefulSetPreDownloadIgnore } from './image-predownload.js';
import type { StatefulSetObject } from './statefulset-object.js';

const GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' };
const set = (
  strategy: Record<string, unknown> | undefined,
  replicas = 10,
  image = 'nginx:2',
  env?: string,
): StatefulSetObject =>
  ({
    ...GVK,
    metadata: { namespace: 'ns', name: 'web', uid: 'u' },
    spec: {
      replicas,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'main', image, ...(env ? { env: [{ name: 'X', value: env }] } : {}) }] },
      },
      ...(strategy ? { updateStrategy: strategy } : {}),
    },
  }) as StatefulSetObject;
// revisions hold the template as CloneSet's do (same data shape: a patch of spec.template)
const revisionOf = (s: StatefulSetObject, n: number) => newCloneSetRevision(s as never, n, 0, GVK);
const inPlace = (over: Record<string, unknown> = {}) => ({
  type: 'RollingUpdate',
  rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2, ...over },
});

describe('statefulSetPreDownloadIgnore', () => {
  const current = revisionOf(set(inPlace(), 10, 'nginx:1'), 1);
  it.each<[string, StatefulSetObject, ReturnType<typeof statefulSetPreDownloadIgnore>]>([
    ['InPlaceIfPossible, 10 replicas, maxUnavailable 2: create', set(inPlace()), undefined],
    ['InPlaceOnly: create', set(inPlace({ podUpdatePolicy: 'InPlaceOnly' })), undefined],
    ['ReCreate', set(inPlace({ podUpdatePolicy: 'ReCreate' })), 'NotInPlaceStrategy'],
    [
      'no podUpdatePolicy = ReCreate',
      set({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }),
      'NotInPlaceStrategy',
    ],
    ['no rollingUpdate', set({ type: 'RollingUpdate' }), 'NotInPlaceStrategy'],
    [
      'OnDelete',
      set({ type: 'OnDelete', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } }),
      'NotInPlaceStrategy',
    ],
    ['3 replicas', set(inPlace(), 3), 'FewReplicas'],
    ['maxUnavailable 100%: one batch', set(inPlace({ maxUnavailable: '100%' })), 'OneBatch'],
    [
      'maxUnavailable 100% with partition 5: create',
      set(inPlace({ maxUnavailable: '100%', partition: 5 })),
      undefined,
    ],
    ['default maxUnavailable 1: create', set(inPlace({ maxUnavailable: undefined })), undefined],
    ['an env change cannot be made in place', set(inPlace(), 10, 'nginx:2', 'changed'), 'NotInPlace'],
  ])('%s', (_n, s, want) => {
    expect(statefulSetPreDownloadIgnore(s, current, revisionOf(s, 2))).toBe(want);
  });
});
