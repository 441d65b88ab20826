import {
  ConflictError,
  type JsonPatchOperation,
  type KubeObject,
  PROJECTED,
  applyJsonPatch,
  markProjected,
} from '@regatta/kube';
import { LIFECYCLE_STATE_KEY, type Pod } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { describe, expect, it } from 'vitest';
import { InPlaceUpdateControl } from './inplace-update-control.js';
import { INPLACE_UPDATE_READY, INPLACE_UPDATE_STATE_KEY } from './keys.js';

const now = new Date('2024-05-01T12:00:00Z');
const template = (image: string) => ({
  spec: {
    template: {
      $patch: 'replace',
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c1', image }] },
    },
  },
});
const oldRev: ControllerRevision = { metadata: { name: 'rev_old' }, data: template('foo1'), revision: 1 };
const newRev: ControllerRevision = { metadata: { name: 'rev_new' }, data: template('foo2'), revision: 2 };
const pod = (rv: string, image = 'foo1'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'pod-0',
    namespace: 'ns',
    resourceVersion: rv,
    labels: { app: 'web', 'controller-revision-hash': 'rev_old' },
  },
  spec: { containers: [{ name: 'c1', image }], readinessGates: [{ conditionType: INPLACE_UPDATE_READY }] },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: INPLACE_UPDATE_READY, status: 'True' },
    ],
    containerStatuses: [{ name: 'c1', image, imageID: 'id-1', ready: true }],
  },
});

/** A pod API: the stored pod, every call recorded, a conflict on the first `conflicts` status writes. */
function podApi(stored: Pod, conflicts = 0) {
  const calls: { verb: string; body?: unknown }[] = [];
  let current = stored;
  let rv = Number(stored.metadata?.resourceVersion ?? '1');
  const client = {
    get: async () => {
      calls.push({ verb: 'get' });
      return current;
    },
    patchStatus: async (_ref: unknown, body: { metadata?: { resourceVersion?: string } }) => {
      calls.push({ verb: 'patchStatus', body });
      if (
        conflicts-- > 0 ||
        (body.metadata?.resourceVersion &&
          body.metadata.resourceVersion !== current.metadata?.resourceVersion)
      )
        throw new ConflictError({ status: 409, serverMessage: 'modified' });
      current = { ...current, metadata: { ...current.metadata, resourceVersion: String(++rv) } };
      return current;
    },
    // a JSON patch as the API server takes it: the patched object's resourceVersion must be the stored one
    patch: async (_ref: unknown, ops: JsonPatchOperation[], opts: { type: string }) => {
      calls.push({ verb: `patch:${opts.type}`, body: ops });
      const next = applyJsonPatch<Pod>(current, ops);
      if (next.metadata?.resourceVersion !== current.metadata?.resourceVersion)
        throw new ConflictError({ status: 409, serverMessage: 'modified' });
      current = { ...next, metadata: { ...next.metadata, resourceVersion: String(++rv) } };
      return current;
    },
  };
  return {
    client: client as never,
    calls,
    stored: () => current,
    bump: () => (current = { ...current, metadata: { ...current.metadata, resourceVersion: String(++rv) } }),
  };
}

describe('InPlaceUpdateControl.update', () => {
  it('writes the readiness condition, then the pod on the version that write produced, and reports both', async () => {
    const api = podApi(pod('5'));
    const written: KubeObject[] = [];
    const control = new InPlaceUpdateControl({ client: api.client, onWritten: (o) => written.push(o) });
    const out = await control.update(pod('5'), oldRev, newRev, { now });
    expect(out).toEqual({ updated: true, delayMs: 0 });
    expect(api.calls.map((c) => c.verb)).toEqual(['patchStatus', 'patch:json']);
    expect(api.calls[0]?.body).toMatchObject({ metadata: { resourceVersion: '5' } });
    const ops = api.calls[1]?.body as JsonPatchOperation[];
    // guarded by the version the status write produced, then only what changed
    expect(ops[0]).toEqual({ op: 'replace', path: '/metadata/resourceVersion', value: '6' });
    expect(ops).toContainEqual({ op: 'replace', path: '/spec/containers/0/image', value: 'foo2' });
    expect(ops.some((o) => o.path.startsWith('/status'))).toBe(false);
    const replaced = applyJsonPatch<Pod>(pod('6'), ops);
    expect(replaced.metadata?.annotations?.[INPLACE_UPDATE_STATE_KEY]).toContain('rev_new');
    expect(written.map((p) => p.metadata?.resourceVersion)).toEqual(['6', '7']);
  });

  it('a projected pod (fields left out by the cache) loses none of them: the patch names only what changed', async () => {
    const full = pod('5');
    full.spec = {
      ...full.spec,
      containers: [{ name: 'c1', image: 'foo1', ports: [{ containerPort: 80 }] }],
    } as Pod['spec'];
    (full.spec as Record<string, unknown>)['volumes'] = [{ name: 'data', emptyDir: {} }];
    const api = podApi(full);
    // the cache's view: no ports, no volumes; the container and the spec marked as trimmed
    const container = markProjected({ name: 'c1', image: 'foo1' });
    const projected = markProjected({
      ...pod('5'),
      spec: markProjected({ ...pod('5').spec, containers: [container] }),
    }) as Pod;
    const control = new InPlaceUpdateControl({ client: api.client });
    await control.update(projected, oldRev, newRev, { now });
    const stored = api.stored();
    expect(stored.spec?.containers?.[0]).toEqual({
      name: 'c1',
      image: 'foo2',
      ports: [{ containerPort: 80 }],
    });
    expect((stored.spec as Record<string, unknown>)['volumes']).toEqual([{ name: 'data', emptyDir: {} }]);
    expect(PROJECTED in stored).toBe(false);
  });

  it('a stale pod is refused with a conflict, read again and written once', async () => {
    // no readiness gate: the pod write is the first write, on the stale version
    const noGate = { ...pod('5'), spec: { containers: [{ name: 'c1', image: 'foo1' }] } };
    const api = podApi(noGate);
    api.bump();
    const control = new InPlaceUpdateControl({ client: api.client });
    await control.update(noGate, oldRev, newRev, { now });
    expect(api.calls.map((c) => c.verb)).toEqual(['patch:json', 'get', 'patch:json']);
  });

  it('after a conflict reads the pod again and retries', async () => {
    const api = podApi(pod('5'), 1);
    const control = new InPlaceUpdateControl({ client: api.client });
    await control.update(pod('5'), oldRev, newRev, { now });
    expect(api.calls.map((c) => c.verb)).toEqual(['patchStatus', 'get', 'patchStatus', 'patch:json']);
  });

  it('the grace period is returned as the delay', async () => {
    const api = podApi(pod('5'));
    const control = new InPlaceUpdateControl({ client: api.client });
    expect(await control.update(pod('5'), oldRev, newRev, { now, gracePeriodSeconds: 7 })).toEqual({
      updated: true,
      delayMs: 7000,
    });
  });
});

describe('InPlaceUpdateControl.refresh', () => {
  it('a pod without an in-place update: nothing written, no delay', async () => {
    const api = podApi(pod('5'));
    const control = new InPlaceUpdateControl({ client: api.client });
    expect(await control.refresh(pod('5'), now)).toEqual({ delayMs: 0, transitioned: false });
    expect(api.calls).toEqual([]);
  });

  /** A pod whose in-place update to foo2 has finished (new image ID), still `InPlaceUpdateReady=False`, in `Updating`. */
  const done = (): Pod => {
    const p = pod('5', 'foo2');
    return {
      ...p,
      metadata: {
        ...p.metadata,
        labels: { ...p.metadata?.labels, [LIFECYCLE_STATE_KEY]: 'Updating' },
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]: JSON.stringify({
            revision: 'rev_new',
            updateTimestamp: '2024-05-01T11:59:00Z',
            lastContainerStatuses: { c1: { imageID: 'id-1' } },
          }),
        },
      },
      status: {
        ...p.status,
        conditions: [{ type: INPLACE_UPDATE_READY, status: 'False' }],
        containerStatuses: [{ name: 'c1', image: 'foo2', imageID: 'id-2', ready: true }],
      },
    };
  };

  it.each<[string, { state: 'Normal' | 'Updated' } | undefined, boolean]>([
    ['to Normal: the condition and the lifecycle label in one pods/status write', { state: 'Normal' }, true],
    ['to Updated (hook): the condition alone; the caller writes the state', { state: 'Updated' }, false],
    ['no state change: the condition alone', undefined, false],
  ])('update finished, %s', async (_name, next, merged) => {
    const api = podApi(done());
    const written: KubeObject[] = [];
    const control = new InPlaceUpdateControl({ client: api.client, onWritten: (o) => written.push(o) });
    expect(await control.refresh(done(), now, next)).toEqual({ delayMs: 0, transitioned: merged });
    expect(api.calls.map((c) => c.verb)).toEqual(['patchStatus']);
    const body = api.calls[0]?.body as {
      metadata?: { labels?: Record<string, string> };
      status: Pod['status'];
    };
    expect(body.status?.conditions).toContainEqual(
      expect.objectContaining({ type: INPLACE_UPDATE_READY, status: 'True' }),
    );
    expect(body.metadata?.labels).toEqual(merged ? { [LIFECYCLE_STATE_KEY]: 'Normal' } : undefined);
    expect(written.map((p) => p.metadata?.resourceVersion)).toEqual(['6']);
  });
});
