import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { checkPodUpdateCompleted } from './completion.js';
import { envFromMetadataHash } from './container-meta.js';
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_STATE_KEY, RUNTIME_CONTAINERS_META_KEY } from './keys.js';
import { formatRuntimeContainersMeta } from './runtime-meta.js';

const state = (extra = '') =>
  `{"revision":"new-revision","lastContainerStatuses":{"c1":{"imageID":"img01"}}${extra}}`;
const pod = (
  annotations: Record<string, string>,
  statuses: { name: string; imageID?: string; image?: string; containerID?: string }[] | undefined,
  image = 'image02',
): Pod => ({
  metadata: { name: 'p', labels: { 'controller-revision-hash': 'new-revision' }, annotations },
  spec: { containers: [{ name: 'c1', image }] },
  status: statuses ? { containerStatuses: statuses } : {},
});

// TestCheckInPlaceUpdateCompleted (4 rows) + the :latest defaulting and status-image rows of `pkg/util/inplaceupdate/inplace_update_test.go`
describe('checkPodUpdateCompleted', () => {
  const cases: [string, Pod, boolean][] = [
    ['pod without state → completed', pod({}, undefined), true],
    [
      'image ID changed → completed',
      pod({ [INPLACE_UPDATE_STATE_KEY]: state() }, [{ name: 'c1', imageID: 'img02' }]),
      true,
    ],
    [
      'image ID unchanged and status image ≠ spec image → not completed',
      pod({ [INPLACE_UPDATE_STATE_KEY]: state() }, [{ name: 'c1', imageID: 'img01', image: 'image01' }]),
      false,
    ],
    [
      'no container status at all → not completed',
      pod({ [INPLACE_UPDATE_STATE_KEY]: state() }, undefined),
      false,
    ],
    [
      'image ID unchanged but status image = spec image (same digest tag) → completed',
      pod(
        { [INPLACE_UPDATE_STATE_KEY]: state() },
        [{ name: 'c1', imageID: 'img01', image: 'nginx:1.2' }],
        'nginx:1.2',
      ),
      true,
    ],
    [
      'untagged spec image matches status image with :latest → completed',
      pod(
        { [INPLACE_UPDATE_STATE_KEY]: state() },
        [{ name: 'c1', imageID: 'img01', image: 'nginx:latest' }],
        'nginx',
      ),
      true,
    ],
    [
      'grace annotation present → not completed',
      pod({ [INPLACE_UPDATE_STATE_KEY]: state(), [INPLACE_UPDATE_GRACE_KEY]: '{"revision":"x"}' }, [
        { name: 'c1', imageID: 'img02' },
      ]),
      false,
    ],
    [
      'next batch pending → not completed',
      pod({ [INPLACE_UPDATE_STATE_KEY]: state(',"nextContainerImages":{"c2":"x"}') }, [
        { name: 'c1', imageID: 'img02' },
      ]),
      false,
    ],
    [
      'old state key is read',
      pod({ 'inplace-update-state': state() }, [{ name: 'c1', imageID: 'img01', image: 'image01' }]),
      false,
    ],
    ['unparsable state → not completed', pod({ [INPLACE_UPDATE_STATE_KEY]: '{' }, []), false],
  ];
  it.each(cases)('%s', (_n, p, completed) => {
    expect(checkPodUpdateCompleted(p).completed).toBe(completed);
  });
});

describe('env from metadata completion (runtime-containers-meta)', () => {
  const env = [{ name: 'E', valueFrom: { fieldRef: { fieldPath: "metadata.labels['k']" } } }];
  const base = (meta?: string, containerID = 'cid-2'): Pod => ({
    metadata: {
      name: 'p',
      labels: { k: 'v2' },
      annotations: {
        [INPLACE_UPDATE_STATE_KEY]:
          '{"revision":"r","lastContainerStatuses":null,"updateEnvFromMetadata":true}',
        ...(meta !== undefined ? { [RUNTIME_CONTAINERS_META_KEY]: meta } : {}),
      },
    },
    spec: { containers: [{ name: 'c1', image: 'i', env }] },
    status: { containerStatuses: [{ name: 'c1', containerID }] },
  });
  const hash = (v: string) => envFromMetadataHash({ name: 'c1', env }, { labels: { k: v } });
  const meta = (v: string, containerID = 'cid-2') =>
    formatRuntimeContainersMeta([
      {
        name: 'c1',
        containerID,
        restartCount: 1,
        hashes: { plainHash: 1, extractedEnvFromMetadataHash: hash(v) },
      },
    ]);

  it.each([
    ['no daemon report yet', base(), false],
    ['the daemon reports the old env', base(meta('v1')), false],
    ['the daemon reports a container the status does not show yet', base(meta('v2', 'cid-3')), false],
    ['the daemon reports the new env on the running container', base(meta('v2')), true],
    ['an unreadable daemon annotation keeps it pending', base('{'), false],
  ])('%s → %s', (_n, p, completed) => {
    expect(checkPodUpdateCompleted(p).completed).toBe(completed);
  });
});
