// deletePodExpected: the pod delete every workload controller makes, with its expectation settled the way
// docs/adr/0061-writes-without-an-answer.md says (a delete whose answer was lost is read back).
import {
  ConflictError,
  ForbiddenError,
  type KubeObject,
  NotFoundError,
  ServerError,
  TimeoutError,
  isConflict,
  isNotFound,
} from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { deletePodExpected } from './pod-delete.js';
import { MemoryCluster } from './testing/memory-cluster.js';

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name: 'web-0', uid: 'u1' },
};
const timeout = () => new TimeoutError({ status: 0, serverMessage: 'DELETE pods/web-0 timed out' });
const unavailable = () => new ServerError({ status: 503, serverMessage: 'unavailable' });

interface Case {
  name: string;
  /** The delete: applied or not, then answered with this error (none: a plain success). */
  applied: boolean;
  answer?: () => Error;
  /** The read-back's GET fails every time. */
  readBackFails?: boolean;
  alsoGone?: (err: unknown) => boolean;
  result: 'deleted' | 'gone' | 'throws';
  /** The delete expectation is still pending afterwards. */
  pending: boolean;
}

const cases: Case[] = [
  {
    name: 'answered: deleted, expected until the cache shows it',
    applied: true,
    result: 'deleted',
    pending: true,
  },
  {
    name: 'answer lost, the read-back finds it gone: deleted',
    applied: true,
    answer: timeout,
    result: 'deleted',
    pending: true,
  },
  {
    name: 'a 5xx, the read-back finds it there: not deleted, expectation dropped',
    applied: false,
    answer: unavailable,
    result: 'throws',
    pending: false,
  },
  {
    name: 'answer lost and the read-back fails: unknown, the expectation stays',
    applied: false,
    answer: timeout,
    readBackFails: true,
    result: 'throws',
    pending: true,
  },
  {
    name: 'already gone (404): nothing deleted, expectation dropped',
    applied: false,
    answer: () => new NotFoundError({ status: 404, reason: 'NotFound', serverMessage: 'gone' }),
    result: 'gone',
    pending: false,
  },
  {
    name: 'another uid (409) counts as gone when the caller says so',
    applied: false,
    answer: () => new ConflictError({ status: 409, reason: 'Conflict', serverMessage: 'uid precondition' }),
    alsoGone: (err) => isNotFound(err) || isConflict(err),
    result: 'gone',
    pending: false,
  },
  {
    name: 'refused (403): thrown, expectation dropped',
    applied: false,
    answer: () => new ForbiddenError({ status: 403, reason: 'Forbidden', serverMessage: 'no' }),
    result: 'throws',
    pending: false,
  },
];

describe('deletePodExpected', () => {
  it.each(cases)('$name', { timeout: 10_000 }, async (c) => {
    const cluster = new MemoryCluster();
    cluster.add(pod);
    const pending = new Set<string>();
    const logged: string[] = [];
    const client = {
      delete: async (ref: { kind: string; namespace?: string; name: string }) => {
        if (c.applied) await cluster.writer.delete(ref as never);
        if (c.answer) throw c.answer();
      },
      get: async (ref: { kind: string; namespace?: string; name: string }) => {
        if (c.readBackFails) throw unavailable();
        return cluster.writer.get(ref as never);
      },
    } as never;
    const d = {
      client,
      expectations: {
        expectScale: (key: string, _a: 'delete', name: string) => void pending.add(`${key}/${name}`),
        observeScale: (key: string, _a: 'delete', name: string) => void pending.delete(`${key}/${name}`),
      },
      log: { info: (_o: object, msg: string) => void logged.push(msg) },
    };
    const run = deletePodExpected(d, 'ns/web', pod, c.alsoGone);
    if (c.result === 'throws') await expect(run).rejects.toThrow();
    else await expect(run).resolves.toBe(c.result);
    expect(pending.has('ns/web/web-0')).toBe(c.pending);
    expect(logged.length > 0).toBe(c.applied && c.answer !== undefined);
  });
});
