import { AlreadyExistsError, type KubeObject, NotFoundError } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { newCloneSetRevision } from './controller-revision.js';
import { goJson } from './go-json.js';
import { syncRevisions, truncateHistory } from './revision-control.js';
import type { ControllerRevision, RevisionedWorkload } from './types.js';

const cs = (image: string): RevisionedWorkload => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
  },
});

/** ControllerRevisions by name, with every call recorded. */
function revisionApi(existing: ControllerRevision[] = []) {
  const store = new Map(existing.map((r) => [r.metadata?.name ?? '', r]));
  const calls: string[] = [];
  const client = {
    create: async <T extends KubeObject>(r: T): Promise<T> => {
      calls.push(`create ${r.metadata?.name}`);
      if (store.has(r.metadata?.name ?? ''))
        throw new AlreadyExistsError({ status: 409, serverMessage: 'exists' });
      store.set(r.metadata?.name ?? '', r as unknown as ControllerRevision);
      return r;
    },
    get: async <T extends KubeObject>(ref: { name: string }): Promise<T> => {
      calls.push(`get ${ref.name}`);
      const r = store.get(ref.name);
      if (!r) throw new NotFoundError({ status: 404, serverMessage: 'gone' });
      return r as unknown as T;
    },
    replace: async <T extends KubeObject>(r: T): Promise<T> => {
      calls.push(`replace ${r.metadata?.name}`);
      return r;
    },
    delete: async (ref: { name: string }) => {
      calls.push(`delete ${ref.name}`);
      if (!store.delete(ref.name)) throw new NotFoundError({ status: 404, serverMessage: 'gone' });
      return undefined;
    },
  };
  return { client: client as never, calls, store };
}

const input = (w: RevisionedWorkload, revisions: ControllerRevision[], collisionCount = 0) => ({
  owner: w,
  selector: w.spec?.selector,
  revisions,
  collisionCount,
  currentRevision: undefined,
  candidate: (n: number, c: number) => newCloneSetRevision(w, n, c),
});

describe('syncRevisions', () => {
  it('creates the first revision, which is also the current one', async () => {
    const api = revisionApi();
    const out = await syncRevisions(api.client, input(cs('a'), []));
    expect(api.calls).toEqual([`create ${out.updateRevision.metadata?.name}`]);
    expect(out.currentRevision).toBe(out.updateRevision);
    expect(out.sorted).toHaveLength(1);
    expect(out.collisionCount).toBe(0);
  });

  it('sends the data with its keys as Go writes them, so a later patch (orphaning, labels) leaves it unchanged', async () => {
    const api = revisionApi();
    const out = await syncRevisions(api.client, input(cs('a'), []));
    const sent = api.store.get(out.updateRevision.metadata?.name ?? '')!;
    // newCloneSetRevision puts `$patch` last; the API server would re-encode it first
    expect(JSON.stringify(newCloneSetRevision(cs('a'), 1, 0).data)).not.toBe(goJson(sent.data));
    expect(JSON.stringify(sent.data)).toBe(goJson(sent.data));
    expect(JSON.stringify(sent.data)).toMatch(/^\{"spec":\{"template":\{"\$patch":"replace","metadata"/);
  });

  it('reuses the latest revision when the template is unchanged (no write)', async () => {
    const first = newCloneSetRevision(cs('a'), 1, 0);
    const api = revisionApi([first]);
    const out = await syncRevisions(api.client, input(cs('a'), [first]));
    expect(api.calls).toEqual([]);
    expect(out.updateRevision.metadata?.name).toBe(first.metadata?.name);
  });

  it('a different revision holding the name bumps the collision count until a free name', async () => {
    const wanted = newCloneSetRevision(cs('b'), 2, 0);
    // an unrelated revision (other data) under the name the new template hashes to
    const squatter = {
      ...newCloneSetRevision(cs('zzz'), 9, 0),
      metadata: { ...wanted.metadata },
    } as ControllerRevision;
    const api = revisionApi([squatter]);
    const first = newCloneSetRevision(cs('a'), 1, 0);
    const out = await syncRevisions(api.client, input(cs('b'), [first]));
    expect(out.collisionCount).toBe(1);
    expect(api.calls[0]).toBe(`create ${wanted.metadata?.name}`);
    expect(api.calls[1]).toBe(`get ${wanted.metadata?.name}`);
    expect(api.calls[2]).toMatch(/^create web-/);
    expect(out.updateRevision.metadata?.name).not.toBe(wanted.metadata?.name);
    expect(out.sorted.map((r) => r.metadata?.name)).toContain(out.updateRevision.metadata?.name);
  });
});

describe('truncateHistory', () => {
  it('deletes the oldest unused revisions beyond the limit; a revision gone already is not an error', async () => {
    const revs = ['a', 'b', 'c', 'd'].map((img, i) => newCloneSetRevision(cs(img), i + 1, 0));
    const api = revisionApi(revs.slice(1));
    const errors: string[] = [];
    await truncateHistory(
      api.client,
      {
        sortedRevisions: revs,
        currentRevision: revs[3]?.metadata?.name ?? '',
        updateRevision: revs[3]?.metadata?.name ?? '',
        pods: [],
        revisionHistoryLimit: 1,
      },
      (_err, name) => errors.push(name),
    );
    expect(api.calls).toEqual([`delete ${revs[0]?.metadata?.name}`, `delete ${revs[1]?.metadata?.name}`]);
    expect(errors).toEqual([]);
  });
});
