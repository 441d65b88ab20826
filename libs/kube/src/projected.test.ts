import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { KubeClient } from './client.js';
import { applyJsonPatch } from './json-patch.js';
import type { KubeObject } from './meta.js';
import {
  PROJECTED,
  ProjectedWriteError,
  containsProjected,
  isProjected,
  markProjected,
  updatePatch,
  writeUpdatePatch,
} from './projected.js';

type Pod = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

/** A pod as the API server stores it, and the cache's projection of it (no ports, no volumes, no hostIP). */
const full = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '7', labels: { app: 'web' } },
  spec: {
    nodeName: 'n1',
    volumes: [{ name: 'data', emptyDir: {} }],
    containers: [
      { name: 'a', image: 'a:1', ports: [{ containerPort: 80 }] },
      { name: 'b', image: 'b:1', ports: [{ containerPort: 81 }] },
    ],
  },
  status: { phase: 'Running', hostIP: '10.0.0.1' },
});
const projected = (): Pod =>
  markProjected({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', resourceVersion: '7', labels: { app: 'web' } },
    spec: markProjected({
      nodeName: 'n1',
      containers: [markProjected({ name: 'a', image: 'a:1' }), markProjected({ name: 'b', image: 'b:1' })],
    }),
    status: markProjected({ phase: 'Running' }),
  });

describe('updatePatch', () => {
  const cases: [string, (p: Pod) => Pod, { path: string; value?: unknown }[]][] = [
    [
      'an image: one replace of that field',
      (p) => ({
        ...p,
        spec: {
          ...p.spec,
          containers: [
            { ...(p.spec!['containers'] as object[])[0], image: 'a:2' },
            (p.spec!['containers'] as object[])[1],
          ],
        },
      }),
      [{ path: '/spec/containers/0/image', value: 'a:2' }],
    ],
    [
      'a label and an annotation added',
      (p) => ({
        ...p,
        metadata: { ...p.metadata, labels: { app: 'web', v: '2' }, annotations: { 'x.io/a': 'b' } },
      }),
      [
        { path: '/metadata/labels/v', value: '2' },
        { path: '/metadata/annotations', value: { 'x.io/a': 'b' } },
      ],
    ],
    [
      'status changes are left out (a PUT of the main resource ignores them)',
      (p) => ({ ...p, status: { ...p.status, phase: 'Failed' } }),
      [],
    ],
    ['nothing changed: only the guard', (p) => ({ ...p }), []],
  ];
  it.each(cases)('%s', (_name, plan, want) => {
    const read = projected();
    const ops = updatePatch(read, plan(read));
    expect(ops[0]).toEqual({ op: 'replace', path: '/metadata/resourceVersion', value: '7' });
    expect(
      ops.slice(1).map(({ path, ...o }) => ({ path, ...('value' in o ? { value: o.value } : {}) })),
    ).toEqual(want);
    // applied to the stored pod, nothing the projection left out is lost
    const stored = applyJsonPatch<Pod>(full(), ops);
    expect(stored.spec!['volumes']).toEqual([{ name: 'data', emptyDir: {} }]);
    expect((stored.spec!['containers'] as { ports: unknown }[]).map((c) => c.ports)).toEqual([
      [{ containerPort: 80 }],
      [{ containerPort: 81 }],
    ]);
    expect(stored.status!['hostIP']).toBe('10.0.0.1');
  });

  it('guards with the version given (the one a status write produced) instead of the one read', () => {
    const read = projected();
    expect(updatePatch(read, read, '9')[0]).toEqual({
      op: 'replace',
      path: '/metadata/resourceVersion',
      value: '9',
    });
  });

  it('refuses a patch without a version', () => {
    const read = { ...projected(), metadata: { name: 'p' } };
    expect(() => updatePatch(read, read)).toThrow(ProjectedWriteError);
  });

  const refused: [string, (p: Pod) => Pod][] = [
    [
      'a container added after a trimmed one (the list changes length: the trimmed copy would be added whole)',
      (p) => ({
        ...p,
        spec: {
          ...p.spec,
          containers: [...(p.spec!['containers'] as object[]), { ...(p.spec!['containers'] as object[])[0] }],
        },
      }),
    ],
    [
      'the trimmed spec replaced by something else',
      (p) => ({ ...p, spec: 'x' as unknown as Record<string, unknown> }),
    ],
  ];
  it.each(refused)('refuses: %s', (_name, plan) => {
    const read = projected();
    const err = (() => {
      try {
        updatePatch(read, plan(read));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ProjectedWriteError);
    expect((err as ProjectedWriteError).code).toBe('REGATTA_KUBE_PROJECTED_WRITE');
  });

  it('an unprojected pod may change a list whole (nothing was left out of it)', () => {
    const read = full();
    const planned: Pod = { ...read, spec: { ...read.spec, volumes: [] } };
    const ops = updatePatch(read, planned);
    expect(ops.slice(1)).toEqual([{ op: 'remove', path: '/spec/volumes/0' }]);
  });
});

describe('writeUpdatePatch', () => {
  it('sends updatePatch as one JSON patch to the object read, named by the given type', async () => {
    const sent: unknown[][] = [];
    const client = {
      patch: async <T>(...args: unknown[]) => {
        sent.push(args);
        return args[0] as T;
      },
    } as unknown as Pick<KubeClient, 'patch'>;
    // as a cache may hold it: no apiVersion or kind
    const read = markProjected({ metadata: { name: 'p', namespace: 'ns', resourceVersion: '7' } }) as Pod;
    const planned = { ...read, metadata: { ...read.metadata, labels: { app: 'web' } } };
    await writeUpdatePatch(client, { apiVersion: 'v1', kind: 'Pod' }, read, planned, '9');
    expect(sent).toEqual([
      [
        { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p' },
        updatePatch(read, planned, '9'),
        { type: 'json' },
      ],
    ]);
    expect(updatePatch(read, planned, '9')[0]).toEqual({
      op: 'replace',
      path: '/metadata/resourceVersion',
      value: '9',
    });
  });
});

describe('the marker', () => {
  it('is kept by object spread, ignored by JSON', () => {
    const p = projected();
    const planned = { ...p, metadata: { ...p.metadata, labels: {} } };
    expect(isProjected(planned)).toBe(true);
    expect(JSON.parse(JSON.stringify(planned))).not.toHaveProperty(String(PROJECTED));
    expect(Object.getOwnPropertySymbols(JSON.parse(JSON.stringify(planned)))).toEqual([]);
    expect(containsProjected({ a: [{ b: p.spec }] })).toBe(true);
    expect(containsProjected(full())).toBe(false);
  });
});

describe('KubeClient.replace of a projected object', () => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // nothing listens there: the refusal comes before any request
    clusters: [{ name: 'c', server: 'https://127.0.0.1:9', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const client = new KubeClient(kc, { timeoutMs: 1000 });

  it('is refused with a named error and a stable code', async () => {
    const err = await client.replace(projected()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProjectedWriteError);
    expect(err).toMatchObject({ name: 'ProjectedWriteError', code: 'REGATTA_KUBE_PROJECTED_WRITE' });
    expect((err as Error).message).toContain('replace Pod p');
    // a copy made with spread is still refused; one built field by field from JSON is not marked
    const spread = await client
      .replace({ ...projected(), metadata: { name: 'p', resourceVersion: '8' } })
      .catch((e: unknown) => e);
    expect(spread).toBeInstanceOf(ProjectedWriteError);
    const status = await client.updateStatus(projected()).catch((e: unknown) => e);
    expect(status).toBeInstanceOf(ProjectedWriteError);
  });

  it('an unmarked object goes to the server (here: nothing listens, a network error)', async () => {
    const err = await client.replace(full()).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ProjectedWriteError);
  });
});
