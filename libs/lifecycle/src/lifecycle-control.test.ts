import { ConflictError, ForbiddenError, type KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATE_KEY, LifecycleState } from './keys.js';
import {
  LifecycleControl,
  writeInitialKruisePodReady,
  writePodConditionsAndMetadata,
} from './lifecycle-control.js';
import type { Pod } from './pod.js';

const now = new Date('2024-05-01T12:00:00Z');
const pod = (state: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '3', labels: { [LIFECYCLE_STATE_KEY]: state } },
  spec: { containers: [], readinessGates: [{ conditionType: 'KruisePodReady' }] },
  status: {
    conditions: [
      { type: 'KruisePodReady', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
  },
});

function recording() {
  const calls: { verb: string; body: unknown }[] = [];
  let rv = 3;
  const answer = (body: unknown) => ({ metadata: { name: 'p', resourceVersion: String(++rv) }, body });
  const client = {
    patch: async (_ref: unknown, body: unknown) => (calls.push({ verb: 'patch', body }), answer(body)),
    patchStatus: async (_ref: unknown, body: unknown) => (
      calls.push({ verb: 'patchStatus', body }),
      answer(body)
    ),
  };
  return { client: client as never, calls };
}

describe('LifecycleControl.transition', () => {
  it('writes the not-ready condition first, then the state label and timestamp, reporting each write', async () => {
    const api = recording();
    const written: KubeObject[] = [];
    const control = new LifecycleControl({
      client: api.client,
      now: () => now,
      onWritten: (o) => written.push(o),
    });
    expect(
      await control.transition(pod(LifecycleState.Normal), LifecycleState.PreparingDelete, {
        markPodNotReady: true,
      }),
    ).toBe(true);
    expect(api.calls.map((c) => c.verb)).toEqual(['patchStatus', 'patch']);
    expect(api.calls[1]?.body).toMatchObject({
      metadata: { labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete' } },
    });
    expect(written.map((o) => o.metadata?.resourceVersion)).toEqual(['4', '5']);
  });

  it('writes nothing for a pod already in that state without the not-ready policy', async () => {
    const api = recording();
    const control = new LifecycleControl({ client: api.client, now: () => now });
    expect(await control.transition(pod(LifecycleState.Normal), LifecycleState.Normal)).toBe(false);
    expect(api.calls).toEqual([]);
  });
});

describe('writePodConditionsAndMetadata', () => {
  it('one pods/status strategic merge patch with the conditions and the labels/annotations, reported once', async () => {
    const api = recording();
    const written: KubeObject[] = [];
    const conditions = [{ type: 'InPlaceUpdateReady', status: 'True' }];
    const metadata = { labels: { [LIFECYCLE_STATE_KEY]: 'Normal' }, annotations: { a: 'b' } };
    await writePodConditionsAndMetadata(
      { client: api.client, onWritten: (o) => written.push(o) },
      pod(LifecycleState.Updating),
      conditions,
      metadata,
    );
    expect(api.calls).toEqual([{ verb: 'patchStatus', body: { metadata, status: { conditions } } }]);
    expect(written.map((o) => o.metadata?.resourceVersion)).toEqual(['4']);
  });
});

describe('writeInitialKruisePodReady', () => {
  it('writes KruisePodReady=True (merged by type) only to gated pods without it, returning the answers in place', async () => {
    const api = recording();
    const written: KubeObject[] = [];
    const bare: Pod = { ...pod(LifecycleState.Normal), status: { conditions: [{ type: 'Ready', status: 'False' }] } };
    const held: Pod = {
      ...pod(LifecycleState.Normal),
      status: { conditions: [{ type: 'KruisePodReady', status: 'False' }] },
    };
    const ungated: Pod = { ...bare, spec: { containers: [] } };
    const out = await writeInitialKruisePodReady(
      { client: api.client, onWritten: (o) => written.push(o) },
      [held, bare, ungated],
      now,
    );
    expect(api.calls).toEqual([
      {
        verb: 'patchStatus',
        body: {
          metadata: { resourceVersion: '3' },
          status: {
            conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: '2024-05-01T12:00:00Z' }],
          },
        },
      },
    ]);
    expect(written).toHaveLength(1);
    expect(out[0]).toBe(held);
    expect(out[1]).toBe(written[0]);
    expect(out[2]).toBe(ungated);
  });
});

describe('writeInitialKruisePodReady on a pod changed since it was read', () => {
  it('returns the pod as read on a conflict, and rethrows any other error', async () => {
    const bare: Pod = { ...pod(LifecycleState.Normal), status: { conditions: [] } };
    const failing = (err: unknown) => ({
      client: {
        patch: async () => Promise.reject(err),
        patchStatus: async () => Promise.reject(err),
      } as never,
    });
    const conflict = new ConflictError({ status: 409, reason: 'Conflict', serverMessage: 'the object has been modified' });
    expect(await writeInitialKruisePodReady(failing(conflict), [bare], now)).toEqual([bare]);
    const forbidden = new ForbiddenError({ status: 403, reason: 'Forbidden', serverMessage: 'no' });
    await expect(writeInitialKruisePodReady(failing(forbidden), [bare], now)).rejects.toBe(forbidden);
  });
});
