import { type KubeObject, isProjected } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import {
  ADS_POD_FIELDS,
  ASTS_POD_FIELDS,
  CLONESET_POD_FIELDS,
  IMAGEPULL_POD_FIELDS,
  PUB_POD_FIELDS,
  SIDECARSET_POD_FIELDS,
  UD_POD_FIELDS,
} from './pod-fields.js';
import { type FieldSet, StringTable, projectObject, projection, unionFieldSets } from './projection.js';

type Obj = KubeObject & Record<string, unknown>;
/** As JSON sees it (the marker is a Symbol property, which equality would compare). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('projectObject', () => {
  const cases: [string, Obj, FieldSet, unknown][] = [
    ['keeps only the named fields', { a: 1, b: 2, c: { d: 3 } }, { a: true, c: true }, { a: 1, c: { d: 3 } }],
    ['fields absent stay absent', { a: 1 }, { a: true, b: true, c: { d: true } }, { a: 1 }],
    ['nested sets', { s: { x: 1, y: 2 } }, { s: { y: true } }, { s: { y: 2 } }],
    [
      'a set over a list applies to each element',
      { l: [{ n: 'a', x: 1 }, { n: 'b', x: 2 }, 'v'] },
      { l: { n: true } },
      { l: [{ n: 'a' }, { n: 'b' }, 'v'] },
    ],
    [
      "'*' keeps every other field",
      { m: { a: 1, b: 2, c: 3 } },
      { m: { '*': true, b: 'shared' } },
      { m: { a: 1, b: 2, c: 3 } },
    ],
    ['a set over a primitive keeps it', { s: 'x' }, { s: { y: true } }, { s: 'x' }],
  ];
  it.each(cases)('%s', (_name, obj, fields, want) => {
    expect(plain(projectObject(obj, fields, new StringTable()))).toEqual(want);
  });

  it('marks the object and each nested object it trimmed, and nothing else', () => {
    const obj: Obj = {
      metadata: { name: 'x' },
      spec: { keep: 1, drop: 2, c: [{ n: 'a', x: 1 }, { n: 'b' }] },
      st: { a: 1 },
    };
    const out = projectObject(
      obj,
      { metadata: true, spec: { keep: true, c: { n: true } }, st: { a: true } },
      new StringTable(),
    );
    const spec = out['spec'] as { c: object[] };
    expect(isProjected(out)).toBe(true);
    expect(isProjected(spec)).toBe(true);
    expect(spec.c.map(isProjected)).toEqual([true, false]);
    expect(isProjected(out['st'])).toBe(false);
    expect(isProjected(out.metadata)).toBe(false);
    // kept values are the decoded ones, not copies
    expect(out.metadata).toBe(obj.metadata);
  });

  it("'shared' takes equal strings from one table: the same string object for every pod", () => {
    const table = new StringTable();
    const decode = (): Obj =>
      JSON.parse(JSON.stringify({ spec: { image: `registry.example/app:${'1'.repeat(20)}` } }));
    const fields: FieldSet = { spec: { image: 'shared' } };
    const a = projectObject(decode(), fields, table);
    const b = projectObject(decode(), fields, table);
    expect((a['spec'] as { image: string }).image).toBe((b['spec'] as { image: string }).image);
    expect(table.size).toBe(1);
  });
});

describe("'deduped'", () => {
  it('holds a value equal across objects once, frozen, and a different one apart', () => {
    const table = new StringTable();
    const fields: FieldSet = { spec: { env: 'deduped' } };
    const decode = (v: string): Obj =>
      JSON.parse(JSON.stringify({ spec: { env: [{ name: 'A', value: v }] } }));
    const a = projectObject(decode('1'), fields, table)['spec'] as { env: { value: string }[] };
    const b = projectObject(decode('1'), fields, table)['spec'] as { env: { value: string }[] };
    const c = projectObject(decode('2'), fields, table)['spec'] as { env: { value: string }[] };
    expect(b.env).toBe(a.env);
    expect(c.env).not.toBe(a.env);
    expect(plain(c.env)).toEqual([{ name: 'A', value: '2' }]);
    expect(Object.isFrozen(a.env) && Object.isFrozen(a.env[0])).toBe(true);
    // a holder cannot change what the others hold
    expect(() => {
      a.env[0]!.value = 'x';
    }).toThrow(TypeError);
    expect(table.values).toBe(2);
  });

  it('is bounded too', () => {
    const table = new StringTable(10, 256, 2);
    for (let i = 0; i < 100; i++) table.dedupe({ i });
    expect(table.values).toBeLessThanOrEqual(2);
    expect(table.dedupe('s')).toBe('s');
    expect(table.dedupe(3)).toBe(3);
  });
});

describe('StringTable', () => {
  it('is bounded: a churn of unique values empties it and it fills again', () => {
    const table = new StringTable(3);
    for (const s of ['a', 'b', 'c', 'a', 'd', 'e']) table.share(s);
    expect(table.size).toBeLessThanOrEqual(3);
    for (let i = 0; i < 10_000; i++) table.share(`uid-${i}`);
    expect(table.size).toBeLessThanOrEqual(3);
  });

  it('never holds long strings', () => {
    const table = new StringTable(10, 8);
    const long = 'x'.repeat(9);
    expect(table.share(long)).toBe(long);
    expect(table.size).toBe(0);
  });
});

describe('unionFieldSets', () => {
  const cases: [string, FieldSet, FieldSet, FieldSet][] = [
    ['disjoint fields', { a: true }, { b: true }, { a: true, b: true }],
    ['nested sets merge', { s: { x: true } }, { s: { y: true } }, { s: { x: true, y: true } }],
    ['the whole value wins over a set', { s: { x: true } }, { s: true }, { s: true }],
    [
      'shared wins over a set and over true',
      { s: { x: true }, t: true },
      { s: 'shared', t: 'shared' },
      { s: 'shared', t: 'shared' },
    ],
    ['deduped wins over shared', { s: 'deduped' }, { s: 'shared' }, { s: 'deduped' }],
  ];
  it.each(cases)('%s', (_name, a, b, want) => {
    expect(unionFieldSets(a, b)).toEqual(want);
    expect(unionFieldSets(b, a)).toEqual(want);
  });
});

/** A pod as the API server has it, with fields no program reads (ports, probes, volumes, tolerations, IPs). */
const fullPod = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-abcde',
    namespace: 'ns',
    uid: 'u1',
    resourceVersion: '5',
    labels: { app: 'web' },
    annotations: { 'apps.kruise.io/inplace-update-state': '{}' },
    ownerReferences: [
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'c1', controller: true },
    ],
    finalizers: ['f'],
    deletionGracePeriodSeconds: 30,
    someFutureField: 'kept',
  },
  spec: {
    nodeName: 'node-1',
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
    containers: [
      {
        name: 'main',
        image: 'nginx:1',
        env: [{ name: 'A', value: 'b' }],
        resources: { requests: { cpu: '100m' } },
        ports: [{ containerPort: 80 }],
        livenessProbe: { httpGet: { path: '/' } },
      },
    ],
    volumes: [{ name: 'v', emptyDir: {} }],
    tolerations: [{ key: 'k' }],
  },
  status: {
    phase: 'Running',
    podIP: '10.0.0.2',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 't', observedGeneration: 1 }],
    containerStatuses: [
      {
        name: 'main',
        image: 'nginx:1',
        imageID: 'docker://sha',
        containerID: 'containerd://x',
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: 't' } },
        lastState: {},
      },
    ],
  },
});

/** What `fields` keeps of one field a program reads (`path`: top.field, set to `value`; the pod has nothing else). */
function keptRead(fields: FieldSet, path: string, value: unknown): unknown {
  const [top, field] = path.split('.') as [string, string];
  const obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, [top]: { [field]: value, other: 1 } };
  const out = projection(fields)(obj as Obj) as Obj;
  return plain((out[top] as Record<string, unknown>)[field]);
}

describe('CLONESET_POD_FIELDS', () => {
  const pod = fullPod;

  it('keeps every metadata field, what the CloneSet program reads of spec and status, and nothing else', () => {
    const out = projection(CLONESET_POD_FIELDS)(pod()) as Obj;
    expect(plain(out.metadata)).toEqual(pod().metadata);
    expect(plain(out['spec'])).toEqual({
      nodeName: 'node-1',
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      containers: [
        {
          name: 'main',
          image: 'nginx:1',
          env: [{ name: 'A', value: 'b' }],
          resources: { requests: { cpu: '100m' } },
        },
      ],
    });
    expect(plain(out['status'])).toEqual({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 't', observedGeneration: 1 }],
      containerStatuses: [
        {
          name: 'main',
          image: 'nginx:1',
          imageID: 'docker://sha',
          containerID: 'containerd://x',
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: 't' } },
        },
      ],
    });
    expect(isProjected(out)).toBe(true);
  });
});

describe('ASTS_POD_FIELDS', () => {
  it("keeps the CloneSet program's fields, the pod's identity and of each volume its name and claim", () => {
    const spec = ASTS_POD_FIELDS['spec'] as FieldSet;
    expect(spec['hostname']).toBe('shared');
    expect(spec['subdomain']).toBe('shared');
    // libs/asts planning/identity.ts `storageMatches`: each volume's name and persistentVolumeClaim.claimName
    const volumes = [
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0', readOnly: true } },
      { name: 'scratch', emptyDir: { sizeLimit: '1Mi' } },
    ];
    expect(keptRead(ASTS_POD_FIELDS, 'spec.volumes', volumes)).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
      { name: 'scratch' },
    ]);
    expect(spec['containers']).toEqual((CLONESET_POD_FIELDS['spec'] as FieldSet)['containers']);
    expect(ASTS_POD_FIELDS['status']).toEqual(CLONESET_POD_FIELDS['status']);
    expect(ASTS_POD_FIELDS['metadata']).toEqual(CLONESET_POD_FIELDS['metadata']);
  });
});

describe('ADS_POD_FIELDS', () => {
  it("keeps the CloneSet program's fields and the pod's node affinity", () => {
    expect((ADS_POD_FIELDS['spec'] as FieldSet)['affinity']).toBe('shared');
    expect(ADS_POD_FIELDS['status']).toEqual(CLONESET_POD_FIELDS['status']);
  });
});

describe('SIDECARSET_POD_FIELDS', () => {
  it('keeps every metadata field, what the SidecarSet program reads of spec and status, and nothing else', () => {
    const out = projection(SIDECARSET_POD_FIELDS)(fullPod()) as Obj;
    expect(plain(out.metadata)).toEqual(fullPod().metadata);
    expect(plain(out['spec'])).toEqual({
      nodeName: 'node-1',
      // the launch-priority barrier reads the containers' env (libs/sidecarset launch-priority); resources: sidecar
      // resizes (docs/adr/0087)
      containers: [
        {
          name: 'main',
          image: 'nginx:1',
          env: [{ name: 'A', value: 'b' }],
          resources: { requests: { cpu: '100m' } },
        },
      ],
    });
    expect(plain(out['status'])).toEqual({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 't', observedGeneration: 1 }],
      containerStatuses: [
        { name: 'main', image: 'nginx:1', imageID: 'docker://sha', ready: true, restartCount: 0 },
      ],
    });
    expect(isProjected(out)).toBe(true);
  });

  // per field the program reads, where (the rest of the pod is dropped)
  const reads: [string, string, unknown][] = [
    ['metadata.annotations', 'injected list, hash, in-place state, hot-upgrade twins', { a: 'b' }],
    ['metadata.labels', 'selector, update selector, priority and scatter', { app: 'web' }],
    ['metadata.deletionTimestamp', 'active pods', 't'],
    ['metadata.creationTimestamp', 'update order (libs/rollout)', 't'],
    ['spec.nodeName', 'update order (libs/rollout)', 'node-1'],
    ['status.phase', 'active, running and ready', 'Running'],
  ];
  it.each(reads)('keeps %s (%s)', (path, _why, value) => {
    expect(keptRead(SIDECARSET_POD_FIELDS, path, value)).toEqual(value);
  });

  it('keeps the init containers and their statuses (native sidecars are upgraded in place)', () => {
    const init = {
      name: 'proxy',
      image: 'envoy:1',
      restartPolicy: 'Always',
      env: [{ name: 'A', value: 'b' }],
    };
    const status = {
      name: 'proxy',
      image: 'envoy:1',
      imageID: 'sha',
      ready: true,
      containerID: 'c',
      started: true,
    };
    const pod = {
      ...fullPod(),
      spec: { initContainers: [init] },
      status: { initContainerStatuses: [status] },
    };
    const out = projection(SIDECARSET_POD_FIELDS)(pod) as Obj;
    expect(plain(out['spec'])).toEqual({
      initContainers: [{ name: 'proxy', image: 'envoy:1', restartPolicy: 'Always' }],
    });
    expect(plain(out['status'])).toEqual({
      initContainerStatuses: [{ name: 'proxy', image: 'envoy:1', imageID: 'sha', ready: true }],
    });
  });

  it("shares the CloneSet program's metadata rules", () => {
    expect(SIDECARSET_POD_FIELDS['metadata']).toEqual(CLONESET_POD_FIELDS['metadata']);
  });
});

describe('UD_POD_FIELDS', () => {
  it('keeps every metadata field, what the UnitedDeployment program reads of spec and status, and nothing else', () => {
    const out = projection(UD_POD_FIELDS)(fullPod()) as Obj;
    expect(plain(out.metadata)).toEqual(fullPod().metadata);
    expect(plain(out['spec'])).toEqual({ nodeName: 'node-1' });
    expect(plain(out['status'])).toEqual({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 't', observedGeneration: 1 }],
    });
    expect(isProjected(out)).toBe(true);
  });

  // per field libs/uniteddeployment reads, where (the rest of the pod is dropped)
  const reads: [string, string, unknown][] = [
    [
      'metadata.labels',
      'subset name and revision, reserved label, subset selectors (sync/subsets.ts)',
      { a: 'b' },
    ],
    ['metadata.namespace', 'the UnitedDeployments of the pod (handlers.ts)', 'ns'],
    [
      'metadata.name',
      'stuck-pod ordinal and delete, reserved-label patch (sync/manage.ts, reconciler.ts)',
      'p-0',
    ],
    ['metadata.deletionTimestamp', 'active pods, timeouts (subset/pods.ts, allocation/pod-timeouts.ts)', 't'],
    ['metadata.creationTimestamp', 'the pending timeout (allocation/pod-timeouts.ts)', 't'],
    ['spec.nodeName', 'an unbound pending pod (allocation/pod-timeouts.ts)', 'node-1'],
    ['status.phase', 'active, pending and running pods', 'Pending'],
    [
      'status.conditions',
      'Ready and its transition time, PodScheduled Unschedulable (subset/pods.ts, allocation/reserved-status.ts)',
      [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: 't' }],
    ],
  ];
  it.each(reads)('keeps %s (%s)', (path, _why, value) => {
    expect(keptRead(UD_POD_FIELDS, path, value)).toEqual(value);
  });

  it("shares the CloneSet program's metadata rules", () => {
    expect(UD_POD_FIELDS['metadata']).toEqual(CLONESET_POD_FIELDS['metadata']);
  });
});

describe('IMAGEPULL_POD_FIELDS', () => {
  it('keeps every metadata field, the node and the phase, and nothing else', () => {
    const out = projection(IMAGEPULL_POD_FIELDS)(fullPod()) as Obj;
    expect(plain(out.metadata)).toEqual(fullPod().metadata);
    expect(plain(out['spec'])).toEqual({ nodeName: 'node-1' });
    expect(plain(out['status'])).toEqual({ phase: 'Running' });
    expect(isProjected(out)).toBe(true);
  });

  // per field libs/imagepull reads, where (the rest of the pod is dropped)
  const reads: [string, string, unknown][] = [
    ['metadata.labels', "the job's podSelector (targets.ts), a label change (handlers.ts)", { app: 'web' }],
    ['metadata.namespace', "the job's namespace (targets.ts, handlers.ts)", 'ns'],
    ['metadata.deletionTimestamp', 'active pods (targets.ts isActivePod)', 't'],
    ['spec.nodeName', 'the NodeImage the pod puts the job on (targets.ts, handlers.ts)', 'node-1'],
    ['status.phase', 'active pods (targets.ts isActivePod)', 'Succeeded'],
  ];
  it.each(reads)('keeps %s (%s)', (path, _why, value) => {
    expect(keptRead(IMAGEPULL_POD_FIELDS, path, value)).toEqual(value);
  });

  it("shares the CloneSet program's metadata rules", () => {
    expect(IMAGEPULL_POD_FIELDS['metadata']).toEqual(CLONESET_POD_FIELDS['metadata']);
  });
});

describe('PUB_POD_FIELDS', () => {
  it('keeps every metadata field, what the PodUnavailableBudget program reads of spec and status, and nothing else', () => {
    const out = projection(PUB_POD_FIELDS)(fullPod()) as Obj;
    expect(plain(out.metadata)).toEqual(fullPod().metadata);
    expect(plain(out['spec'])).toEqual({
      containers: [
        {
          name: 'main',
          image: 'nginx:1',
          env: [{ name: 'A', value: 'b' }],
          resources: { requests: { cpu: '100m' } },
        },
      ],
    });
    expect(plain(out['status'])).toEqual({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 't', observedGeneration: 1 }],
      containerStatuses: [
        { name: 'main', image: 'nginx:1', imageID: 'docker://sha', containerID: 'containerd://x' },
      ],
    });
    expect(isProjected(out)).toBe(true);
  });

  // per field libs/podunavailablebudget reads, where (the rest of the pod is dropped)
  const reads: [string, string, unknown][] = [
    [
      'metadata.labels',
      'selectors, guard mark, unavailable labels (selection.ts, budget.ts)',
      { app: 'web' },
    ],
    [
      'metadata.annotations',
      'related budget, no-protect, in-place and sidecar states (decision.ts, budget.ts)',
      { a: 'b' },
    ],
    [
      'metadata.ownerReferences',
      'the workload a pod counts for (selection.ts)',
      [{ kind: 'CloneSet', uid: 'c1' }],
    ],
    ['metadata.deletionTimestamp', 'active pods (selection.ts)', 't'],
    ['status.phase', 'active and available pods (budget.ts)', 'Running'],
    [
      'status.conditions',
      'Ready, InPlaceUpdateReady (budget.ts, decision.ts)',
      [{ type: 'Ready', status: 'True' }],
    ],
  ];
  it.each(reads)('keeps %s (%s)', (path, _why, value) => {
    expect(keptRead(PUB_POD_FIELDS, path, value)).toEqual(value);
  });

  it("shares the CloneSet program's metadata rules", () => {
    expect(PUB_POD_FIELDS['metadata']).toEqual(CLONESET_POD_FIELDS['metadata']);
  });
});
