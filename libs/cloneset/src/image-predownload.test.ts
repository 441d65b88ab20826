// Why a CloneSet rollout is not pre-downloaded (pkg/controller/cloneset/cloneset_predownload_image.go); when it is,
// and what the jobs are, is tested in libs/image-predownload.
import { describe, expect, it } from 'vitest';
import { newCloneSetRevision } from '@regatta/revision';
import type { CloneSetObject } from './cloneset-object.js';
import { cloneSetPreDownloadIgnore } from './image-predownload.js';

const cloneSet = (over: Record<string, unknown>, image = 'nginx:2', env?: string): CloneSetObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { namespace: 'ns', name: 'demo', uid: 'u' },
  spec: {
    replicas: 10,
    selector: { matchLabels: { app: 'demo' } },
    template: {
      metadata: { labels: { app: 'demo' } },
      spec: { containers: [{ name: 'main', image, ...(env ? { env: [{ name: 'X', value: env }] } : {}) }] },
    },
    updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 },
    ...over,
  },
});
const gates = { RecreatePodWhenChangeVCTInCloneSetGate: false };
const current = newCloneSetRevision(cloneSet({}, 'nginx:1') as never, 1, 0);

describe('cloneSetPreDownloadIgnore', () => {
  it.each<
    [string, Record<string, unknown>, string | undefined, ReturnType<typeof cloneSetPreDownloadIgnore>]
  >([
    ['InPlaceIfPossible, 10 replicas, maxUnavailable 2: create', {}, undefined, undefined],
    [
      'InPlaceOnly: create',
      { updateStrategy: { type: 'InPlaceOnly', maxUnavailable: 2 } },
      undefined,
      undefined,
    ],
    [
      'ReCreate',
      { updateStrategy: { type: 'ReCreate', maxUnavailable: 2 } },
      undefined,
      'NotInPlaceStrategy',
    ],
    ['no strategy = ReCreate', { updateStrategy: undefined }, undefined, 'NotInPlaceStrategy'],
    ['3 replicas', { replicas: 3 }, undefined, 'FewReplicas'],
    [
      'maxUnavailable 100%: one batch',
      { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%' } },
      undefined,
      'OneBatch',
    ],
    [
      'maxUnavailable 100% with partition 20%: create',
      { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%', partition: '20%' } },
      undefined,
      undefined,
    ],
    [
      'default maxUnavailable 20% of 4 = 0 (rounded down): create',
      { replicas: 4, updateStrategy: { type: 'InPlaceIfPossible' } },
      undefined,
      undefined,
    ],
    ['an env change cannot be made in place', {}, 'changed', 'NotInPlace'],
  ])('%s', (_n, over, env, want) => {
    const cs = cloneSet(over, 'nginx:2', env);
    const update = newCloneSetRevision(cs as never, 2, 0);
    expect(cloneSetPreDownloadIgnore(cs, current, update, gates)).toBe(want);
  });
});
