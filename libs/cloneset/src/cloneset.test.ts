import { describe, expect, it } from 'vitest';
import { computeStatus, statusChanged } from './status.js';
import {
  cloneSetsForOrphan,
  cloneSetsForOrphanChange,
  isCloneSetPodOrOrphan,
  owningCloneSet,
} from './handlers.js';
import { cloneSetValidator, cloneSetWebhookConfigurations, cloneSetDefaulter } from './webhooks.js';
import { contextFromTraceparent, parseRolloutRecord } from '@regatta/workload';
import { rolloutSpec } from './cloneset-object.js';

const now = new Date('2026-12-02T12:00:00Z');
const ready = (rev: string, extra: Record<string, unknown> = {}) => ({
  metadata: {
    name: `p-${Math.random()}`,
    labels: { 'controller-revision-hash': rev, 'lifecycle.apps.kruise.io/state': 'Normal' },
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-12-02T11:00:00Z' }],
  },
  ...extra,
});
const pending = (rev: string) => ({
  metadata: { name: `q-${Math.random()}`, labels: { 'controller-revision-hash': rev } },
  status: { phase: 'Pending' },
});

describe('computeStatus (cloneset_status.go)', () => {
  const base = {
    generation: 4,
    specReplicas: 4,
    partition: undefined,
    minReadySeconds: 0,
    selector: { matchLabels: { app: 'cs' } },
    updateRevision: 'cs-new',
    currentRevision: 'cs-old',
    collisionCount: 0,
    now,
  };

  it('counts ready, available, updated; the current revision moves only when every pod is updated', () => {
    const s = computeStatus({
      ...base,
      pods: [ready('cs-old'), ready('cs-new'), ready('cs-new'), pending('cs-new')],
    });
    expect(s).toMatchObject({
      observedGeneration: 4,
      replicas: 4,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 2,
      updatedAvailableReplicas: 2,
      expectedUpdatedReplicas: 4,
      currentRevision: 'cs-old',
      updateRevision: 'cs-new',
      labelSelector: 'app=cs',
    });
    const all = computeStatus({
      ...base,
      pods: [ready('cs-new'), ready('cs-new'), pending('cs-new'), pending('cs-new')],
    });
    expect(all.currentRevision).toBe('cs-new');
  });

  it('expectedUpdatedReplicas follows the partition rounding (replicas 4, "99%" → 1)', () => {
    expect(computeStatus({ ...base, partition: '99%', pods: [] }).expectedUpdatedReplicas).toBe(1);
    expect(computeStatus({ ...base, partition: 3, pods: [] }).expectedUpdatedReplicas).toBe(1);
  });

  it('a pod held by an in-place update (InPlaceUpdateReady=False) is not ready', () => {
    const held = ready('cs-new');
    held.status.conditions.push({
      type: 'InPlaceUpdateReady',
      status: 'False',
      lastTransitionTime: '2026-12-02T11:00:00Z',
    });
    expect(computeStatus({ ...base, pods: [held] }).readyReplicas).toBe(0);
  });

  it('statusChanged compares the owned fields', () => {
    const s = computeStatus({ ...base, pods: [] });
    expect(statusChanged({ ...s }, s)).toBe(false);
    expect(statusChanged({ ...s, readyReplicas: 9 }, s)).toBe(true);
    expect(statusChanged(undefined, s)).toBe(true);
  });
});

describe('event handling', () => {
  const owner = [
    { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u1', controller: true },
  ];

  it("maps a pod to its CloneSet; keeps CloneSets' pods and orphans only", () => {
    const pod = { metadata: { name: 'web-abcde', namespace: 'ns', ownerReferences: owner } };
    expect(owningCloneSet(pod)).toEqual({ namespace: 'ns', name: 'web' });
    expect(isCloneSetPodOrOrphan(pod)).toBe(true);
    expect(isCloneSetPodOrOrphan({ metadata: { name: 'orphan', namespace: 'ns' } })).toBe(true);
    const rsPod = {
      metadata: {
        ...pod.metadata,
        ownerReferences: [{ ...owner[0]!, kind: 'ReplicaSet', apiVersion: 'apps/v1' }],
      },
    };
    expect(isCloneSetPodOrOrphan(rsPod)).toBe(false);
  });

  it('an orphan pod wakes the CloneSets of its namespace whose selector matches it', () => {
    const cs = (name: string, ns: string, selector: unknown) => ({
      metadata: { name, namespace: ns },
      spec: { selector },
    });
    const sets = [
      cs('web', 'ns', { matchLabels: { app: 'web' } }),
      cs('db', 'ns', { matchLabels: { app: 'db' } }),
      cs('web', 'other', { matchLabels: { app: 'web' } }),
      cs('broken', 'ns', { matchExpressions: [{ key: 'app', operator: 'Bogus' }] }),
    ];
    const orphan = { metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } } };
    expect(cloneSetsForOrphan(orphan, sets)).toEqual([{ namespace: 'ns', name: 'web' }]);
    expect(cloneSetsForOrphan({ metadata: { ...orphan.metadata, ownerReferences: owner } }, sets)).toEqual(
      [],
    );
    expect(cloneSetsForOrphan({ metadata: { ...orphan.metadata, deletionTimestamp: 'x' } }, sets)).toEqual(
      [],
    );
  });

  it('the Watches mapping on pods: an orphan added or updated wakes its adopters, a deleted one nothing', () => {
    const sets = [
      { metadata: { name: 'web', namespace: 'ns' }, spec: { selector: { matchLabels: { app: 'web' } } } },
    ];
    const readers = {
      clonesets: {
        list: ({ namespace }: { namespace: string }) =>
          sets.filter((s) => s.metadata.namespace === namespace),
      },
    };
    const orphan = { metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } } };
    expect(cloneSetsForOrphanChange({ type: 'add', object: orphan }, readers)).toEqual([
      { namespace: 'ns', name: 'web' },
    ]);
    expect(cloneSetsForOrphanChange({ type: 'delete', object: orphan }, readers)).toEqual([]);
  });

  it.each([
    ['a pod with a controller', { ownerReferences: owner }],
    ['a pod being deleted', { deletionTimestamp: '2026-12-05T00:00:00Z' }],
  ])("the Watches mapping on pods does not list the namespace's CloneSets for %s", (_, meta) => {
    let lists = 0;
    const readers = {
      clonesets: {
        list: () => {
          lists++;
          return [
            {
              metadata: { name: 'web', namespace: 'ns' },
              spec: { selector: { matchLabels: { app: 'web' } } },
            },
          ];
        },
      },
    };
    const pod = { metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' }, ...meta } };
    for (const type of ['add', 'update'] as const)
      expect(cloneSetsForOrphanChange({ type, object: pod }, readers)).toEqual([]);
    // listing them per pod event cost O(pods × CloneSets) (docs/reliability-findings-1-16.md finding 4)
    expect(lists).toBe(0);
  });

  it('ignores objects no CloneSet controls', () => {
    expect(
      owningCloneSet({
        metadata: {
          name: 'x',
          ownerReferences: [{ ...owner[0]!, kind: 'ReplicaSet', apiVersion: 'apps/v1' }],
        },
      }),
    ).toBeUndefined();
  });
});

describe('admission', () => {
  const cs = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
  const input = (object: unknown) => ({
    operation: 'CREATE' as const,
    object: object as never,
    oldObject: null,
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
    namespace: 'ns',
    name: 'web',
    userInfo: {},
    dryRun: false,
    uid: 'x',
  });

  it('defaults the update strategy', async () => {
    const out = (await cloneSetDefaulter()(input(cs))) as { spec: { updateStrategy: unknown } };
    expect(out.spec.updateStrategy).toMatchObject({
      type: 'ReCreate',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
    });
  });

  it('rejects a numeric-string partition naming the field', async () => {
    const bad = { ...cs, spec: { ...cs.spec, updateStrategy: { partition: '5' } } };
    const res = await cloneSetValidator()(input(bad));
    expect(res.allowed).toBe(false);
    if (!res.allowed) {
      expect(res.status.code).toBe(422);
      expect(res.status.details?.causes?.[0]?.field).toBe('spec.updateStrategy.partition');
    }
    expect((await cloneSetValidator()(input(cs))).allowed).toBe(true);
  });

  it('builds both webhook configurations with OpenKruise paths, Fail policy and the CA bundle', () => {
    const { mutating, validating } = cloneSetWebhookConfigurations('https://127.0.0.1:9443', 'PEM');
    expect(mutating.webhooks[0]).toMatchObject({
      clientConfig: {
        url: 'https://127.0.0.1:9443/mutate-apps-kruise-io-v1alpha1-cloneset',
        caBundle: 'UEVN',
      },
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    expect(validating.webhooks[0]).toMatchObject({
      clientConfig: { url: 'https://127.0.0.1:9443/validate-apps-kruise-io-v1alpha1-cloneset' },
    });
    const scoped = cloneSetWebhookConfigurations('https://127.0.0.1:9443', 'PEM', {
      matchLabels: { team: 'payments' },
    });
    expect(scoped.mutating.metadata?.name).toBe('regatta-cloneset-payments');
    expect(scoped.validating.webhooks[0]).toMatchObject({
      namespaceSelector: { matchLabels: { team: 'payments' } },
    });
  });
});

describe('rolloutSpec', () => {
  it('reads the v1alpha1 exclude-preparing-delete label and keeps a missing updateStrategy as v1alpha1 defaults', () => {
    const spec = rolloutSpec({
      metadata: { labels: { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' } },
      spec: {},
    });
    expect(spec.scaleStrategy?.excludePreparingDelete).toBe(true);
    expect(spec.updateStrategy).toEqual({});
    expect(spec.replicas).toBe(1);
  });
});

describe('rollout trace context', () => {
  it('reads the stored record and turns its traceparent into a parent context', async () => {
    const { trace } = await import('@opentelemetry/api');
    const tp = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(
      parseRolloutRecord(
        JSON.stringify({ traceparent: tp, from: 'a', to: 'b', start: '2026-12-02T12:00:00Z' }),
      ),
    ).toEqual({
      traceparent: tp,
      from: 'a',
      to: 'b',
      start: '2026-12-02T12:00:00Z',
    });
    expect(parseRolloutRecord('not json')).toBeUndefined();
    const ctx = contextFromTraceparent(tp)!;
    expect(trace.getSpanContext(ctx)).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
    });
    expect(contextFromTraceparent('garbage')).toBeUndefined();
  });
});

describe('Progressing condition', async () => {
  const { syncProgressing } = await import('./progressing.js');
  const now = new Date('2026-12-02T12:00:00Z');
  const status = computeStatus({
    generation: 1,
    specReplicas: 10,
    partition: undefined,
    minReadySeconds: 0,
    selector: undefined,
    pods: [],
    updateRevision: 'r2',
    currentRevision: 'r1',
    collisionCount: 0,
    now,
  });
  const run = (over: Partial<Parameters<typeof syncProgressing>[0]>) =>
    syncProgressing({
      progressDeadlineSeconds: 10,
      paused: false,
      specReplicas: 10,
      status,
      conditions: [],
      now,
      ...over,
    });
  const reason = (r: ReturnType<typeof syncProgressing>) =>
    r.conditions.find((c) => c.type === 'Progressing');

  it('no deadline or MaxInt32: no condition', () => {
    expect(run({ progressDeadlineSeconds: undefined }).conditions).toEqual([]);
    expect(
      run({
        progressDeadlineSeconds: 2147483647,
        conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetAvailable' }],
      }).conditions,
    ).toEqual([]);
  });
  it('available, paused, partition reached, updating, deadline exceeded', () => {
    const done = {
      ...status,
      replicas: 10,
      updatedReplicas: 10,
      updatedAvailableReplicas: 10,
      currentRevision: 'r2',
    };
    expect(reason(run({ status: done }))).toMatchObject({ status: 'True', reason: 'CloneSetAvailable' });
    expect(reason(run({ paused: true }))).toMatchObject({ status: 'True', reason: 'CloneSetPaused' });
    const held = { ...status, expectedUpdatedReplicas: 1, updatedAvailableReplicas: 1 };
    expect(reason(run({ status: held }))).toMatchObject({ reason: 'ProgressPartitionAvailable' });
    const updating = run({});
    expect(reason(updating)).toMatchObject({
      status: 'True',
      reason: 'CloneSetUpdated',
      message: 'CloneSet is progressing',
    });
    expect(updating.requeueAfterMs).toBe(11_000);
    const old = [
      {
        type: 'Progressing',
        status: 'True',
        reason: 'CloneSetUpdated',
        lastUpdateTime: '2026-12-02T11:00:00Z',
      },
    ];
    expect(reason(run({ conditions: old }))).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'CloneSet revision r2 has timed out progressing',
    });
  });
});
