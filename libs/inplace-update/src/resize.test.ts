import type { Container, Pod } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, applyMergePatch } from '@regatta/kube';
import { calculateInPlaceUpdateSpec } from './calculate-spec.js';
import { isResizeRefusal } from './inplace-update-control.js';
import { checkPodUpdateCompleted } from './completion.js';
import { INPLACE_UPDATE_READY } from './keys.js';
import {
  checkResizeActuated,
  conditionsToWrite,
  podQosClass,
  readResourceOp,
  resizeInfeasible,
  resizeInfeasibleCondition,
  resizeInfeasibleConditionChanged,
  resizePatch,
  withResizeInfeasibleCondition,
  resizeRestartsContainer,
} from './resize.js';
import { planInPlaceUpdate } from './update.js';

const c = (name: string, limits?: Record<string, string>, requests?: Record<string, string>): Container => ({
  name,
  image: 'nginx:1',
  ...(limits || requests
    ? { resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } }
    : {}),
});

describe('podQosClass', () => {
  const cases: [string, Container[], string][] = [
    ['no resources', [c('a')], 'BestEffort'],
    ['zero requests', [c('a', undefined, { cpu: '0' })], 'BestEffort'],
    ['limits only (requests default to them)', [c('a', { cpu: '1', memory: '1Gi' })], 'Guaranteed'],
    [
      'requests equal limits',
      [c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1000m', memory: '1024Mi' })],
      'Guaranteed',
    ],
    [
      'request below limit',
      [c('a', { cpu: '1', memory: '1Gi' }, { cpu: '500m', memory: '1Gi' })],
      'Burstable',
    ],
    ['cpu limit only', [c('a', { cpu: '1' })], 'Burstable'],
    ['one guaranteed, one best-effort', [c('a', { cpu: '1', memory: '1Gi' }), c('b')], 'Burstable'],
    ['requests only', [c('a', undefined, { cpu: '100m' })], 'Burstable'],
  ];
  it.each(cases)('%s', (_, containers, want) => expect(podQosClass({ containers })).toBe(want));
});

describe('readResourceOp', () => {
  const cases: [string, { op: string; path: string; value?: unknown }, unknown][] = [
    [
      'cpu limit replaced',
      { op: 'replace', path: '/spec/containers/1/resources/limits/cpu', value: '2' },
      { ok: true, container: 1, kind: 'limits', resource: 'cpu', value: '2' },
    ],
    [
      'numeric memory request',
      { op: 'replace', path: '/spec/containers/0/resources/requests/memory', value: 1024 },
      { ok: true, container: 0, kind: 'requests', resource: 'memory', value: '1024' },
    ],
    ['limit added', { op: 'add', path: '/spec/containers/0/resources/limits/cpu', value: '1' }, false],
    ['limit removed', { op: 'remove', path: '/spec/containers/0/resources/limits/cpu' }, false],
    [
      'whole limits map',
      { op: 'add', path: '/spec/containers/0/resources/limits', value: { cpu: '1' } },
      false,
    ],
    [
      'extended resource',
      { op: 'replace', path: '/spec/containers/0/resources/limits/nvidia.com~1gpu', value: '1' },
      false,
    ],
    [
      'ephemeral storage',
      { op: 'replace', path: '/spec/containers/0/resources/limits/ephemeral-storage', value: '1Gi' },
      false,
    ],
    [
      'not a quantity',
      { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: 'lots' },
      false,
    ],
  ];
  it.each(cases)('%s', (_, op, want) => {
    const got = readResourceOp(op);
    if (want === false) expect(got.ok).toBe(false);
    else expect(got).toEqual(want);
  });
});

const rev = (name: string, containers: Container[]): ControllerRevision => ({
  metadata: { name },
  data: { spec: { template: { $patch: 'replace', spec: { containers } } } },
  revision: 1,
});

describe('calculateInPlaceUpdateSpec with vertical scaling', () => {
  const burst = (cpu: string, image = 'nginx:1'): Container => ({
    ...c('app', { cpu, memory: '1Gi' }, { cpu: '100m', memory: '512Mi' }),
    image,
  });
  const cases: [string, Container[], Container[], boolean, unknown][] = [
    [
      'cpu limit only: resize',
      [burst('1')],
      [burst('2')],
      true,
      { inPlace: true, spec: { revision: 'new', containerResources: { app: { limits: { cpu: '2' } } } } },
    ],
    [
      'image and cpu limit: one update',
      [burst('1')],
      [burst('2', 'nginx:2')],
      true,
      {
        inPlace: true,
        spec: {
          revision: 'new',
          containerImages: { app: 'nginx:2' },
          containerResources: { app: { limits: { cpu: '2' } } },
        },
      },
    ],
    ['gate off: recreate', [burst('1')], [burst('2')], false, { inPlace: false, reason: 'SpecFieldChanged' }],
    [
      'Burstable to Guaranteed: recreate',
      [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '500m', memory: '1Gi' })],
      [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })],
      true,
      { inPlace: false, reason: 'QoSClassChanged' },
    ],
    [
      'Guaranteed stays Guaranteed',
      [c('app', { cpu: '1', memory: '1Gi' })],
      [c('app', { cpu: '2', memory: '2Gi' })],
      true,
      {
        inPlace: true,
        spec: { revision: 'new', containerResources: { app: { limits: { cpu: '2', memory: '2Gi' } } } },
      },
    ],
    [
      'a limit added: recreate',
      [c('app', undefined, { cpu: '100m' })],
      [c('app', { cpu: '1' }, { cpu: '100m' })],
      true,
      { inPlace: false, reason: 'ResourcesNotResizable' },
    ],
  ];
  it.each(cases)('%s', (_, before, after, verticalScaling, want) => {
    const got = calculateInPlaceUpdateSpec(rev('old', before), rev('new', after), { verticalScaling });
    expect(got).toMatchObject(want as object);
  });
  it('gives the QoS class change as the reason when a limit is added too', () => {
    const got = calculateInPlaceUpdateSpec(
      rev('old', [c('app', undefined, { cpu: '100m' })]),
      rev('new', [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]),
      { verticalScaling: true },
    );
    expect(got).toMatchObject({ inPlace: false, reason: 'QoSClassChanged' });
  });
  it('names both QoS classes in the message', () => {
    const got = calculateInPlaceUpdateSpec(
      rev('old', [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '500m', memory: '1Gi' })]),
      rev('new', [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]),
      { verticalScaling: true },
    );
    expect(got.inPlace ? '' : got.message).toMatch(/from Burstable to Guaranteed/);
  });
});

const pod = (containers: Container[], status: Pod['status'] = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '7' },
  spec: { containers },
  status,
});

describe('resizePatch', () => {
  const cases: [string, Container[], Record<string, object>, unknown][] = [
    [
      'cpu limit changes',
      [c('app', { cpu: '1', memory: '1Gi' })],
      { app: { limits: { cpu: '2' } } },
      {
        metadata: { resourceVersion: '7' },
        spec: { containers: [{ name: 'app', resources: { limits: { cpu: '2' } } }] },
      },
    ],
    [
      'same quantity, other spelling',
      [c('app', { cpu: '1' })],
      { app: { limits: { cpu: '1000m' } } },
      undefined,
    ],
    ['unknown container', [c('app', { cpu: '1' })], { other: { limits: { cpu: '2' } } }, undefined],
    [
      'only resizable resources',
      [c('app', { cpu: '1' })],
      { app: { limits: { cpu: '2', 'ephemeral-storage': '1Gi' } } },
      {
        metadata: { resourceVersion: '7' },
        spec: { containers: [{ name: 'app', resources: { limits: { cpu: '2' } } }] },
      },
    ],
  ];
  it.each(cases)('%s', (_, containers, wanted, want) =>
    expect(resizePatch(pod(containers), wanted, '7')).toEqual(want),
  );
});

describe('resizeRestartsContainer', () => {
  const withPolicy = (policy: Record<string, string>): Container => ({
    ...c('app', { cpu: '1', memory: '1Gi' }),
    resizePolicy: Object.entries(policy).map(([resourceName, restartPolicy]) => ({
      resourceName,
      restartPolicy,
    })),
  });
  const cases: [string, Container, object, boolean][] = [
    ['no policy', c('app', { cpu: '1' }), { app: { limits: { cpu: '2' } } }, false],
    [
      'memory restarts, cpu changes',
      withPolicy({ memory: 'RestartContainer' }),
      { app: { limits: { cpu: '2' } } },
      false,
    ],
    [
      'memory restarts, memory changes',
      withPolicy({ memory: 'RestartContainer' }),
      { app: { requests: { memory: '2Gi' } } },
      true,
    ],
    ['cpu NotRequired', withPolicy({ cpu: 'NotRequired' }), { app: { limits: { cpu: '2' } } }, false],
  ];
  it.each(cases)('%s', (_, container, resized, want) =>
    expect(resizeRestartsContainer(pod([container]), resized as never)).toBe(want),
  );
});

describe('checkResizeActuated', () => {
  const spec = [c('app', { cpu: '2', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' })];
  const status = (limits: Record<string, string>, conditions: object[] = []): Pod['status'] => ({
    conditions: conditions as never,
    containerStatuses: [
      {
        name: 'app',
        ready: true,
        restartCount: 0,
        image: 'nginx:1',
        imageID: 'x',
        resources: { limits, requests: { cpu: '100m', memory: '1Gi' } },
      } as never,
    ],
  });
  const cases: [string, Pod['status'], boolean][] = [
    ['status matches (other spelling)', status({ cpu: '2000m', memory: '1024Mi' }), true],
    ['old limit still reported', status({ cpu: '1', memory: '1Gi' }), false],
    ['no container status', {}, false],
    [
      'in progress',
      status({ cpu: '2', memory: '1Gi' }, [{ type: 'PodResizeInProgress', status: 'True' }]),
      false,
    ],
    [
      'pending (Deferred)',
      status({ cpu: '1', memory: '1Gi' }, [{ type: 'PodResizePending', status: 'True', reason: 'Deferred' }]),
      false,
    ],
  ];
  it.each(cases)('%s', (_, st, want) => expect(checkResizeActuated(pod(spec, st)).completed).toBe(want));
});

describe('resizeInfeasible', () => {
  it.each([
    ['Infeasible', "Node didn't have enough capacity: cpu", "Node didn't have enough capacity: cpu"],
    ['Deferred', 'later', undefined],
  ])('%s', (reason, message, want) =>
    expect(
      resizeInfeasible(
        pod([], { conditions: [{ type: 'PodResizePending', status: 'True', reason, message }] }),
      ),
    ).toBe(want),
  );
});

describe('planInPlaceUpdate of a resize', () => {
  const gate = { readinessGates: [{ conditionType: INPLACE_UPDATE_READY }] };
  const before = [c('app', { cpu: '1', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' })];
  const after = [c('app', { cpu: '2', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' })];
  const running: Pod = {
    metadata: { name: 'p', namespace: 'ns', labels: { 'controller-revision-hash': 'old' } },
    spec: { ...gate, containers: before },
    status: { conditions: [{ type: INPLACE_UPDATE_READY, status: 'True' }] },
  };
  it('keeps the pod in service, leaves its spec resources to pods/resize and records the resize', () => {
    const plan = planInPlaceUpdate(running, rev('old', before), rev('new', after), {
      now: new Date('2026-01-01T00:00:00Z'),
      verticalScaling: true,
    });
    if (!plan.inPlace) throw new Error(plan.message);
    expect(plan.conditions).toBeUndefined();
    expect(plan.resize).toEqual({ app: { limits: { cpu: '2' } } });
    expect(plan.pod.spec?.containers?.[0]?.resources).toEqual(before[0]?.resources);
    expect(plan.state.updateResources).toBe(true);
    // not done until the kubelet reports the new resources
    const resized: Pod = { ...plan.pod, spec: { ...gate, containers: after } };
    expect(checkPodUpdateCompleted(resized).completed).toBe(false);
    const actuated: Pod = {
      ...resized,
      status: {
        containerStatuses: [
          {
            name: 'app',
            ready: true,
            restartCount: 0,
            image: 'nginx:1',
            imageID: 'x',
            resources: after[0]?.resources,
          } as never,
        ],
      },
    };
    expect(checkPodUpdateCompleted(actuated).completed).toBe(true);
  });
  it('takes the pod out of service when a container restarts for the resize', () => {
    const policy = { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] };
    const p: Pod = { ...running, spec: { ...gate, containers: [{ ...before[0], ...policy } as Container] } };
    const plan = planInPlaceUpdate(p, rev('old', before), rev('new', after), {
      now: new Date('2026-01-01T00:00:00Z'),
      verticalScaling: true,
    });
    expect(plan.inPlace && plan.conditions?.find((x) => x.type === INPLACE_UPDATE_READY)?.status).toBe(
      'False',
    );
  });
});

describe('resizeInfeasibleCondition', () => {
  const infeasible = (name: string): Pod => ({
    metadata: { name },
    status: {
      conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: 'too big' }],
    },
  });
  const ok: Pod = { metadata: { name: 'ok' }, status: {} };
  it.each([
    ['none', [ok], undefined],
    ['one', [ok, infeasible('b')], 'the node refused to resize pod in place (b: too big)'],
    [
      'two, sorted',
      [infeasible('b'), infeasible('a')],
      'the node refused to resize 2 pods in place (a: too big; b: too big)',
    ],
  ] as const)('%s', (_, pods, message) => {
    expect(resizeInfeasibleCondition(pods)?.message).toBe(message);
  });
});

describe('PodResizeInfeasible goes once no pod is refused (issue 45: it stayed after a revert)', () => {
  type Cond = { type: string; status: string; reason?: string; message?: string };
  const set = (list: readonly Cond[], c: Cond): Cond[] => [...list.filter((x) => x.type !== c.type), c];
  const pod: Pod = { metadata: { name: 'big-x' }, status: {} };
  /** One round's status step: the conditions computed, then the merge patch of `status` applied to the stored one. */
  const round = (stored: { conditions?: Cond[] }, refused: Map<string, string>) => {
    const next = withResizeInfeasibleCondition(stored.conditions ?? [], [pod], set, refused);
    const conditions = conditionsToWrite(stored.conditions, next);
    const patch = { replicas: 1, ...(conditions ? { conditions } : {}) };
    return applyMergePatch<{ conditions?: Cond[] }>(stored, patch);
  };

  it('the API server refuses, then the template is reverted: the stored status loses the condition', () => {
    const refusedOnce = round(
      {},
      new Map([['big-x', 'node did not have enough allocatable resources: cpu']]),
    );
    expect(refusedOnce.conditions?.map((c) => c.type)).toEqual(['PodResizeInfeasible']);
    const reverted = round(refusedOnce, new Map());
    expect(reverted.conditions ?? []).toEqual([]);
    // and the next round has nothing to write
    expect(round(reverted, new Map()).conditions ?? []).toEqual([]);
  });

  it('other conditions stay', () => {
    const other: Cond = { type: 'FailedScale', status: 'True' };
    const stored = round({ conditions: [other] }, new Map([['big-x', 'too big']]));
    expect(round(stored, new Map()).conditions).toEqual([other]);
  });

  it.each([
    ['neither has conditions', undefined, undefined, undefined],
    ['next has some', [], [{ type: 'A' }], [{ type: 'A' }]],
    ['the last one goes', [{ type: 'A' }], [], []],
    ['the last one goes (next left out)', [{ type: 'A' }], undefined, []],
    ['stored empty list, none next', [], undefined, undefined],
  ] as const)('conditionsToWrite: %s', (_, stored, next, want) => {
    expect(conditionsToWrite<{ type: string }>(stored, next)).toEqual(want);
  });

  const infeasible = (message: string) => ({ type: 'PodResizeInfeasible', status: 'True', message });
  it.each([
    ['absent both', [], [], false],
    ['appears', [], [infeasible('a')], true],
    ['goes', [infeasible('a')], [], true],
    ['goes (conditions left out)', [infeasible('a')], undefined, true],
    ['same', [infeasible('a')], [infeasible('a')], false],
    ['other pods', [infeasible('a')], [infeasible('b')], true],
    ['other conditions only', [{ type: 'FailedCreatePod', status: 'True' }], [], false],
  ] as const)('resizeInfeasibleConditionChanged: %s', (_, stored, next, want) => {
    expect(resizeInfeasibleConditionChanged(stored, next)).toBe(want);
  });
});

describe('isResizeRefusal', () => {
  const forbidden = (serverMessage: string) =>
    new ForbiddenError({ status: 403, reason: 'Forbidden', serverMessage });
  it.each([
    [
      'beyond the node allocatable',
      forbidden(
        `pods "p" is forbidden: node didn't have enough allocatable resources: cpu, requested: 64000, allocatable: 8000`,
      ),
      true,
    ],
    [
      'an RBAC denial',
      forbidden(
        'pods "p" is forbidden: User "system:serviceaccount:x:y" cannot patch resource "pods/resize" in API group ""',
      ),
      false,
    ],
    ['another error', new Error('allocatable'), false],
  ] as const)('%s', (_, err, want) => expect(isResizeRefusal(err)).toBe(want));
});
