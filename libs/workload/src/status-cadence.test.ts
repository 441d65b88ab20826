import { type KubeObject, OwnWrites } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import {
  PROMPT_STATUS_WRITE_INTERVAL_MS,
  type ReplicaCounts,
  STATUS_WRITE_INTERVAL_MS,
  StatusCadence,
  type StatusCadenceRules,
  type StatusWriteDecision,
  changedBeyondCounters,
  decideStatusWrite,
  replicasChangedPromptly,
  replicasRolling,
} from './status-cadence.js';
import { writeStatusOnCadence } from './status-writer.js';
import { MemoryCluster } from './testing/memory-cluster.js';

interface S {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  updatedReplicas: number;
  updateRevision: string;
  conditions?: unknown[];
}

/** Settled: every replica updated and ready (the specs here have 10). */
const RULES: StatusCadenceRules<S> = {
  counters: ['replicas', 'readyReplicas', 'updatedReplicas'],
  settled: (n) => n.replicas === 10 && n.readyReplicas === 10 && n.updatedReplicas === 10,
};
const base: S = {
  observedGeneration: 2,
  replicas: 10,
  readyReplicas: 8,
  updatedReplicas: 5,
  updateRevision: 'r2',
};
const changed = (stored: unknown, next: S) => JSON.stringify(stored) !== JSON.stringify(next);
const I = STATUS_WRITE_INTERVAL_MS;

describe('decideStatusWrite', () => {
  it.each<[string, S | undefined, S, number | undefined, number, StatusWriteDecision]>([
    ['nothing changed', base, base, undefined, 0, { action: 'unchanged' }],
    ['nothing changed, just written', base, base, 0, 10, { action: 'unchanged' }],
    ['no stored status', undefined, base, 0, 10, { action: 'write', why: 'urgent' }],
    [
      'a counter, never written by this process',
      base,
      { ...base, readyReplicas: 9 },
      undefined,
      5,
      { action: 'write', why: 'due' },
    ],
    [
      'a counter, last write an interval ago',
      base,
      { ...base, readyReplicas: 9 },
      0,
      I,
      { action: 'write', why: 'due' },
    ],
    [
      'a counter, last write 300 ms ago',
      base,
      { ...base, readyReplicas: 9 },
      1000,
      1300,
      { action: 'defer', afterMs: I - 300 },
    ],
    [
      'counters only, just written',
      base,
      { ...base, readyReplicas: 9, updatedReplicas: 6 },
      1000,
      1000,
      { action: 'defer', afterMs: I },
    ],
    [
      'a clock that went back',
      base,
      { ...base, readyReplicas: 9 },
      5000,
      4000,
      { action: 'write', why: 'due' },
    ],
    [
      'observedGeneration',
      base,
      { ...base, observedGeneration: 3 },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'observedGeneration with counters',
      base,
      { ...base, observedGeneration: 3, readyReplicas: 7 },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'updateRevision',
      base,
      { ...base, updateRevision: 'r3' },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'a condition added',
      base,
      { ...base, conditions: [{ type: 'Progressing' }] },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'a condition removed',
      { ...base, conditions: [{ type: 'FailedScale' }] },
      base,
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'a new field (collisionCount)',
      base,
      { ...base, collisionCount: 1 } as S,
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'the rollout reaching done',
      base,
      { ...base, readyReplicas: 10, updatedReplicas: 10 },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'done, then a pod not ready',
      { ...base, readyReplicas: 10, updatedReplicas: 10 },
      { ...base, readyReplicas: 9, updatedReplicas: 10 },
      1000,
      1001,
      { action: 'defer', afterMs: I - 1 },
    ],
  ])('%s', (_, stored, next, lastWriteMs, nowMs, want) => {
    expect(
      decideStatusWrite({ stored, next, changed: changed(stored, next), lastWriteMs, nowMs }, RULES),
    ).toEqual(want);
  });

  it('the interval is a parameter', () => {
    const next = { ...base, readyReplicas: 9 };
    const facts = { stored: base, next, changed: true, lastWriteMs: 0, nowMs: 400 };
    expect(decideStatusWrite({ ...facts, intervalMs: 500 }, RULES)).toEqual({
      action: 'defer',
      afterMs: 100,
    });
    expect(decideStatusWrite({ ...facts, intervalMs: 400 }, RULES)).toEqual({ action: 'write', why: 'due' });
  });
});

describe('decideStatusWrite with a prompt rule (ADR 0070)', () => {
  /** Prompt: `replicas` or `readyReplicas` changed (the kinds' rule also asks that no rollout be under way). */
  const PROMPT: StatusCadenceRules<S> = {
    ...RULES,
    prompt: (stored, n) => stored['replicas'] !== n.replicas || stored['readyReplicas'] !== n.readyReplicas,
  };
  const P = PROMPT_STATUS_WRITE_INTERVAL_MS;
  it.each<[string, S, number | undefined, number, StatusWriteDecision]>([
    [
      'a prompt change, never written by this process',
      { ...base, replicas: 9 },
      undefined,
      5,
      { action: 'write', why: 'prompt' },
    ],
    [
      'a prompt change, 100 ms after a write',
      { ...base, replicas: 9 },
      1000,
      1100,
      { action: 'defer', afterMs: P - 100 },
    ],
    [
      'a prompt change, the prompt interval gone',
      { ...base, readyReplicas: 9 },
      1000,
      1000 + P,
      { action: 'write', why: 'prompt' },
    ],
    [
      'a prompt change, a clock that went back',
      { ...base, readyReplicas: 9 },
      5000,
      4000,
      { action: 'write', why: 'prompt' },
    ],
    [
      'not prompt: merged for the full interval',
      { ...base, updatedReplicas: 6 },
      1000,
      1000 + P,
      { action: 'defer', afterMs: I - P },
    ],
    [
      'prompt and settled: at once',
      { ...base, readyReplicas: 10, updatedReplicas: 10 },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
    [
      'prompt and a non-counter field: at once',
      { ...base, replicas: 9, observedGeneration: 3 },
      1000,
      1001,
      { action: 'write', why: 'urgent' },
    ],
  ])('%s', (_, next, lastWriteMs, nowMs, want) => {
    expect(decideStatusWrite({ stored: base, next, changed: true, lastWriteMs, nowMs }, PROMPT)).toEqual(
      want,
    );
  });

  it('the prompt interval is a parameter, never longer than the interval', () => {
    const facts = { stored: base, next: { ...base, replicas: 9 }, changed: true, lastWriteMs: 0, nowMs: 100 };
    expect(decideStatusWrite({ ...facts, promptIntervalMs: 250 }, PROMPT)).toEqual({
      action: 'defer',
      afterMs: 150,
    });
    expect(decideStatusWrite({ ...facts, promptIntervalMs: 5000, intervalMs: 300 }, PROMPT)).toEqual({
      action: 'defer',
      afterMs: 200,
    });
    expect(new StatusCadence(0).promptIntervalMs).toBe(0);
    expect(new StatusCadence().promptIntervalMs).toBe(P);
  });
});

describe("replicasChangedPromptly: the replica kinds' prompt rule", () => {
  const settled: ReplicaCounts = {
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    updatedReplicas: 3,
    updatedReadyReplicas: 3,
    updatedAvailableReplicas: 3,
  };
  const none = { ...settled, replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0 };
  it.each<[string, Record<string, unknown>, ReplicaCounts, number, boolean]>([
    ['pods created', none, { ...settled, readyReplicas: 0, availableReplicas: 0 }, 3, true],
    ['pods ready', { ...settled, readyReplicas: 0 }, settled, 3, true],
    ['pods available', { ...settled, availableReplicas: 0 }, settled, 3, true],
    ['a pod lost', settled, { ...settled, replicas: 2, updatedReplicas: 2 }, 3, true],
    ['no stored count', {}, settled, 3, true],
    ['only updated counts', { ...settled, updatedReadyReplicas: 2 }, settled, 3, false],
    ['mid-rollout readiness', settled, { ...settled, readyReplicas: 2, updatedReplicas: 1 }, 3, false],
    ['readiness at the partition', settled, { ...settled, readyReplicas: 2, updatedReplicas: 1 }, 1, true],
  ])('%s', (_, stored, next, expectedUpdated, want) => {
    expect(replicasChangedPromptly(stored, next, expectedUpdated)).toBe(want);
  });

  it.each<[string, Partial<ReplicaCounts>, number, boolean]>([
    ['all updated', { replicas: 3, updatedReplicas: 3 }, 3, false],
    ['fewer updated than expected', { replicas: 3, updatedReplicas: 1 }, 3, true],
    ['at the partition', { replicas: 3, updatedReplicas: 1 }, 1, false],
    ['scaling up, the new pods updated', { replicas: 2, updatedReplicas: 2 }, 5, false],
  ])('replicasRolling: %s', (_, n, expectedUpdated, want) => {
    expect(replicasRolling({ ...settled, ...n }, expectedUpdated)).toBe(want);
  });
});

describe('changedBeyondCounters', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['same', { a: 1, n: 1 }, { a: 1, n: 1 }, false],
    ['a counter', { a: 1, n: 1 }, { a: 1, n: 2 }, false],
    ['another field', { a: 1, n: 1 }, { a: 2, n: 1 }, true],
    ['a field only stored', { a: 1, b: [] }, { a: 1 }, true],
    ['undefined and null alike', { a: 1, b: null }, { a: 1 }, false],
    ['no stored status', undefined, { n: 1 }, false],
  ])('%s', (_, stored, next, want) => expect(changedBeyondCounters(stored, next, ['n'])).toBe(want));
});

describe('StatusCadence', () => {
  it('keeps a write time for one interval, then drops it', () => {
    const c = new StatusCadence(1000);
    c.wrote('ns/a', 100);
    expect(c.lastWrite('ns/a', 500)).toBe(100);
    expect(c.lastWrite('ns/b', 500)).toBeUndefined();
    expect(c.lastWrite('ns/a', 1100)).toBeUndefined();
    expect(c.size).toBe(0);
    c.wrote('ns/a', 2000);
    c.forget('ns/a');
    expect(c.lastWrite('ns/a', 2001)).toBeUndefined();
  });
});

describe('writeStatusOnCadence', () => {
  const KIND = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
  const workload = (status: S): KubeObject & { status: S } => ({
    ...KIND,
    metadata: { name: 'web', namespace: 'ns', uid: 'u1', resourceVersion: '1' },
    status,
  });

  it('writes the first change, defers counters inside the interval, writes urgent changes and the due one', async () => {
    const c = new MemoryCluster();
    c.add(workload(base));
    const cadence = new StatusCadence();
    const ownWrites = new OwnWrites();
    const write = (stored: S, status: S, atMs: number, urgent = false) =>
      writeStatusOnCadence(c.writer, {
        workload: ownWrites.view(workload(stored)),
        kind: KIND,
        status,
        changed,
        ownWrites,
        cadence,
        rules: RULES,
        now: new Date(atMs),
        urgent,
      });
    const s1 = { ...base, readyReplicas: 9 };
    expect(await write(base, s1, 10_000)).toEqual({ written: true, requeueAfterMs: 0 });
    // the cache still shows the old status: OwnWrites shows the written one, so s1 again is unchanged
    expect(await write(base, s1, 10_100)).toEqual({ written: false, requeueAfterMs: 0 });
    const s2 = { ...s1, updatedReplicas: 6 };
    expect(await write(s1, s2, 10_200)).toEqual({ written: false, requeueAfterMs: I - 200 });
    // a failed step writes whatever changed at once
    expect(await write(s1, s2, 10_300, true)).toEqual({ written: true, requeueAfterMs: 0 });
    const s3 = { ...s2, updatedReplicas: 7 };
    expect(await write(s2, s3, 10_400)).toEqual({ written: false, requeueAfterMs: I - 100 });
    const s4 = { ...s3, observedGeneration: 3 };
    expect(await write(s2, s4, 10_500)).toEqual({ written: true, requeueAfterMs: 0 });
    const s5 = { ...s4, readyReplicas: 8 };
    expect(await write(s4, s5, 10_500 + I)).toEqual({ written: true, requeueAfterMs: 0 });
    expect(c.written('patchStatus').map((w) => (w.body as { status: S }).status)).toEqual([s1, s2, s4, s5]);
  });

  it('a failed write is not counted as written', async () => {
    const c = new MemoryCluster();
    c.add(workload(base));
    const cadence = new StatusCadence();
    c.failOn(() => new Error('boom'));
    const w = {
      workload: workload(base),
      kind: KIND,
      status: { ...base, readyReplicas: 9 },
      changed,
      cadence,
      rules: RULES,
      now: new Date(0),
    };
    await expect(writeStatusOnCadence(c.writer, w)).rejects.toThrow('boom');
    expect(cadence.size).toBe(0);
  });
});
