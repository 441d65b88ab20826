// OpenKruise's CloneSet e2e scenarios (upstream test/e2e/apps/cloneset.go) not covered by the other scenario
// files: what a user observes (pods, UIDs, restarts, status and its Progressing condition, events) on the shared
// local cluster. The seed articles' CloneSets are in cloneset-seeds and cloneset-seed-hooks.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NodeSimulator } from '@regatta/node-simulator';
import { isReady, specOf, useCloneSetScenarios, CS } from './testing/scenario-harness.js';
import {
  STATE,
  REVISION,
  uidOf,
  nameOf,
  stateOf,
  containerStatus,
  sleep,
  holds,
} from './testing/scenario-helpers.js';
import {
  templateOf,
  inPlaceState,
  MAX_INT32,
  AVAILABLE,
  UPDATED,
  PAUSED,
  PARTITION_AVAILABLE,
  deadlineExceeded,
  useE2eHelpers,
} from './testing/e2e-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, patch, setImage, settled } = h;
const { progressing, pollProgressing } = useE2eHelpers(h);

describe('CloneSet e2e (OpenKruise test/e2e/apps/cloneset.go)', () => {
  it('progressDeadlineSeconds = MaxInt32 means no Progressing condition at all (also with minReadySeconds = MaxInt32)', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'pds-max', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['progressDeadlineSeconds'] = MAX_INT32;
    });
    await settled(ns, 'pds-max', 1);
    await holds(
      2_000,
      () => cloneSet(ns, 'pds-max'),
      (cs) => {
        expect(cs.spec['progressDeadlineSeconds']).toBe(MAX_INT32);
        expect(cs.status!.conditions?.find((c) => c.type === 'Progressing')).toBeUndefined();
      },
    );
    await patch(ns, 'pds-max', { spec: { progressDeadlineSeconds: 600 } });
    await pollProgressing(ns, 'pds-max').toEqual(AVAILABLE);

    // minReadySeconds = MaxInt32 too: the pod is ready and never available, still no condition
    await h.createDemo(ns, 'mrs-max', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['minReadySeconds'] = MAX_INT32;
      cs.spec['progressDeadlineSeconds'] = MAX_INT32;
    });
    await expect
      .poll(async () => (await cloneSet(ns, 'mrs-max')).status?.readyReplicas, { timeout: 30_000 })
      .toBe(1);
    const before = await cloneSet(ns, 'mrs-max');
    await holds(
      3_000,
      () => cloneSet(ns, 'mrs-max'),
      (cs) => {
        expect(cs.spec['minReadySeconds']).toBe(MAX_INT32);
        expect(cs.status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
        expect(cs.status!.conditions?.find((c) => c.type === 'Progressing')).toBeUndefined();
        // nothing is written over and over (a MaxInt32 s requeue must not turn into an immediate one)
        expect(cs.metadata!.resourceVersion).toBe(before.metadata!.resourceVersion);
      },
    );
    // the controller waits MaxInt32 s for the pod to become available: a plain wait, not a timer that Node cuts to
    // 1 ms (TimeoutOverflowWarning) and so fires over and over (this scenario runs first, while no earlier timer of
    // another CloneSet hides it)
    await sleep(5_000);
    const overflows = h.controllerLog().split('TimeoutOverflowWarning').length - 1;
    expect.soft(overflows, 'TimeoutOverflowWarnings in the cloneset program log').toBe(0);
    // minReadySeconds 2 and no deadline: the pod becomes available, and there is still no condition
    await patch(ns, 'mrs-max', { spec: { minReadySeconds: 2, progressDeadlineSeconds: null } });
    await expect
      .poll(async () => (await cloneSet(ns, 'mrs-max')).status?.availableReplicas, { timeout: 20_000 })
      .toBe(1);
    expect(await progressing(ns, 'mrs-max')).toBeUndefined();
  });

  it('hostNetwork with a containerPort and no hostPort: the pods get hostPort = containerPort, and Progressing is CloneSetAvailable', async () => {
    const ns = await namespace();
    // a port nobody else on the shared nodes uses (two pods with one host port cannot share a node)
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    await h.createDemo(ns, 'hostnet', (cs) => {
      cs.spec.replicas = 2;
      cs.spec['progressDeadlineSeconds'] = 600;
      const t = templateOf(cs);
      t.spec['hostNetwork'] = true;
      t.spec.containers = [
        {
          name: 'nginx',
          image: 'nginx:alpine',
          imagePullPolicy: 'IfNotPresent',
          ports: [{ containerPort: port }],
        },
      ];
    });
    await settled(ns, 'hostnet', 2);
    const list = await pods(ns);
    for (const p of list) {
      expect(specOf(p).hostNetwork).toBe(true);
      expect(specOf(p).containers[0]!.ports).toEqual([
        expect.objectContaining({ containerPort: port, hostPort: port, protocol: 'TCP' }),
      ]);
    }
    // the host port is taken on a node, so the two pods run on two nodes
    expect(new Set(list.map((p) => specOf(p).nodeName)).size).toBe(2);
    await pollProgressing(ns, 'hostnet').toEqual(AVAILABLE);
    expect((await cloneSet(ns, 'hostnet')).status).toMatchObject({
      availableReplicas: 2,
      updatedReplicas: 2,
    });
  });

  it('lifecycle preNormal finalizer: pods carrying it become Normal; a pod without it stays PreparingNormal (deadline exceeded) until the finalizer is added', async () => {
    const ns = await namespace();
    const hook = 'example.io/registered';
    // the template carries the hook's finalizer: every pod is "all hooked" and goes Normal
    await h.createDemo(ns, 'prenormal', (cs) => {
      cs.spec.replicas = 2;
      cs.spec['lifecycle'] = { preNormal: { finalizersHandler: [hook] } };
      cs.spec['progressDeadlineSeconds'] = 600;
      templateOf(cs).metadata.finalizers = [hook];
    });
    await settled(ns, 'prenormal', 2);
    await expect
      .poll(async () => (await pods(ns)).filter((p) => p.metadata!.labels![REVISION]).map(stateOf), {
        timeout: 20_000,
      })
      .toEqual(['Normal', 'Normal']);
    for (const p of await pods(ns)) expect(p.metadata!.finalizers).toContain(hook);
    await pollProgressing(ns, 'prenormal').toEqual(AVAILABLE);
    expect((await cloneSet(ns, 'prenormal')).status!.availableReplicas).toBe(2);

    // upstream's variant: the template does not carry the finalizer, so the pod is ready but not hooked
    const ns2 = await namespace();
    await h.createDemo(ns2, 'unhooked', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['lifecycle'] = { preNormal: { finalizersHandler: [hook] } };
      cs.spec['progressDeadlineSeconds'] = 5;
    });
    await expect
      .poll(async () => (await cloneSet(ns2, 'unhooked')).status?.readyReplicas, { timeout: 30_000 })
      .toBe(1);
    const pod = (await pods(ns2))[0]!;
    await holds(
      2_000,
      async () => ({ pods: await pods(ns2), status: (await cloneSet(ns2, 'unhooked')).status! }),
      (v) => {
        expect(v.pods.map(stateOf)).toEqual(['PreparingNormal']);
        expect(v.status.availableReplicas).toBe(0);
      },
    );
    const rev = (await cloneSet(ns2, 'unhooked')).status!.updateRevision!;
    await pollProgressing(ns2, 'unhooked', 20_000).toEqual(deadlineExceeded(rev));

    // the user's controller hooks the pod: it goes Normal and the CloneSet is available
    await h.patchPod(ns2, nameOf(pod), { metadata: { finalizers: [hook] } }, 'merge');
    await expect.poll(async () => (await pods(ns2)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
    // and once its finalizer is taken off again, the pod stays Normal
    await h.patchPod(ns2, nameOf(pod), { metadata: { finalizers: null } }, 'merge');
    await pollProgressing(ns2, 'unhooked').toEqual(AVAILABLE);
    expect((await cloneSet(ns2, 'unhooked')).status!.availableReplicas).toBe(1);
    expect((await pods(ns2)).map(uidOf)).toEqual([uidOf(pod)]);
  });

  it('pods no node can take stay Pending and PreparingNormal: ProgressDeadlineExceeded; after the template is fixed, Available', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'unsched', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['progressDeadlineSeconds'] = 5;
      templateOf(cs).spec['nodeSelector'] = { 'regatta.test/no-such-node': 'true' };
    });
    await expect.poll(async () => (await pods(ns)).length, { timeout: 20_000 }).toBe(1);
    const pending = (await pods(ns))[0]!;
    await holds(
      3_000,
      async () => await pods(ns),
      (now) => {
        expect(now).toHaveLength(1);
        expect(specOf(now[0]!).nodeName).toBeUndefined();
        expect(now[0]!.status?.phase).toBe('Pending');
        expect(now[0]!.metadata!.labels![STATE]).toBe('PreparingNormal');
      },
    );
    const first = await cloneSet(ns, 'unsched');
    await pollProgressing(ns, 'unsched', 20_000).toEqual(deadlineExceeded(first.status!.updateRevision!));
    expect((await cloneSet(ns, 'unsched')).status).toMatchObject({
      replicas: 1,
      readyReplicas: 0,
      availableReplicas: 0,
    });

    // the user drops the nodeSelector: a new revision, the pending pod is replaced, and the CloneSet is available
    await patch(ns, 'unsched', { spec: { template: { spec: { nodeSelector: null } } } });
    const after = await settled(ns, 'unsched', 1);
    expect(after.status!.updateRevision).not.toBe(first.status!.updateRevision);
    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).not.toBe(uidOf(pending));
    expect(specOf(now).nodeName).toBeTruthy();
    await expect.poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
    await pollProgressing(ns, 'unsched').toEqual(AVAILABLE);
  });

  it('paused at creation: pods are still created and become ready; Progressing is CloneSetPaused', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'paused', (cs) => {
      cs.spec.updateStrategy = { type: 'ReCreate', paused: true };
      // as upstream: minReadySeconds keeps the pods from being available, so the condition shows the pause
      cs.spec['minReadySeconds'] = 60;
      cs.spec['progressDeadlineSeconds'] = 600;
    });
    await expect
      .poll(
        async () => {
          const s = (await cloneSet(ns, 'paused')).status;
          return [s?.replicas, s?.readyReplicas, s?.updatedReplicas, s?.availableReplicas];
        },
        { timeout: 30_000 },
      )
      .toEqual([3, 3, 3, 0]);
    await pollProgressing(ns, 'paused').toEqual(PAUSED);
    const list = await pods(ns);
    expect(list).toHaveLength(3);
    const rev = (await cloneSet(ns, 'paused')).status!.updateRevision;
    for (const p of list) {
      expect(isReady(p)).toBe(true);
      expect(p.metadata!.labels![REVISION]).toBe(rev);
    }
    await expect.poll(async () => (await events(ns, 'SuccessfulCreate')).length, { timeout: 10_000 }).toBe(3);
  });

  it('partition "99%", replicas 4, maxUnavailable 50%: exactly one pod is updated, expectedUpdatedReplicas 1, ProgressPartitionAvailable', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'p99', (cs) => {
      cs.spec.replicas = 4;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: '50%', partition: '99%' };
      cs.spec['minReadySeconds'] = 2;
      cs.spec['progressDeadlineSeconds'] = 600;
    });
    const first = await settled(ns, 'p99', 4);
    await pollProgressing(ns, 'p99').toEqual(AVAILABLE);
    const uids = (await pods(ns)).map(uidOf).sort();

    await setImage(ns, 'p99', 'nginx:mainline');
    await expect
      .poll(
        async () => {
          const s = (await cloneSet(ns, 'p99')).status!;
          return [s.updatedReplicas, s.updatedReadyReplicas, s.expectedUpdatedReplicas, s.readyReplicas];
        },
        { timeout: 40_000, interval: 300 },
      )
      .toEqual([1, 1, 1, 4]);
    await pollProgressing(ns, 'p99').toEqual(PARTITION_AVAILABLE);
    // stable: still one, in place
    await holds(
      5_000,
      async () => ({ cs: await cloneSet(ns, 'p99'), pods: await pods(ns) }),
      (v) => {
        expect(v.cs.status!.updatedReplicas).toBe(1);
        expect(v.cs.status!.currentRevision).toBe(first.status!.updateRevision);
        expect(v.pods.filter((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toHaveLength(1);
        expect(v.pods.map(uidOf).sort()).toEqual(uids);
      },
    );
    expect(await progressing(ns, 'p99')).toEqual(PARTITION_AVAILABLE);
  });

  it('a resources change with InPlaceIfPossible resizes the pods in place (same UIDs), a QoS class change recreates them with an event', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'qos', (cs) => {
      cs.spec.replicas = 2;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
      templateOf(cs).spec.containers[0]!.resources = { requests: { cpu: '50m' } };
    });
    const first = await settled(ns, 'qos', 2);
    const original = await pods(ns);
    for (const p of original) expect(p.status?.qosClass).toBe('Burstable');

    const setResources = async (resources: Record<string, unknown>) => {
      const c = templateOf(await cloneSet(ns, 'qos')).spec.containers[0]!;
      await patch(ns, 'qos', { spec: { template: { spec: { containers: [{ ...c, resources }] } } } });
    };
    // same QoS class (Burstable): resized in place through pods/resize (InPlaceWorkloadVerticalScaling, on by
    // default; upstream with the gate off recreates, docs/adr/0087-in-place-resource-resize.md)
    await setResources({ requests: { cpu: '100m' } });
    const second = await settled(ns, 'qos', 2);
    expect(second.status!.updateRevision).not.toBe(first.status!.updateRevision);
    const resized = await pods(ns);
    expect(resized.map(uidOf).sort()).toEqual(original.map(uidOf).sort());
    for (const p of resized) {
      expect(p.status?.qosClass).toBe('Burstable');
      expect(specOf(p).containers[0]!.resources).toEqual({ requests: { cpu: '100m' } });
      expect(p.status?.containerStatuses?.[0]?.['resources']).toEqual({ requests: { cpu: '100m' } });
      expect(p.metadata!.labels![REVISION]).toBe(second.status!.updateRevision);
    }
    // Burstable → Guaranteed: a running pod cannot change its QoS class, so it is recreated, and an event says why
    const guaranteed = { cpu: '1', memory: '1Gi' };
    await setResources({ requests: guaranteed, limits: guaranteed });
    const third = await settled(ns, 'qos', 2);
    const now = await pods(ns);
    for (const p of now) {
      expect(original.map(uidOf)).not.toContain(uidOf(p));
      expect(p.status?.qosClass).toBe('Guaranteed');
      expect(p.metadata!.labels![REVISION]).toBe(third.status!.updateRevision);
    }
    await expect
      .poll(async () => (await events(ns, 'SuccessfulUpdatePodReCreate')).map((e) => e.message).sort(), {
        timeout: 10_000,
      })
      .toEqual(
        resized
          .map(
            (p) =>
              `successfully patch pod ${nameOf(p)} specified-delete for update(revision ${third.status!.updateRevision})`,
          )
          .sort(),
      );
    const qos = await events(ns, 'QoSClassChangeRecreate');
    expect(qos.map((e) => e.message).sort()).toEqual(
      resized
        .map(
          (p) =>
            `pod ${nameOf(p)} is recreated, not resized in place: the resources change would move the pod's QoS class from Burstable to Guaranteed, which a running pod cannot change`,
        )
        .sort(),
    );
    expect(await events(ns, 'SuccessfulUpdatePodInPlace')).toHaveLength(2);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
  });

  describe('on a private node whose runtime crashes example.com/redis:crash* containers', () => {
    const pool = `cse2e-${randomBytes(2).toString('hex')}`;
    const POOL = 'regatta.test/pool';
    let sim: NodeSimulator | undefined;
    const simLog: string[] = [];

    beforeAll(async () => {
      sim = await NodeSimulator.start({
        kubeconfig: inject('cluster').kubeconfig,
        nodes: 1,
        namePrefix: `${pool}-`,
        labels: { [POOL]: pool },
        taints: [{ key: POOL, value: pool, effect: 'NoSchedule' }],
        faults: { crashLoopImages: ['example.com/redis:crash*'] },
        storageClass: '',
        removeNodesOnStop: true,
        log: (l) => simLog.push(l),
      });
    });
    afterAll(async () => {
      await sim?.stop();
    });

    it("two containers with KRUISE_CONTAINER_PRIORITY updated together, the first batch's new image fails: the second never starts, nextContainerImages stays, CloneSetUpdated", async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'prio-fail', (cs) => {
        cs.spec.replicas = 1;
        cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
        cs.spec['progressDeadlineSeconds'] = 600;
        const t = templateOf(cs);
        t.spec['nodeSelector'] = { [POOL]: pool };
        t.spec['tolerations'] = [{ key: POOL, operator: 'Equal', value: pool, effect: 'NoSchedule' }];
        t.spec.containers = [
          { name: 'nginx', image: 'nginx:alpine', imagePullPolicy: 'IfNotPresent' },
          {
            name: 'redis',
            image: 'redis:7.0-alpine',
            imagePullPolicy: 'IfNotPresent',
            env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }],
          },
        ];
      });
      const first = await settled(ns, 'prio-fail', 1);
      await pollProgressing(ns, 'prio-fail').toEqual(AVAILABLE);
      const pod = (await pods(ns))[0]!;
      expect(specOf(pod).nodeName).toBe(`${pool}-1`);

      await h.client.patch(
        { ...CS, namespace: ns, name: 'prio-fail' },
        [
          { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' },
          {
            op: 'replace',
            path: '/spec/template/spec/containers/1/image',
            value: 'example.com/redis:crash-7.2',
          },
        ],
        { type: 'json' },
      );
      // the new redis (higher priority, first batch) starts and crashes: terminated, then waiting in back-off
      await expect
        .poll(
          async () => {
            const r = containerStatus((await pods(ns))[0]!, 'redis');
            return [r?.image, !!r?.lastState?.terminated, r?.state?.waiting?.reason];
          },
          { timeout: 30_000, interval: 300 },
        )
        .toEqual(['example.com/redis:crash-7.2', true, 'CrashLoopBackOff']);
      const updateRevision = (await cloneSet(ns, 'prio-fail')).status!.updateRevision!;
      expect(updateRevision).not.toBe(first.status!.updateRevision);
      // nginx is never touched, and the CloneSet stays "progressing"
      await holds(
        6_000,
        async () => ({ pod: (await pods(ns))[0]!, condition: await progressing(ns, 'prio-fail') }),
        (v) => {
          expect(uidOf(v.pod)).toBe(uidOf(pod));
          expect(specOf(v.pod).containers.find((c) => c.name === 'nginx')!.image).toBe('nginx:alpine');
          expect(containerStatus(v.pod, 'nginx')).toMatchObject({ image: 'nginx:alpine', restartCount: 0 });
          expect(containerStatus(v.pod, 'redis')!.ready).toBe(false);
          expect(inPlaceState(v.pod)).toMatchObject({
            revision: updateRevision,
            nextContainerImages: { nginx: 'nginx:mainline' },
            preCheckBeforeNext: { containersRequiredReady: ['redis'] },
          });
          expect(inPlaceState(v.pod)!.containerBatchesRecord!.map((b) => b.containers)).toEqual([['redis']]);
          expect(v.condition).toEqual(UPDATED);
        },
      );
      expect((await cloneSet(ns, 'prio-fail')).status).toMatchObject({
        updatedReplicas: 1,
        updatedReadyReplicas: 0,
        readyReplicas: 0,
      });
      expect((await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message)).toEqual([
        `successfully update pod ${nameOf(pod)} in-place(revision ${updateRevision})`,
      ]);
      // leave the private node empty before it goes away
      await h.client.delete({ ...CS, namespace: ns, name: 'prio-fail' });
      await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(0);
    });
  });
});
