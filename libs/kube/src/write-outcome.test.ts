import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  NetworkError,
  NotFoundError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
} from './errors.js';
import type { KubeObject } from './meta.js';
import {
  deletedOnRead,
  generatedOnRead,
  mayHaveBeenApplied,
  settleWrite,
  versionAfter,
} from './write-outcome.js';

const timeout = new TimeoutError({ status: 0, serverMessage: 'the request timed out' });
const network = new NetworkError({ status: 0, serverMessage: 'socket hang up' }, false);
const server = new ServerError({ status: 500, serverMessage: 'etcdserver: request timed out' });
const conflict = new ConflictError({ status: 409, reason: 'Conflict', serverMessage: 'modified' });
const throttled = new TooManyRequestsError({ status: 429, serverMessage: 'slow down' });
const notFound = new NotFoundError({ status: 404, reason: 'NotFound', serverMessage: 'pods "a" not found' });

/** A read-back that fails its first call, then answers `found`. */
function failingOnce(found: boolean): () => Promise<boolean> {
  let calls = 0;
  return () => (calls++ === 0 ? Promise.reject(server) : Promise.resolve(found));
}

describe('writes without an answer (docs/adr/0061-writes-without-an-answer.md)', () => {
  it.each<[string, unknown, boolean]>([
    ['timed out', timeout, true],
    ['no response', network, true],
    ['a 5xx', server, true],
    ['409: refused', conflict, false],
    ['429: refused', throttled, false],
    ['404: refused', notFound, false],
    ['not an API error', new Error('bug'), false],
  ])('%s: may have been applied %s', (_, err, want) => {
    expect(mayHaveBeenApplied(err)).toBe(want);
  });

  it.each<[string, unknown, () => Promise<boolean>, string, number]>([
    // [case, the write's error, the read-back, outcome, read-backs made]
    ['a 4xx answer settles it without a read', conflict, () => Promise.resolve(true), 'not-applied', 0],
    ['no answer, the read-back finds the write', timeout, () => Promise.resolve(true), 'applied', 1],
    ['no answer, the read-back does not', server, () => Promise.resolve(false), 'not-applied', 1],
    ['no answer, every read-back fails too', network, () => Promise.reject(server), 'unknown', 3],
    [
      'no answer, the first read-back fails, the second finds the write',
      timeout,
      failingOnce(true),
      'applied',
      2,
    ],
  ])('%s', async (_, err, readBack, want, reads) => {
    let n = 0;
    const outcome = await settleWrite(err, () => {
      n++;
      return readBack();
    }, [0, 0]);
    expect(outcome).toBe(want);
    expect(n).toBe(reads);
  });

  it.each<[string, () => Promise<KubeObject>, boolean | 'throws']>([
    ['gone', () => Promise.reject(notFound), true],
    ['another object under the name', () => Promise.resolve({ metadata: { uid: 'u2' } }), true],
    ['marked for deletion', () => Promise.resolve({ metadata: { uid: 'u1', deletionTimestamp: 'x' } }), true],
    ['still there', () => Promise.resolve({ metadata: { uid: 'u1' } }), false],
    ['unreadable', () => Promise.reject(server), 'throws'],
  ])('the read-back of a delete on its uid: %s', async (_, get, want) => {
    const client = { get: get as never };
    const read = deletedOnRead(client, { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'a' }, 'u1');
    if (want === 'throws') await expect(read).rejects.toBe(server);
    else await expect(read).resolves.toBe(want);
  });

  const owned = (name: string, uid: string): KubeObject => ({
    metadata: { name, ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'ud', uid, controller: true }] },
  });
  it.each<[string, KubeObject[], string | undefined]>([
    ['none listed', [], undefined],
    ['only the one the cache holds', [owned('web-a-old', 'ud1')], undefined],
    ['another owner’s', [owned('web-a-x1', 'ud2')], undefined],
    ['a new one of ours', [owned('web-a-old', 'ud1'), owned('web-a-x2', 'ud1')], 'web-a-x2'],
  ])('the read-back of a create under a generated name: %s', async (_, items, want) => {
    const asked: unknown[] = [];
    const client = {
      list: (async (ref: unknown, opts: unknown) => {
        asked.push(ref, opts);
        return { items };
      }) as never,
    };
    const selector = { matchLabels: { subset: 'a' } };
    const ref = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'ns' };
    const found = await generatedOnRead(client, ref, selector, 'ud1', (n) => n === 'web-a-old');
    expect(found?.metadata?.name).toBe(want);
    expect(asked).toEqual([ref, { labelSelector: selector }]);
  });

  it.each<[string | undefined, string | undefined]>([
    ['41', '42'],
    ['18446744073709551615', '18446744073709551616'],
    ['', undefined],
    ['abc', undefined],
    [undefined, undefined],
  ])('a version after %s: %s', (rv, want) => {
    expect(versionAfter(rv)).toBe(want);
  });
});
