import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, type KubeObject, ForbiddenError } from '@regatta/kube';
import type { ControllerRevision, PodTemplate } from '@regatta/revision';
import { MemoryCluster } from '@regatta/workload';
import { ImagePreDownloadControl, type PrepareInput } from './control.js';

const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { namespace: 'ns', name: 'demo', uid: 'cs-uid' },
};
const template = (image: string, side = 'busybox:1'): PodTemplate => ({
  metadata: { labels: { app: 'demo' } },
  spec: {
    containers: [
      { name: 'main', image },
      { name: 'side', image: side },
    ],
  },
});
const revision = (name: string, labels: Record<string, string> = {}): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: {
    namespace: 'ns',
    name,
    uid: `${name}-uid`,
    labels: { 'controller.kubernetes.io/hash': name, ...labels },
  },
  revision: 2,
});
const log = { debug: () => undefined, info: () => undefined, warn: () => undefined };

function setup() {
  const cluster = new MemoryCluster();
  const events: { reason: string; message: string }[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string, message: string) => {
      events.push({ reason, message });
    },
  };
  const control = new ImagePreDownloadControl({
    client: cluster.writer,
    jobs: cluster.reader('ImagePullJob'),
    recorder,
  });
  const input = (rev: ControllerRevision, over: Partial<PrepareInput> = {}): PrepareInput => ({
    owner,
    ownerKind: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
    selector: { matchLabels: { app: 'demo' } },
    template: template('nginx:2'),
    oldTemplates: [template('nginx:1')],
    updateRevision: rev,
    settings: { parallelism: 1, timeoutSeconds: 300 },
    ignore: undefined,
    log,
    ...over,
  });
  return { cluster, events, control, input };
}

describe('ImagePreDownloadControl', () => {
  it('sync: prepare creates the jobs once; wait does nothing; cleanup deletes them; a failure is logged, not thrown', async () => {
    const { cluster, control, input } = setup();
    const rev = revision('demo-2');
    cluster.add(rev);
    let computed = 0;
    const rest = () => {
      computed++;
      const { owner: _o, updateRevision: _u, log: _l, ...others } = input(rev);
      return others;
    };
    await control.sync({ action: 'wait' }, owner, rev, rest, log);
    expect([computed, cluster.all('ImagePullJob')]).toEqual([0, []]);
    await control.sync({ action: 'prepare' }, owner, rev, rest, log);
    await control.sync({ action: 'prepare' }, owner, rev, rest, log);
    // the second round finds the revision handled and computes nothing
    expect(computed).toBe(1);
    expect(cluster.all('ImagePullJob').map((j) => j.metadata?.name)).toEqual(['demo-2-main']);
    await control.sync({ action: 'cleanup' }, owner, rev, rest, log);
    expect(cluster.all('ImagePullJob')).toEqual([]);
    const warned: unknown[] = [];
    const failing = () => {
      throw new Error('boom');
    };
    await control.sync({ action: 'prepare' }, owner, revision('demo-3'), failing, {
      ...log,
      warn: (o) => warned.push(o),
    });
    expect(warned).toHaveLength(1);
  });

  it('creates one job per changed container, says so in an event and labels the revision created', async () => {
    const { cluster, events, control, input } = setup();
    const rev = revision('demo-2');
    cluster.add(rev);
    expect(await control.prepare(input(rev))).toEqual({ outcome: 'created', jobs: ['demo-2-main'] });
    expect(cluster.all('ImagePullJob').map((j) => j.metadata?.name)).toEqual(['demo-2-main']);
    expect(events).toEqual([
      { reason: 'CreatedImagePullJob', message: 'created ImagePullJob demo-2-main for image: nginx:2' },
    ]);
    expect(cluster.get('ControllerRevision', 'ns', 'demo-2')?.metadata?.labels).toMatchObject({
      'apps.kruise.io/pre-predownload-created': 'true',
    });
    // handled: neither created again nor labelled again, even before the cache shows the label
    expect(await control.prepare(input(rev))).toEqual({ outcome: 'handled' });
    expect(cluster.written('create', 'ImagePullJob')).toHaveLength(1);
    expect(cluster.written('patch', 'ControllerRevision')).toHaveLength(1);
  });

  it.each([['apps.kruise.io/pre-predownload-created'], ['apps.kruise.io/image-predownload-ignored']])(
    'leaves a revision labelled %s alone',
    async (label) => {
      const { cluster, control, input } = setup();
      const rev = revision('demo-2', { [label]: 'true' });
      cluster.add(rev);
      expect(await control.prepare(input(rev))).toEqual({ outcome: 'handled' });
      expect(cluster.writes).toEqual([]);
    },
  );

  it('labels an ignored revision and creates nothing', async () => {
    const { cluster, events, control, input } = setup();
    const rev = revision('demo-2');
    cluster.add(rev);
    expect(await control.prepare(input(rev, { ignore: 'FewReplicas' }))).toEqual({
      outcome: 'ignored',
      reason: 'FewReplicas',
    });
    expect(cluster.all('ImagePullJob')).toEqual([]);
    expect(events).toEqual([]);
    expect(cluster.get('ControllerRevision', 'ns', 'demo-2')?.metadata?.labels).toMatchObject({
      'apps.kruise.io/image-predownload-ignored': 'true',
    });
  });

  it('an existing job is no error and no event; a refused create is a FailedCreateImagePullJob event; the revision is labelled created either way', async () => {
    const { cluster, events, control, input } = setup();
    const rev = revision('demo-2');
    cluster.add(rev);
    cluster.failOn((w) =>
      w.verb !== 'create'
        ? undefined
        : w.name === 'demo-2-main'
          ? new AlreadyExistsError({ status: 409, reason: 'AlreadyExists', serverMessage: 'exists' })
          : new ForbiddenError({
              status: 403,
              reason: 'Forbidden',
              serverMessage: 'feature-gate ImagePullJobGate is not enabled',
            }),
    );
    const out = await control.prepare(input(rev, { template: template('nginx:2', 'busybox:2') }));
    expect(out).toEqual({ outcome: 'created', jobs: [] });
    expect(events.map((e) => e.reason)).toEqual(['FailedCreateImagePullJob']);
    expect(events[0]?.message).toMatch(/^failed to create ImagePullJob demo-2-side: /);
    cluster.failOn(undefined);
    expect(cluster.get('ControllerRevision', 'ns', 'demo-2')?.metadata?.labels).toMatchObject({
      'apps.kruise.io/pre-predownload-created': 'true',
    });
  });

  it('cleanup deletes only the jobs this workload controls', async () => {
    const { cluster, control } = setup();
    const job = (name: string, uid: string | undefined): KubeObject => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImagePullJob',
      metadata: {
        namespace: 'ns',
        name,
        ...(uid
          ? { ownerReferences: [{ apiVersion: 'x', kind: 'CloneSet', name: 'n', uid, controller: true }] }
          : {}),
      },
    });
    cluster.add(
      job('mine-1', 'cs-uid'),
      job('mine-2', 'cs-uid'),
      job('other', 'other-uid'),
      job('user', undefined),
    );
    expect(await control.cleanup(owner)).toBe(2);
    expect(
      cluster
        .all('ImagePullJob')
        .map((j) => j.metadata?.name)
        .sort(),
    ).toEqual(['other', 'user']);
    expect(await control.cleanup(owner)).toBe(0);
  });
});
