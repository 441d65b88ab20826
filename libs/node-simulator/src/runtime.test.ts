import { describe, expect, it } from 'vitest';
import { imageIdOf } from './image-ref.js';
import { nextDeadline } from './runtime.js';
import { EXIT_AFTER_ANNOTATION, EXIT_CODE_ANNOTATION } from './runtime-state.js';
import { cond, cs, ics, pod, PodSim, T0, TIMINGS } from './test-support.js';
import { rfc3339 } from './pod-status.js';

const twoContainers = () =>
  pod({
    containers: [
      { name: 'app', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' },
      // busybox's own command exits at once: a long-running busybox says what it runs
      {
        name: 'side',
        image: 'busybox:1.36',
        command: ['sleep', 'infinity'],
        imagePullPolicy: 'IfNotPresent',
      },
    ],
  });

describe('pod start', () => {
  it('is Pending with containers creating, then Running after podStartMs', () => {
    const s = new PodSim(twoContainers());
    const st0 = s.at(0);
    expect(st0.phase).toBe('Pending');
    expect(cs(st0, 'app')).toMatchObject({
      ready: false,
      started: false,
      restartCount: 0,
      image: 'nginx:1.25',
      imageID: '',
    });
    expect(cs(st0, 'app')?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(cs(st0, 'app')?.containerID).toBeUndefined();
    expect(st0.podIP).toBe('10.244.1.2');
    expect(st0.hostIP).toBe('172.18.0.1');
    expect(st0.startTime).toBe(rfc3339(T0));
    expect(s.rt && nextDeadline(s.rt, T0)).toBe(T0 + 1000);

    expect(s.at(999).phase).toBe('Pending');
    const st = s.at(1000);
    expect(st.phase).toBe('Running');
    for (const name of ['app', 'side']) {
      const c = cs(st, name);
      expect(c).toMatchObject({ ready: true, started: true, restartCount: 0 });
      expect(c?.state?.running?.startedAt).toBe(rfc3339(T0 + 1000));
      expect(c?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    }
    expect(cs(st, 'app')?.imageID).toBe(imageIdOf('nginx:1.25'));
    expect(cond(st, 'Ready')?.status).toBe('True');
    expect(cond(st, 'ContainersReady')?.status).toBe('True');
    expect(s.events('Started')).toEqual([
      'Started: Started container app',
      'Started: Started container side',
    ]);
    expect(s.images.has('docker.io/library/nginx:1.25')).toBe(true);
    expect(s.rt && nextDeadline(s.rt, T0 + 1000)).toBeNull();
  });

  it('starts slow images podStartMs × slowStartFactor later', () => {
    const s = new PodSim(twoContainers(), { slowStartImages: ['busybox:*'], slowStartFactor: 4 });
    s.at(0);
    expect(s.at(1000).phase).toBe('Pending');
    expect(cs(s.at(1000), 'app')?.ready).toBe(true);
    expect(s.at(4000).phase).toBe('Running');
  });

  it('runs init containers to completion, one after the other, before the containers', () => {
    const s = new PodSim(
      pod({
        initContainers: [
          // a command the simulator does not know runs for initContainerMs in an init container
          { name: 'init1', image: 'busybox', command: ['/bin/migrate'] },
          { name: 'init2', image: 'busybox', command: ['/bin/migrate'] },
        ],
        containers: [{ name: 'app', image: 'nginx' }],
      }),
    );
    const st0 = s.at(0);
    expect(cond(st0, 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [init1 init2]',
    });
    expect(cs(st0, 'app')?.state?.waiting?.reason).toBe('PodInitializing');
    expect(ics(s.at(1000), 'init1')?.state?.running).toBeDefined();
    const st1 = s.at(1100);
    expect(ics(st1, 'init1')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(ics(st1, 'init2')?.state?.waiting?.reason).toBe('ContainerCreating');
    expect(s.at(2200).phase).toBe('Pending');
    expect(cond(s.at(2200), 'Initialized')?.status).toBe('True');
    const st = s.at(3200);
    expect(st.phase).toBe('Running');
    expect(ics(st, 'init2')?.state?.terminated?.exitCode).toBe(0);
    expect(cond(st, 'Ready')?.status).toBe('True');
  });

  it('runs a restartable init container (sidecar) alongside the containers', () => {
    const s = new PodSim(
      pod({
        initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }],
        containers: [{ name: 'app', image: 'nginx' }],
      }),
    );
    s.at(0);
    expect(ics(s.at(1000), 'proxy')?.state?.running).toBeDefined();
    const st = s.at(2000);
    expect(st.phase).toBe('Running');
    expect(ics(st, 'proxy')).toMatchObject({ ready: true, started: true });
    expect(cond(st, 'Ready')?.status).toBe('True');
  });

  it('restarts a native sidecar whose image changed, in place: new ID, restartCount + 1; the app container kept', () => {
    // kubelet `computeInitContainerActions`: a running restartable init container whose definition changed is
    // killed ("Init container <name> definition changed") and started again; the main containers are left alone
    const s = new PodSim(
      pod({
        initContainers: [{ name: 'proxy', image: 'nginx:1.25', restartPolicy: 'Always' }],
        containers: [{ name: 'app', image: 'nginx:1.25' }],
      }),
    );
    s.images.add('docker.io/library/nginx:1.26');
    for (let t = 0; t < 5000; t += 500) s.at(t);
    const before = s.at(5000);
    expect(cs(before, 'app')?.containerID).toBeTruthy();
    if (s.rt) s.rt.reportedAt = T0 + 5000;
    s.setImage('proxy', 'nginx:1.26');
    s.at(6000);
    expect(s.events('Killing')).toEqual(['Killing: Init container proxy definition changed']);
    for (let t = 6500; t < 8000; t += 500) s.at(t);
    const after = s.at(8000);
    expect(ics(after, 'proxy')).toMatchObject({ image: 'nginx:1.26', restartCount: 1, ready: true });
    expect(ics(after, 'proxy')?.containerID).not.toBe(ics(before, 'proxy')?.containerID);
    expect(cs(after, 'app')).toMatchObject({ restartCount: 0, containerID: cs(before, 'app')?.containerID });
    expect(cond(after, 'Ready')?.status).toBe('True');
  });

  it('survives pods without containers or spec', () => {
    const s = new PodSim({ metadata: { name: 'x' } });
    expect(() => s.at(0)).not.toThrow();
    expect(() => s.at(5000)).not.toThrow();
  });
});

describe('in-place image change', () => {
  it("is acted on at the kubelet's next sync: one PLEG relist after the pod's last status report", () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    s.at(1000);
    if (s.rt) s.rt.reportedAt = T0 + 1000; // the pod loop records when it wrote the status
    s.setImage('app', 'nginx:1.26');
    const waiting = s.at(1200);
    expect(cs(waiting, 'app')).toMatchObject({ image: 'nginx:1.25', restartCount: 0, ready: true });
    expect(s.events('Killing')).toEqual([]);
    expect(s.rt && nextDeadline(s.rt, T0 + 1200)).toBe(T0 + 2000);
    const killed = s.at(2000);
    expect(s.events('Killing')).toEqual(['Killing: Container app definition changed, will be restarted']);
    expect(cs(killed, 'app')?.lastState?.terminated?.finishedAt).toBe(rfc3339(T0 + 2000));
    // a change long after the last report is acted on at once
    if (s.rt) s.rt.reportedAt = T0 + 2000;
    s.at(5000);
    s.setImage('app', 'nginx:1.27');
    s.at(5000);
    expect(s.events('Killing')).toHaveLength(2);
  });

  it('restarts only that container: restartCount+1, new image and imageID, not ready for containerRestartMs', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    const before = s.at(1000);
    const side0 = cs(before, 'side');
    s.setImage('app', 'nginx:1.26');

    const during = s.at(5000);
    const app = cs(during, 'app');
    expect(app?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    // until the new container runs, the status still shows the old image (OpenKruise's completion check relies on it)
    expect(app).toMatchObject({
      image: 'nginx:1.25',
      imageID: imageIdOf('nginx:1.25'),
      restartCount: 0,
      ready: false,
    });
    expect(app?.lastState?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
      finishedAt: rfc3339(T0 + 5000),
    });
    expect(cond(during, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });
    expect(during.phase).toBe('Running');
    expect(s.events('Killing')).toEqual(['Killing: Container app definition changed, will be restarted']);

    const restarted = s.at(5300); // image pulled
    expect(cs(restarted, 'app')).toMatchObject({
      image: 'nginx:1.26',
      imageID: imageIdOf('nginx:1.26'),
      restartCount: 1,
      ready: false,
      started: true,
    });
    expect(cs(restarted, 'app')?.state?.running?.startedAt).toBe(rfc3339(T0 + 5300));
    expect(cs(restarted, 'app')?.containerID).not.toBe(cs(before, 'app')?.containerID);
    expect(cond(restarted, 'Ready')?.status).toBe('False');
    expect(s.rt && nextDeadline(s.rt, T0 + 5300)).toBe(T0 + 5800);

    const ready = s.at(5800);
    expect(cs(ready, 'app')?.ready).toBe(true);
    expect(cond(ready, 'Ready')?.status).toBe('True');
    expect(cs(ready, 'side')).toEqual(side0);
    expect(ready.podIP).toBe(before.podIP);
  });

  it('does not pull an image the node already has (IfNotPresent)', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    s.at(1000);
    s.setImage('app', 'busybox:1.36');
    const st = s.at(2000);
    expect(cs(st, 'app')).toMatchObject({ restartCount: 1, image: 'busybox:1.36', ready: false });
    expect(s.events('Pulled').at(-1)).toBe(
      'Pulled: Container image "busybox:1.36" already present on machine',
    );
  });

  it('ignores changes that are not images', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    const st = s.at(1000);
    s.pod = { ...s.pod, metadata: { ...s.pod.metadata, labels: { a: 'b' }, generation: 2 } };
    const after = s.at(3000);
    expect(after.containerStatuses).toEqual(st.containerStatuses);
  });
});

describe('faults', () => {
  it('crash-looping image: restarts with growing restartCount and CrashLoopBackOff in between', () => {
    const s = new PodSim(pod({ containers: [{ name: 'app', image: 'crash:1' }] }), {
      crashLoopImages: ['crash:*'],
    });
    s.at(0);
    expect(cs(s.at(1000), 'app')?.state?.running).toBeDefined();
    const backoff = s.at(1300);
    expect(cs(backoff, 'app')?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(cs(backoff, 'app')?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs(backoff, 'app')?.restartCount).toBe(0);
    expect(backoff.phase).toBe('Running');
    expect(cond(backoff, 'Ready')?.status).toBe('False');
    expect(cs(s.at(2300), 'app')).toMatchObject({ restartCount: 1, started: true });
    expect(cs(s.at(2600), 'app')?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(cs(s.at(4600), 'app')?.restartCount).toBe(2); // back-off doubled to 2 s
    expect(s.events('BackOff')).toHaveLength(2);
  });

  it('failing pull: ErrImagePull then ImagePullBackOff, retried, and runs once the fault is lifted', () => {
    const s = new PodSim(pod({ containers: [{ name: 'app', image: 'nginx:broken-1' }] }), {
      failPullImages: ['nginx:broken*'],
    });
    s.at(0);
    const err = s.at(1000);
    expect(cs(err, 'app')?.state?.waiting).toMatchObject({ reason: 'ErrImagePull' });
    expect(cs(err, 'app')?.state?.waiting?.message).toContain('Failed to pull image "nginx:broken-1"');
    expect(err.phase).toBe('Pending');
    expect(cs(s.at(1500), 'app')?.state?.waiting?.reason).toBe('ImagePullBackOff');
    expect(cs(s.at(2500), 'app')?.state?.waiting?.reason).toBe('ErrImagePull');
    expect(cs(s.at(3000), 'app')?.state?.waiting?.reason).toBe('ImagePullBackOff');
    s.faults = { ...s.faults, failPullImages: [] };
    s.at(5000); // back-off (2 s) over: pulling
    const st = s.at(5300);
    expect(st.phase).toBe('Running');
    expect(cs(st, 'app')).toMatchObject({
      restartCount: 0,
      ready: true,
      imageID: imageIdOf('nginx:broken-1'),
    });
  });

  it('in-place change to an image that fails to pull keeps the old container status until it can run', () => {
    const s = new PodSim(twoContainers(), { failPullImages: ['nginx:nope'] });
    s.at(0);
    s.at(1000);
    s.setImage('app', 'nginx:nope');
    s.at(2000);
    const st = s.at(2300);
    expect(cs(st, 'app')?.state?.waiting?.reason).toBe('ErrImagePull');
    expect(cs(st, 'app')).toMatchObject({
      image: 'nginx:1.25',
      imageID: imageIdOf('nginx:1.25'),
      ready: false,
    });
    expect(cond(st, 'Ready')?.status).toBe('False');
  });
});

describe('graceful deletion', () => {
  it('stops the containers after podStopMs (capped by the grace period) and ends terminal', () => {
    // a sidecar that exits on SIGTERM (one that ignores it: runtime-termination.test.ts)
    const p = twoContainers();
    const side = p.spec?.containers?.[1];
    if (side) side.command = ['sh', '-c', "trap 'exit 0' TERM; sleep infinity & wait"];
    const s = new PodSim(p);
    s.at(0);
    s.at(1000);
    s.pod = {
      ...s.pod,
      metadata: {
        ...s.pod.metadata,
        deletionTimestamp: rfc3339(T0 + 32_000),
        deletionGracePeriodSeconds: 30,
      },
    };
    const stopping = s.at(2000);
    expect(cs(stopping, 'app')?.state?.running).toBeDefined();
    expect(s.rt?.terminal).toBe(false);
    const st = s.at(2200);
    expect(cs(st, 'app')?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
      finishedAt: rfc3339(T0 + 2200),
    });
    expect(cs(st, 'app')?.ready).toBe(false);
    expect(st.phase).toBe('Succeeded');
    expect(cond(st, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(s.rt?.terminal).toBe(true);
    expect(s.events('Killing')).toEqual([
      'Killing: Stopping container app',
      'Killing: Stopping container side',
    ]);
  });

  it('a grace period shorter than podStopMs kills (exit 137) at the end of the grace period', () => {
    const s = new PodSim(twoContainers(), {}, { ...TIMINGS, podStopMs: 5000 });
    s.at(0);
    s.at(1000);
    s.pod = {
      ...s.pod,
      metadata: { ...s.pod.metadata, deletionTimestamp: rfc3339(T0 + 3000), deletionGracePeriodSeconds: 2 },
    };
    s.at(1000);
    const st = s.at(3000);
    expect(cs(st, 'app')?.state?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(st.phase).toBe('Failed');
  });

  it('a pod deleted before it started ends at once', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    s.pod = {
      ...s.pod,
      metadata: {
        ...s.pod.metadata,
        deletionTimestamp: rfc3339(T0 + 30_000),
        deletionGracePeriodSeconds: 30,
      },
    };
    const st = s.at(100);
    expect(s.rt?.terminal).toBe(true);
    expect(cs(st, 'app')?.state?.terminated?.reason).toBe('ContainerStatusUnknown');
    expect(st.phase).toBe('Failed');
  });
});

describe('run-to-completion pods', () => {
  const job = (policy: string, code?: number) =>
    pod(
      { restartPolicy: policy, containers: [{ name: 'work', image: 'busybox', command: ['/bin/work'] }] },
      {
        annotations: {
          [EXIT_AFTER_ANNOTATION]: '500',
          ...(code !== undefined ? { [EXIT_CODE_ANNOTATION]: String(code) } : {}),
        },
      },
    );

  it('Never + exit 0 → Succeeded', () => {
    const s = new PodSim(job('Never'));
    s.at(0);
    expect(s.at(1000).phase).toBe('Running');
    const st = s.at(1500);
    expect(st.phase).toBe('Succeeded');
    expect(cs(st, 'work')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cond(st, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(s.rt && nextDeadline(s.rt, T0 + 1500)).toBeNull();
  });

  it('Never + exit 3 → Failed', () => {
    const s = new PodSim(job('Never', 3));
    s.at(0);
    expect(s.at(1500).phase).toBe('Failed');
  });

  it('OnFailure + exit 2 → restarted', () => {
    const s = new PodSim(job('OnFailure', 2));
    s.at(0);
    expect(cs(s.at(1500), 'work')?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(s.at(1500).phase).toBe('Running');
    expect(cs(s.at(2500), 'work')?.restartCount).toBe(1);
  });

  it('the annotation does nothing for restartPolicy Always', () => {
    const s = new PodSim(job('Always'));
    s.at(0);
    expect(s.at(60_000).phase).toBe('Running');
  });
});

describe('adoption (simulator restart)', () => {
  it('rebuilds the runtime from the reported status and reports the same status', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    s.at(1000);
    s.setImage('app', 'nginx:1.26');
    s.at(2000);
    const st = s.at(3000);
    const again = new PodSim(s.pod);
    again.images.add('docker.io/library/nginx:1.26');
    expect(again.at(4000)).toEqual({ ...st, conditions: st.conditions });
  });

  it('restarts a container whose spec image changed while the simulator was away', () => {
    const s = new PodSim(twoContainers());
    s.at(0);
    s.at(1000);
    const again = new PodSim(s.pod);
    again.setImage('side', 'busybox:1.37');
    again.at(2000);
    // `sleep infinity` ignores SIGTERM: it runs the pod's grace period (30 s), then the new image is pulled
    expect(cs(again.at(31_900), 'side')).toMatchObject({ restartCount: 0, image: 'busybox:1.36' });
    again.at(32_000);
    const st = again.at(32_300);
    expect(cs(st, 'side')).toMatchObject({ restartCount: 1, image: 'busybox:1.37' });
    expect(cs(st, 'app')).toEqual(cs(s.pod.status ?? {}, 'app'));
  });
});
