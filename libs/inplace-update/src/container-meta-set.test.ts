import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { checkPodUpdateCompleted } from './completion.js';
import { envFromMetadataHash } from './container-meta.js';
import {
  containersNeedingEnv,
  kubeletContainerHash,
  parseEnvOutput,
  planContainerMetaSet,
  runningEnvFromMetadataHash,
  type ObservedContainer,
} from './container-meta-set.js';
import { INPLACE_UPDATE_READY, INPLACE_UPDATE_STATE_KEY, RUNTIME_CONTAINERS_META_KEY } from './keys.js';
import { formatRuntimeContainersMeta, type RuntimeContainerMeta } from './runtime-meta.js';

const app = {
  name: 'app',
  image: 'nginx:alpine',
  env: [{ name: 'LABEL_V', valueFrom: { fieldRef: { fieldPath: "metadata.labels['v']" } } }],
};
const plain = { name: 'plain', image: 'busybox:1.34' };
const pod = (labels: Record<string, string>, updating: boolean): Pod => ({
  metadata: { name: 'p', labels },
  spec: { containers: [app, plain] },
  status: {
    conditions: [{ type: INPLACE_UPDATE_READY, status: updating ? 'False' : 'True' }],
  },
});
const observed = (o: Partial<ObservedContainer> & { name: string }): ObservedContainer => ({
  containerID: `containerd://${o.name}-1`,
  restartCount: 0,
  running: true,
  plainHash: 7,
  ...o,
});
const hashOf = (v: string) => envFromMetadataHash(app, { labels: { v } });

describe('kubeletContainerHash', () => {
  it('hashes name and image only, as the kubelet does', () => {
    expect(kubeletContainerHash({ name: 'app', image: 'nginx:alpine' })).toBe(
      kubeletContainerHash({ name: 'app', image: 'nginx:alpine' }),
    );
    expect(kubeletContainerHash({ name: 'app', image: 'nginx:alpine' })).not.toBe(
      kubeletContainerHash({ name: 'app', image: 'nginx:mainline-alpine' }),
    );
    // the kubelet's value for this container (`io.kubernetes.container.hash`, hex)
    expect(kubeletContainerHash({ name: 'nginx', image: 'nginx:alpine' }).toString(16)).toBe(KUBELET_HASH);
  });
});

describe('runningEnvFromMetadataHash', () => {
  it('equals the expected hash when the container runs with the label value', () => {
    expect(runningEnvFromMetadataHash(app, { LABEL_V: '1', PATH: '/bin' })).toBe(hashOf('1'));
    expect(runningEnvFromMetadataHash(app, {})).toBe(hashOf(''));
  });
});

describe('parseEnvOutput', () => {
  it('reads NAME=value lines; values may hold =', () => {
    expect(parseEnvOutput('A=1\nB=x=y\n\nnoequals\n')).toEqual({ A: '1', B: 'x=y' });
  });
});

describe('planContainerMetaSet', () => {
  const kept = (name: string, hash?: number): RuntimeContainerMeta => ({
    name,
    containerID: `containerd://${name}-1`,
    restartCount: 0,
    hashes: { plainHash: 7, ...(hash !== undefined ? { extractedEnvFromMetadataHash: hash } : {}) },
  });
  const cases: {
    name: string;
    pod: Pod;
    observed: ObservedContainer[];
    previous?: RuntimeContainerMeta[];
    restart: string[];
    unread?: string[];
    hashes?: (number | undefined)[];
  }[] = [
    {
      name: 'first look: env read, hashes reported, nothing restarted',
      pod: pod({ v: '1' }, false),
      observed: [observed({ name: 'app', env: { LABEL_V: '1' } }), observed({ name: 'plain', env: {} })],
      restart: [],
      hashes: [hashOf('1'), envFromMetadataHash(plain, {})],
    },
    {
      name: 'label changed while updating: the container started with the old value restarts',
      pod: pod({ v: '2' }, true),
      observed: [observed({ name: 'app' }), observed({ name: 'plain' })],
      previous: [kept('app', hashOf('1')), kept('plain', envFromMetadataHash(plain, {}))],
      restart: ['app'],
    },
    {
      name: 'label changed but not updating (InPlaceUpdateReady True): no restart',
      pod: pod({ v: '2' }, false),
      observed: [observed({ name: 'app' })],
      previous: [kept('app', hashOf('1'))],
      restart: [],
    },
    {
      name: 'a stopped container is not restarted',
      pod: pod({ v: '2' }, true),
      observed: [observed({ name: 'app', running: false })],
      previous: [kept('app', hashOf('1'))],
      restart: [],
    },
    {
      name: 'a new instance gets a new entry; its env not read yet → unread, no hash',
      pod: pod({ v: '2' }, true),
      observed: [observed({ name: 'app', containerID: 'containerd://app-2', restartCount: 1 })],
      previous: [kept('app', hashOf('1'))],
      restart: [],
      unread: ['app'],
      hashes: [undefined],
    },
    {
      name: 'the new instance runs with the new value: consistent, no restart',
      pod: pod({ v: '2' }, true),
      observed: [
        observed({ name: 'app', containerID: 'containerd://app-2', restartCount: 1, env: { LABEL_V: '2' } }),
      ],
      previous: [kept('app', hashOf('1'))],
      restart: [],
      hashes: [hashOf('2')],
    },
    {
      name: 'a container not in the spec and one not created are left out',
      pod: pod({ v: '1' }, false),
      observed: [observed({ name: 'gone', env: {} }), observed({ name: 'app', containerID: '' })],
      restart: [],
      hashes: [],
    },
  ];
  it.each(cases)('$name', (c) => {
    const plan = planContainerMetaSet(c.pod, c.observed, c.previous, true);
    expect(plan.restart).toEqual(c.restart);
    expect(plan.unread).toEqual(c.unread ?? []);
    if (c.hashes) expect(plan.meta.map((m) => m.hashes.extractedEnvFromMetadataHash)).toEqual(c.hashes);
  });

  it('keeps the entry (and its plain hash) of an instance it reported before', () => {
    const plan = planContainerMetaSet(
      pod({ v: '1' }, false),
      [observed({ name: 'app', plainHash: 99 })],
      [kept('app', hashOf('1'))],
      true,
    );
    expect(plan.meta).toEqual([kept('app', hashOf('1'))]);
  });

  it('without the env gate reports plain hashes only', () => {
    const plan = planContainerMetaSet(pod({ v: '2' }, true), [observed({ name: 'app' })], undefined, false);
    expect(plan).toEqual({
      meta: [{ name: 'app', containerID: 'containerd://app-1', restartCount: 0, hashes: { plainHash: 7 } }],
      restart: [],
      unread: [],
    });
  });
});

describe('containersNeedingEnv', () => {
  it('names running spec containers without a kept hash', () => {
    const p = pod({ v: '1' }, false);
    expect(
      containersNeedingEnv(
        p,
        [observed({ name: 'app' }), observed({ name: 'plain', running: false }), observed({ name: 'x' })],
        undefined,
      ),
    ).toEqual(['app']);
    expect(
      containersNeedingEnv(
        p,
        [observed({ name: 'app' })],
        [
          {
            name: 'app',
            containerID: 'containerd://app-1',
            restartCount: 0,
            hashes: { plainHash: 7, extractedEnvFromMetadataHash: 5 },
          },
        ],
      ),
    ).toEqual([]);
  });
});

describe('checkPodUpdateCompleted with the kubelet hash', () => {
  // the same-digest update: status keeps the old tag and image ID, the daemon reports the new instance's hash
  const updated = (plainHash: number, containerID = 'containerd://b'): Pod => ({
    metadata: {
      name: 'p',
      annotations: {
        [INPLACE_UPDATE_STATE_KEY]:
          '{"revision":"r2","lastContainerStatuses":{"nginx":{"imageID":"sha256:1"}}}',
        [RUNTIME_CONTAINERS_META_KEY]: formatRuntimeContainersMeta([
          { name: 'nginx', containerID, restartCount: 1, hashes: { plainHash } },
        ]),
      },
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx:mainline-alpine' }] },
    status: {
      containerStatuses: [
        {
          name: 'nginx',
          image: 'docker.io/library/nginx:alpine',
          imageID: 'sha256:1',
          containerID: 'containerd://b',
        },
      ],
    } as Pod['status'],
  });
  const want = kubeletContainerHash({ name: 'nginx', image: 'nginx:mainline-alpine' });
  it('completes when the restarted container carries the hash of the new spec', () => {
    expect(checkPodUpdateCompleted(updated(want)).completed).toBe(true);
  });
  it('stays pending on the old hash, or another container ID', () => {
    expect(checkPodUpdateCompleted(updated(want + 1)).completed).toBe(false);
    expect(checkPodUpdateCompleted(updated(want, 'containerd://a')).completed).toBe(false);
  });
});

/** kubernetes v1.36.3 `HashContainer` of {name: nginx, image: nginx:alpine}, in hex as the kubelet writes it. */
const KUBELET_HASH = '4c6381b4';
