import type { JsonPatchOperation } from '@regatta/kube';
import { beforeAll, describe, expect, it } from 'vitest';
import { Mutation } from './admission.js';
import { WebhookServer } from './webhook-server.js';
import {
  cloneSet,
  createRequest,
  review,
  send,
  serve,
  testTls,
  type CloneSet,
} from './webhook-server-test-support.js';

let serving: { certPem: string; keyPem: string };

beforeAll(async () => {
  ({ serving } = await testTls());
});

describe('WebhookServer: mutation', () => {
  it('answers with a base64 JSON Patch that turns the object into the handler result', async () => {
    const h = await serve((s) => {
      s.mutate<CloneSet>('/mutate-cloneset', ({ object }) => {
        if (!object) return undefined;
        object.metadata.labels = { ...object.metadata.labels, 'apps.kruise.io/defaulted': 'true' };
        object.spec.updateStrategy = { ...object.spec.updateStrategy, maxSurge: '0' };
        delete object.spec.replicas;
        return object;
      });
      s.mutate('/mutate-noop', ({ object }) => object);
      s.mutate('/mutate-nothing', () => undefined);
    });
    try {
      const reply = await send(h.port, { path: '/mutate-cloneset', body: review(createRequest(cloneSet)) });
      const response = reply.json()['response'] as Record<string, unknown>;
      expect(response).toMatchObject({ uid: 'req-1', allowed: true, patchType: 'JSONPatch' });
      const ops = JSON.parse(
        Buffer.from(response['patch'] as string, 'base64').toString(),
      ) as JsonPatchOperation[];
      expect(ops).toEqual([
        { op: 'add', path: '/metadata/labels', value: { 'apps.kruise.io/defaulted': 'true' } },
        { op: 'remove', path: '/spec/replicas' },
        { op: 'add', path: '/spec/updateStrategy/maxSurge', value: '0' },
      ]);
      for (const path of ['/mutate-noop', '/mutate-nothing']) {
        const same = await send(h.port, { path, body: review(createRequest(cloneSet)) });
        expect(same.json()['response']).toEqual({ uid: 'req-1', allowed: true });
      }
    } finally {
      await h.stop();
    }
  });

  it('answers a mutation of many list elements with one replace of the list', async () => {
    interface Many {
      spec: { containers: { name: string; imagePullPolicy?: string }[] };
    }
    const many = { spec: { containers: Array.from({ length: 1524 }, (_, i) => ({ name: `c${i}` })) } };
    const h = await serve((s) => {
      s.mutate<Many>('/mutate-many', ({ object }) => {
        if (!object) return undefined;
        for (const c of object.spec.containers) c.imagePullPolicy = 'IfNotPresent';
        return object;
      });
    });
    try {
      const reply = await send(h.port, { path: '/mutate-many', body: review(createRequest(many)) });
      const response = reply.json()['response'] as Record<string, unknown>;
      const ops = JSON.parse(
        Buffer.from(response['patch'] as string, 'base64').toString(),
      ) as JsonPatchOperation[];
      expect(ops.map((o) => [o.op, o.path])).toEqual([['replace', '/spec/containers']]);
    } finally {
      await h.stop();
    }
  });

  it('sends the warnings of a Mutation, with or without a patch', async () => {
    const h = await serve((s) => {
      s.mutate<CloneSet>('/mutate-warn', ({ object }) => {
        if (!object) return undefined;
        object.metadata.labels = { moved: 'true' };
        return new Mutation(object, ['spec.volumeTemplates is not an OpenKruise field; use spec.volumes']);
      });
      s.mutate('/mutate-warn-only', () => new Mutation(undefined, ['just a warning']));
    });
    try {
      const patched = (
        await send(h.port, { path: '/mutate-warn', body: review(createRequest(cloneSet)) })
      ).json();
      expect(patched['response']).toMatchObject({
        allowed: true,
        patchType: 'JSONPatch',
        warnings: ['spec.volumeTemplates is not an OpenKruise field; use spec.volumes'],
      });
      const only = (
        await send(h.port, { path: '/mutate-warn-only', body: review(createRequest(cloneSet)) })
      ).json();
      expect(only['response']).toEqual({ uid: 'req-1', allowed: true, warnings: ['just a warning'] });
    } finally {
      await h.stop();
    }
  });

  it('denies with 504 when a handler overruns the request timeout', async () => {
    const h = await serve(
      (s) =>
        s.mutate('/mutate-slow', () => new Promise((resolve) => setTimeout(() => resolve(undefined), 2000))),
      { requestTimeoutMs: 50 },
    );
    try {
      const reply = await send(h.port, { path: '/mutate-slow', body: review(createRequest(cloneSet)) });
      expect(reply.json()['response']).toMatchObject({
        allowed: false,
        status: { code: 504, reason: 'Timeout' },
      });
    } finally {
      await h.stop();
    }
  });

  it('refuses bad routes', () => {
    const s = new WebhookServer({ tls: serving });
    s.validate('/a', () => ({ allowed: true }));
    expect(() => s.validate('/a', () => ({ allowed: true }))).toThrow(/already registered/);
    expect(() => s.mutate('b', () => undefined)).toThrow(/must start with/);
  });
});
